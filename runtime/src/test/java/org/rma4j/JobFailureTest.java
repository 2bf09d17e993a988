package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;
import org.rma4j.test.ShmTestDirectory;

/**
 * A rank that ends abnormally never leaves its peers hanging, and its job leaves no file behind.
 */
@Timeout(120)
class JobFailureTest {
    /**
     * Time the survivors get to end by themselves after rank 1 ended: long, so that what is asserted is their
     * own detection even on a loaded machine; it costs nothing when they detect at once.
     */
    private static final Duration SURVIVOR_GRACE = Duration.ofSeconds(30);

    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    @Test
    void shouldStopJobWithStatusOfRankThatExitedWithThree() throws Exception {
        final Outcome outcome = launch(3, "exit3-fence");
        assertEquals(3, outcome.result.exitCode(), outcome.output());
        assertEquals(1, outcome.result.failedRank(), outcome.output());
        assertTrue(outcome.result.failureMessage().orElseThrow().contains("rank 1"), outcome.output());
        assertSurvivorsReported(outcome, 0, 2);
        assertFalse(Files.exists(outcome.result.jobDirectory()));
    }

    @Test
    void shouldReportRankKilledWhileHoldingExclusiveLock() throws Exception {
        final Outcome outcome = launch(2, "kill-lock");
        assertKilledRankReported(outcome);
        assertSurvivorsReported(outcome, 0);
    }

    @Test
    void shouldReportRankKilledWhilePeerWaitsInFence() throws Exception {
        final Outcome outcome = launch(3, "kill-fence");
        assertKilledRankReported(outcome);
        assertSurvivorsReported(outcome, 0, 2);
    }

    @Test
    void shouldFailPeersInThreadModeWhenRankThrows() {
        final List<Throwable> seen = Collections.synchronizedList(new ArrayList<>());
        final AtomicReference<IllegalStateException> thrown = new AtomicReference<>();
        final IllegalStateException failure = assertThrows(IllegalStateException.class,
            () -> Rma.callThreads(3, base.path(), WaitOptions.defaults(), job -> {
                final Window window = job.allocateShared(8, 8);
                if (job.rank() == 2) {
                    final IllegalStateException e = new IllegalStateException("rank 2 gives up");
                    thrown.set(e);
                    throw e;
                }
                try {
                    window.fence(0);
                } catch (final RankFailedException e) {
                    seen.add(e);
                    throw e;
                }
                return null;
            }));
        assertEquals(thrown.get(), failure);
        assertEquals(2, seen.size());
        for (final Throwable t : seen) {
            assertEquals(2, ((RankFailedException)t).rank(), t.getMessage());
        }
    }

    private static void assertKilledRankReported(final Outcome outcome) {
        assertEquals(128 + 9, outcome.result.exitCode(), outcome.output());
        assertEquals(128 + 9, outcome.result.exitCode(1), outcome.output());
        assertEquals(1, outcome.result.failedRank(), outcome.output());
        assertTrue(outcome.result.failureMessage().orElseThrow().contains("rank 1"), outcome.output());
        assertFalse(Files.exists(outcome.result.jobDirectory()));
    }

    /**
     * Asserts that each survivor's own blocking call ended with RankFailedException naming rank 1 (the
     * survivor printed it and exited with 4), rather than the launcher stopping a survivor that hung.
     */
    private static void assertSurvivorsReported(final Outcome outcome, final int... survivors) {
        for (final int survivor : survivors) {
            final String prefix = "[" + survivor + "] rank " + survivor
                + " saw RankFailedException: MPI_ERR_PROC_FAILED: rank 1 failed";
            assertEquals(1, outcome.lines.stream().filter(line -> line.startsWith(prefix)).count(),
                () -> "no report of rank 1 by rank " + survivor + ":\n" + outcome.output());
            assertEquals(4, outcome.result.exitCode(survivor), outcome.output());
        }
    }

    private Outcome launch(final int ranks, final String mode) throws Exception {
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        final JobResult result = Launcher.builder().ranks(ranks).mainClass(FailureMain.class.getName()).args(mode)
            .baseDirectory(base.path()).grace(SURVIVOR_GRACE).output(lines::add).errorOutput(lines::add).build().run();
        return new Outcome(result, lines);
    }

    private record Outcome(JobResult result, List<String> lines) {
        String output() {
            return result + "\n" + String.join("\n", lines);
        }
    }
}
