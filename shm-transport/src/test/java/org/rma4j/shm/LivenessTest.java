package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.ShmTestDirectory;

/**
 * The {@link Liveness} contract as the waits use it: {@link Liveness#NONE} never ends a wait, and the
 * liveness of a job's control file ends every kind of wait with the failure of the peer it names.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LivenessTest {
    private static final long WORD = 256;

    private ShmTestDirectory shm;
    private MemorySegment segment;

    @BeforeEach
    void setUp() throws Exception {
        shm = new ShmTestDirectory();
        segment = ShmFiles.create(shm, "liveness", 4096).segment();
    }

    @AfterEach
    void tearDown() throws Exception {
        shm.close();
    }

    @Test
    void shouldNeverEndAWaitThroughNone() {
        // Three periods of sleeping, each ended by a liveness check of NONE; only the timeout ends the wait.
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0)
            .withTimeout(3 * WaitStrategy.LIVENESS_PERIOD_NS);
        final AtomicInteger checks = new AtomicInteger();

        assertThrows(WaitTimeoutException.class, () -> strategy.awaitInt(segment, WORD, v -> v == 1, () -> {
            checks.incrementAndGet();
            Liveness.NONE.check();
        }));
        assertTrue(checks.get() >= 3, "liveness checked " + checks.get() + " times in three periods");
    }

    @Test
    void shouldEndAnAwaitIntWithTheFailedPeerOfTheControlFile() throws Exception {
        final Liveness liveness = controlWithFailedRank(1).liveness(0, false);
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0);

        assertFailedRank(1, shm.submit(() -> strategy.awaitInt(segment, WORD, v -> v == 1, liveness)));
    }

    @Test
    void shouldEndAnAwaitConditionWithTheFailedPeerOfTheControlFile() throws Exception {
        final Liveness liveness = controlWithFailedRank(2).liveness(0, false);
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0);

        assertFailedRank(2, shm.submit(() -> {
            strategy.awaitCondition(segment, WORD, () -> false, liveness);
            return null;
        }));
    }

    @Test
    void shouldEndAnAwaitPolledWithTheFailedPeerOfTheControlFile() throws Exception {
        final Liveness liveness = controlWithFailedRank(1).liveness(0, false);

        assertFailedRank(1, shm.submit(() -> {
            WaitStrategy.defaultStrategy().awaitPolled(() -> false, liveness, "nothing");
            return null;
        }));
    }

    @Test
    void shouldEndABusySpinWithTheFailedPeerOfTheControlFile() throws Exception {
        final Liveness liveness = controlWithFailedRank(2).liveness(0, false);

        assertFailedRank(2, shm.submit(() -> WaitStrategy.busySpin().awaitInt(segment, WORD, v -> v == 1, liveness)));
    }

    private ControlFile controlWithFailedRank(final int rank) {
        final ControlFile control = shm
            .track(ControlFile.create(shm.path(JobDirectory.CONTROL_FILE_NAME), 3, ProcessHandle.current().pid()));
        control.join(0);
        control.markFailed(rank);
        return control;
    }

    private static void assertFailedRank(final int rank, final Future<?> waiter) {
        final ExecutionException thrown = assertThrows(ExecutionException.class,
            () -> waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        final PeerFailedException failure = assertInstanceOf(PeerFailedException.class, thrown.getCause());
        assertEquals(rank, failure.rank());
        assertTrue(failure.getMessage().contains("rank " + rank), failure.getMessage());
    }
}
