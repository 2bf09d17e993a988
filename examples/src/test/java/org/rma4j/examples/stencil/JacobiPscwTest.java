package org.rma4j.examples.stencil;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.Group;
import org.rma4j.Rma;
import org.rma4j.examples.ProcessJob;
import org.rma4j.examples.stencil.StripLayout.Axis;
import org.rma4j.examples.stencil.StripStencil.Result;

/**
 * Runs {@link JacobiPscw} (post / start / complete / wait over neighbour groups) in thread mode, and
 * once as a job of three processes.
 */
class JacobiPscwTest extends StripStencilContractTest {
    private ProcessJob processes;

    @Override
    StripStencil stencil() {
        return JacobiPscw.STENCIL;
    }

    @Override
    Axis axis() {
        return Axis.ROWS;
    }

    @AfterEach
    void removeBaseDirectory() {
        if (processes != null) {
            processes.close();
        }
    }

    @Test
    void neighbourGroupsLeaveOutMissingNeighbours() {
        assertEquals(Group.EMPTY, PscwExchange.neighbours(Rma.PROC_NULL, Rma.PROC_NULL));
        assertEquals(Group.of(1), PscwExchange.neighbours(Rma.PROC_NULL, 1));
        assertEquals(Group.of(2), PscwExchange.neighbours(2, Rma.PROC_NULL));
        assertEquals(Group.of(2, 4), PscwExchange.neighbours(2, 4));
    }

    @Test
    void manyIterationsOnThinStripsMatchSequential() {
        final List<Result> results = Rma.callThreads(6, job -> JacobiPscw.run(job, 9, 13, 400));
        assertArrayEquals(Jacobi.sequential(9, 13, 400), results.getFirst().grid());
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void threeProcessesPrintVerified() throws InterruptedException {
        processes = new ProcessJob();
        final ProcessJob.Outcome outcome = processes.run(3, JacobiPscw.class, "37", "29", "25");
        assertEquals(0, outcome.result().exitCode(), outcome::transcript);
        assertTrue(outcome.lines().stream()
            .anyMatch(line -> line.startsWith("[0] stencil jacobi-pscw: grid 37x29, 25 iterations, 3 ranks, ")
                && line.endsWith("max |diff| vs sequential = 0.0e+00: VERIFIED")),
            outcome::transcript);
    }
}
