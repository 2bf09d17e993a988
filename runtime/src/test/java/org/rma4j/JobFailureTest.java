package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;
import org.rma4j.shm.PeerFailedException;
import org.rma4j.shm.WaitStrategy;

/**
 * A rank that ends abnormally never leaves its peers hanging, and its job leaves no file behind.
 */
@Timeout(120)
class JobFailureTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    @Test
    void shouldStopJobWithStatusOfRankThatExitedWithThree() throws Exception {
        final Outcome outcome = launch(3, "exit3-fence");
        assertEquals(3, outcome.result.exitCode(), outcome.output());
        assertEquals(1, outcome.result.failedRank(), outcome.output());
        assertTrue(outcome.result.failureMessage().orElseThrow().contains("rank 1"), outcome.output());
        assertFalse(Files.exists(outcome.result.jobDirectory()));
    }

    @Test
    void shouldReportRankKilledWhileHoldingExclusiveLock() throws Exception {
        final Outcome outcome = launch(2, "kill-lock");
        assertKilledRankReported(outcome);
    }

    @Test
    void shouldReportRankKilledWhilePeerWaitsInFence() throws Exception {
        final Outcome outcome = launch(3, "kill-fence");
        assertKilledRankReported(outcome);
    }

    @Test
    void shouldFailPeersInThreadModeWhenRankThrows() {
        final List<Throwable> seen = Collections.synchronizedList(new ArrayList<>());
        final AtomicReference<IllegalStateException> thrown = new AtomicReference<>();
        final IllegalStateException failure = assertThrows(IllegalStateException.class, () ->
            Rma.callThreads(3, base.path(), WaitStrategy.defaultStrategy(), job -> {
                final Window window = job.allocateShared(8, 8);
                if (job.rank() == 2) {
                    final IllegalStateException e = new IllegalStateException("rank 2 gives up");
                    thrown.set(e);
                    throw e;
                }
                try {
                    window.fence(0);
                } catch (final PeerFailedException e) {
                    seen.add(e);
                    throw e;
                }
                return null;
            }));
        assertEquals(thrown.get(), failure);
        assertEquals(2, seen.size());
        for (final Throwable t : seen) {
            assertEquals(2, ((PeerFailedException)t).rank(), t.getMessage());
        }
    }

    private static void assertKilledRankReported(final Outcome outcome) {
        assertNotEquals(0, outcome.result.exitCode(), outcome.output());
        assertEquals(128 + 9, outcome.result.exitCode(1), outcome.output());
        final boolean peerReported = outcome.lines.stream().anyMatch(line -> line.contains("PeerFailedException: rank 1 failed"));
        final boolean launcherReported = outcome.result.failureMessage().map(m -> m.contains("rank 1")).orElse(false);
        assertTrue(peerReported || launcherReported, outcome.output());
        assertFalse(Files.exists(outcome.result.jobDirectory()));
    }

    private Outcome launch(final int ranks, final String mode) throws Exception {
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        final JobResult result = Launcher.builder()
            .ranks(ranks)
            .mainClass(FailureMain.class.getName())
            .args(mode)
            .baseDirectory(base.path())
            .output(lines::add)
            .errorOutput(lines::add)
            .build()
            .run();
        return new Outcome(result, lines);
    }

    private record Outcome(JobResult result, List<String> lines) {
        String output() {
            return result + "\n" + String.join("\n", lines);
        }
    }
}
