package org.rma4j.examples.stencil;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rma4j.Rma;
import org.rma4j.examples.stencil.StripLayout.Axis;
import org.rma4j.examples.stencil.StripStencil.Result;

/**
 * Runs {@link JacobiFence} in thread mode and compares the gathered grid with {@link Jacobi#sequential}.
 */
class JacobiFenceTest extends StripStencilContractTest {
    @Override
    StripStencil stencil() {
        return JacobiFence.STENCIL;
    }

    @Override
    Axis axis() {
        return Axis.ROWS;
    }

    @Test
    void publicRunIsTheFenceStencil() {
        final List<Result> results = Rma.callThreads(2, job -> JacobiFence.run(job, 9, 8, 4));
        assertArrayEquals(Jacobi.sequential(9, 8, 4), results.getFirst().grid());
        assertEquals("jacobi-fence", JacobiFence.STENCIL.name());
    }
}
