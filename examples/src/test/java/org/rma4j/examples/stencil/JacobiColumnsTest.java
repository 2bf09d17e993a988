package org.rma4j.examples.stencil;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rma4j.Rma;
import org.rma4j.examples.stencil.StripLayout.Axis;
import org.rma4j.examples.stencil.StripStencil.Result;

/**
 * Runs {@link JacobiColumns} (vertical strips, column halos as vector datatypes) in thread mode.
 */
class JacobiColumnsTest extends StripStencilContractTest {
    @Override
    StripStencil stencil() {
        return JacobiColumns.STENCIL;
    }

    @Override
    Axis axis() {
        return Axis.COLUMNS;
    }

    /** Fewer rows than ranks is fine when columns are split. */
    @Test
    void fewerRowsThanRanksIsAccepted() {
        final List<Result> results = Rma.callThreads(4, job -> JacobiColumns.run(job, 12, 3, 5));
        assertArrayEquals(Jacobi.sequential(12, 3, 5), results.getFirst().grid());
        assertEquals("jacobi-columns", JacobiColumns.STENCIL.name());
    }
}
