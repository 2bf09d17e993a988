package org.rma4j.examples.notified;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rma4j.Rma;
import org.rma4j.examples.ProcessJob;
import org.rma4j.examples.notified.PipelinedStencil.Result;

/**
 * {@link PipelinedStencil}: every variant ends with PRK's corner value, in thread mode with 2 and 3
 * ranks, and the notified variant as a job of three processes.
 */
class PipelinedStencilTest {
    private ProcessJob processes;

    @AfterEach
    void removeBaseDirectory() {
        if (processes != null) {
            processes.close();
        }
    }

    static Stream<Arguments> variantsAndRanks() {
        return PipelinedStencil.VARIANTS.stream()
            .flatMap(sync -> Stream.of(Arguments.of(sync, 2), Arguments.of(sync, 3)));
    }

    @ParameterizedTest(name = "{0} with {1} ranks")
    @MethodSource("variantsAndRanks")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void cornerMatchesPrkAfterEveryPass(final Sync sync, final int ranks) {
        final List<Result> results = Rma.callThreads(ranks, job -> PipelinedStencil.run(job, sync, 37, 23, 4));
        assertEquals(5.0 * (37 + 23 - 2), results.getFirst().corner());
        assertTrue(results.getFirst().elapsedNanos() > 0);
        for (int rank = 1; rank < ranks; rank++) {
            assertTrue(Double.isNaN(results.get(rank).corner()), "rank " + rank);
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void oneComputedColumnPerRankStillPipelines() {
        final List<Result> results = Rma.callThreads(4, job -> PipelinedStencil.run(job, Sync.NOTIFIED, 5, 9, 2));
        assertEquals(3.0 * (5 + 9 - 2), results.getFirst().corner());
    }

    @Test
    void aSingleRankComputesAlone() {
        final List<Result> results = Rma.callThreads(1, job -> PipelinedStencil.run(job, Sync.FENCE, 10, 6, 3));
        assertEquals(4.0 * (10 + 6 - 2), results.getFirst().corner());
    }

    @Test
    void blockOfTheWholeGridMatchesTheClosedForm() {
        // First pass from A(0, 0) = 0: A(i, j) = i + j everywhere.
        final StencilBlock block = new StencilBlock(0, 1, 7, 5);
        for (int row = 1; row < 5; row++) {
            assertEquals(6 + row, block.computeRow(row));
        }
        assertEquals(10, block.corner());
    }

    @Test
    void blocksCoverEveryColumnOnce() {
        int next = 0;
        for (int rank = 0; rank < 3; rank++) {
            final StencilBlock block = new StencilBlock(rank, 3, 10, 2);
            assertEquals(next, block.lo());
            assertTrue(block.hi() - Math.max(1, block.lo()) >= 3, "rank " + rank + " computes 3 columns");
            next = block.hi();
        }
        assertEquals(10, next);
    }

    @Test
    void verificationUsesPrkTolerance() {
        assertTrue(PipelinedStencil.verified(5.0 * 58, 37, 23, 4));
        assertFalse(PipelinedStencil.verified(5.0 * 58 + 1, 37, 23, 4));
        assertFalse(PipelinedStencil.verified(Double.NaN, 37, 23, 4));
    }

    @Test
    void tooFewColumnsForTheRanksAreRejected() {
        assertThrows(IllegalArgumentException.class,
            () -> Rma.callThreads(3, job -> PipelinedStencil.run(job, Sync.NOTIFIED, 3, 10, 1)));
    }

    @Test
    void summaryLine() {
        assertEquals(
            "sync-p2p notified: grid 1000x1000, 10 iterations, 4 ranks, 100.0 ms, 0.200 GMOPS, "
                + "corner 21978 (expected 21978): VERIFIED",
            PipelinedStencil.summary(Sync.NOTIFIED, 1000, 1000, 10, 4, new Result(21978, 100_000_000L)));
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void threeProcessesPrintVerified() throws InterruptedException {
        processes = new ProcessJob();
        final ProcessJob.Outcome outcome = processes.run(3, PipelinedStencil.class, "notified", "90", "70", "5");
        assertEquals(0, outcome.result().exitCode(), outcome::transcript);
        assertTrue(outcome.lines().stream()
            .anyMatch(line -> line.startsWith("[0] sync-p2p notified: grid 90x70, 5 iterations, 3 ranks, ")
                && line.endsWith(" GMOPS, corner 948 (expected 948): VERIFIED")),
            outcome::transcript);
    }
}
