package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;
import org.rma4j.test.ShmTestDirectory;

/**
 * A rank's failure is reported to the blocking calls of the communicators that contain it, and the
 * communicators without it go on: 6 ranks in an odd and an even half; job rank 3 (rank 1 of the odd half)
 * fails, and the exceptions name it by its job rank.
 */
@Timeout(300)
class CommunicatorFailureTest {
    /** Time the survivors get to end after rank 3 ended: long, so that what is asserted is their own detection. */
    private static final Duration SURVIVOR_GRACE = Duration.ofSeconds(60);

    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    @Test
    void shouldFailTheHalfWithTheFailedRankAndLetTheOtherHalfFinishInThreadMode() {
        final Map<Integer, String> outcome = new ConcurrentHashMap<>();
        final AtomicReference<IllegalStateException> thrown = new AtomicReference<>();
        final IllegalStateException failure = assertThrows(IllegalStateException.class,
            () -> Rma.callThreads(6, base.path(), WaitOptions.defaults(), job -> {
                final int me = job.rank();
                final Communicator half = job.world().split(me % 2, me);
                if (me == CommFailureMain.FAILING) {
                    final IllegalStateException e = new IllegalStateException("rank 3 gives up");
                    thrown.set(e);
                    throw e;
                }
                if (me % 2 == 1) {
                    final RankFailedException e = assertThrows(RankFailedException.class, half::barrier);
                    outcome.put(me, "rank " + e.rank() + " failed");
                } else {
                    CommFailureMain.awaitDead(job, CommFailureMain.FAILING);
                    outcome.put(me, CommFailureScenario.otherHalf(half));
                }
                return null;
            }));
        assertSame(thrown.get(), failure);
        assertEquals(
            Map.of(1, "rank 3 failed", 5, "rank 3 failed", 0, "sum=6 ring=ok", 2, "sum=6 ring=ok", 4, "sum=6 ring=ok"),
            outcome);
    }

    @Test
    void shouldFailTheHalfWithTheFailedRankAndLetTheOtherHalfFinishInProcessMode() throws Exception {
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        final JobResult result = Launcher.builder().ranks(6).mainClass(CommFailureMain.class.getName())
            .baseDirectory(base.path()).grace(SURVIVOR_GRACE).output(lines::add).errorOutput(lines::add).build().run();
        final String output = result + "\n" + String.join("\n", lines);
        assertEquals(3, result.exitCode(), output);
        assertEquals(CommFailureMain.FAILING, result.failedRank(), output);
        for (final int survivor : new int[] {1, 5}) {
            assertEquals(1,
                lines.stream()
                    .filter(line -> line.startsWith(
                        "[" + survivor + "] rank " + survivor + " saw rank 3 fail: MPI_ERR_PROC_FAILED: rank 3 failed"))
                    .count(),
                output);
            assertEquals(4, result.exitCode(survivor), output);
        }
        for (final int survivor : new int[] {0, 2, 4}) {
            assertEquals(1,
                lines.stream().filter(
                    line -> line.equals("[" + survivor + "] rank " + survivor + " finished its half: sum=6 ring=ok"))
                    .count(),
                output);
            assertEquals(0, result.exitCode(survivor), output);
        }
    }
}
