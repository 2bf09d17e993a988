package org.rma4j.examples.stencil;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rma4j.Rma;
import org.rma4j.examples.stencil.StripLayout.Axis;
import org.rma4j.examples.stencil.StripStencil.Result;

/**
 * Runs {@link JacobiPassive} (one lock_all epoch, counters for notification) in thread mode.
 */
class JacobiPassiveTest extends StripStencilContractTest {
    @Override
    StripStencil stencil() {
        return JacobiPassive.STENCIL;
    }

    @Override
    Axis axis() {
        return Axis.ROWS;
    }

    /**
     * Many short iterations on thin strips: ranks drift apart by up to one phase, which is where a
     * halo overwritten too early or a notification taken for the wrong phase would show.
     */
    @Test
    void manyIterationsOnThinStripsMatchSequential() {
        final List<Result> results = Rma.callThreads(6, job -> JacobiPassive.run(job, 9, 13, 400));
        assertArrayEquals(Jacobi.sequential(9, 13, 400), results.getFirst().grid());
    }
}
