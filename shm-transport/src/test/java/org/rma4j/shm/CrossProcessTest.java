package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rma4j.test.ShmTestDirectory;

/**
 * Futex wake-ups, liveness and the barrier between this JVM and a second one ({@link ShmChild})
 * that maps the same files.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CrossProcessTest {
    private static final int PING_PONG_ROUNDS = 1000;
    private static final int BARRIER_ROUNDS = 100;

    private ShmTestDirectory shm;

    @BeforeEach
    void setUp() throws Exception {
        shm = new ShmTestDirectory();
    }

    @AfterEach
    void tearDown() throws Exception {
        shm.close();
    }

    static Stream<Arguments> backoffs() {
        return Stream.of(Arguments.of("futex on every wait", 0, 0),
            Arguments.of("default backoff", WaitStrategy.SPINS_DEFAULT, WaitStrategy.YIELDS_DEFAULT));
    }

    /**
     * Each side waits for its turn with {@link WaitStrategy} and hands the turn over with a store and
     * a wake. A waiter whose sleep is not ended by the other process's wake sleeps out the full
     * {@link WaitStrategy#LIVENESS_PERIOD_NS} and then finds its turn: {@link WaitStrategy#recheckWakes()}
     * counts those in each JVM, and a single one is a lost wake-up.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("backoffs")
    void shouldPingPongACounterWithAnotherProcessThroughFutexWakeUps(final String name, final int spins,
        final int yields) throws Exception {
        final MemorySegment segment = ShmFiles.create(shm, "ping-pong", 4096).segment();
        final Process child = shm.startJvm(ShmChild.class, "ping-pong", shm.path("ping-pong").toString(),
            Integer.toString(PING_PONG_ROUNDS), Integer.toString(spins), Integer.toString(yields));
        final Liveness childAlive = () -> checkAlive(child, 1);
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, spins, yields);

        long recheckWakesBefore = 0;
        for (int i = 0; i < PING_PONG_ROUNDS; i++) {
            final int even = 2 * i;
            assertEquals(even, strategy.awaitInt(segment, ShmChild.COUNTER, value -> value == even, childAlive));
            if (i == 1) {
                // NOTE: counted from the child's first move on: the wait for it spans the child JVM's start, and a
                // move that lands as a sleep runs out its period is late by a hair, which a wait on the word itself
                // cannot tell from lost. Every later turn is a wake-up between two running JVMs.
                recheckWakesBefore = WaitStrategy.recheckWakes();
            }
            WaitWords.putIntVolatileAndWake(segment, ShmChild.COUNTER, even + 1);
        }
        strategy.awaitInt(segment, ShmChild.COUNTER, value -> value == 2 * PING_PONG_ROUNDS, childAlive);
        WaitWords.putIntVolatileAndWake(segment, ShmChild.ACK, 1);

        assertExitsNormally(child, 0);
        assertEquals(2 * PING_PONG_ROUNDS, Words.getIntVolatile(segment, ShmChild.COUNTER));
        assertEquals(1, Words.getIntVolatile(segment, ShmChild.CHILD_FUTEX_AVAILABLE), "futex in use in the child");
        assertTrue(Futex.isAvailable(), "futex in use in the test JVM");
        assertEquals(0, WaitStrategy.recheckWakes() - recheckWakesBefore,
            "turns of the test JVM that arrived only through the periodic re-check (lost wake-ups)");
        assertEquals(0, Words.getIntVolatile(segment, ShmChild.CHILD_RECHECK_WAKES),
            "turns of the child JVM that arrived only through the periodic re-check (lost wake-ups)");
        assertEquals(0, Words.getIntVolatile(segment, ShmChild.COUNTER + WaitWords.SLEEPERS_OFFSET), "no sleeper left");
    }

    @Test
    void shouldWakeAFutexSleeperFromAnotherProcess() throws Exception {
        final MemorySegment segment = ShmFiles.create(shm, "wake", 4096).segment();
        final Process child = shm.startJvm(ShmChild.class, "wake", shm.path("wake").toString());
        final CountDownLatch returned = new CountDownLatch(1);
        shm.submit(() -> {
            Words.putIntVolatile(segment, ShmChild.ANNOUNCE, 1);
            // Only the child's store (seen on entry) or its wake can end this sleep before the test does.
            Futex.wait(segment, ShmChild.COUNTER, 0, TimeUnit.MINUTES.toNanos(10));
            returned.countDown();
            return null;
        });

        assertTrue(returned.await(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS),
            "the sleeper was not woken by the other process; child log: " + shm.log(0));
        Words.putIntVolatile(segment, ShmChild.ACK, 1);

        assertExitsNormally(child, 0);
        assertEquals(1, Words.getIntVolatile(segment, ShmChild.COUNTER));
    }

    @Test
    void shouldReportAKilledRankAsFailedByName() throws Exception {
        final Path path = shm.path(JobDirectory.CONTROL_FILE_NAME);
        final ControlFile control = shm.track(ControlFile.create(path, 2, ProcessHandle.current().pid()));
        final Process child = shm.startJvm(ShmChild.class, "join", path.toString(), "1");
        awaitJoined(control, 1, child);
        assertEquals(child.pid(), control.pid(1));
        assertDoesNotThrow(() -> control.checkPeer(1, false));

        child.destroyForcibly();
        assertTrue(child.waitFor(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));

        final PeerFailedException failure = pollForFailure(() -> control.checkPeer(1, false));
        assertEquals(1, failure.rank());
        assertTrue(failure.getMessage().contains("rank 1"), failure.getMessage());
        assertTrue(failure.getMessage().contains(Long.toString(child.pid())), failure.getMessage());
        assertEquals(RankState.JOINED, control.state(1), "only the process is gone; nobody rewrote the row");
    }

    @Test
    void shouldReleaseABarrierWaiterWithPeerFailedWhenTheOtherRankIsKilled() throws Exception {
        final Path path = shm.path(JobDirectory.CONTROL_FILE_NAME);
        final ControlFile control = shm.track(ControlFile.create(path, 2, ProcessHandle.current().pid()));
        final Process child = shm.startJvm(ShmChild.class, "join", path.toString(), "1");
        awaitJoined(control, 1, child);
        control.join(0);
        final DisseminationBarrier barrier = control.barrier(0, WaitStrategy.defaultStrategy(),
            control.liveness(0, false));
        final Future<Void> waiter = shm.submit(() -> {
            barrier.await();
            return null;
        });
        ShmTestDirectory.awaitCondition(
            () -> BarrierProbe.onlyFirstArrived(control.segment(), ControlLayout.barrierOffset(2)), "rank 0 to arrive");

        child.destroyForcibly();

        final ExecutionException thrown = assertThrows(ExecutionException.class,
            () -> waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        final PeerFailedException failure = assertInstanceOf(PeerFailedException.class, thrown.getCause());
        assertEquals(1, failure.rank());
    }

    @Test
    void shouldPassBarriersWithARankInAnotherProcess() throws Exception {
        final Path path = shm.path(JobDirectory.CONTROL_FILE_NAME);
        final ControlFile control = shm.track(ControlFile.create(path, 2, ProcessHandle.current().pid()));
        final Process child = shm.startJvm(ShmChild.class, "barrier", path.toString(), "1",
            Integer.toString(BARRIER_ROUNDS));
        control.join(0);
        final Liveness peers = () -> {
            control.liveness(0, true).check();
            checkAlive(child, 1);
        };
        final DisseminationBarrier barrier = control.barrier(0, WaitStrategy.defaultStrategy(), peers);

        for (int round = 1; round <= BARRIER_ROUNDS; round++) {
            Words.putInt(control.scratch(0), 0, round);
            barrier.await();
            for (int rank = 0; rank < 2; rank++) {
                assertEquals(round, Words.getInt(control.scratch(rank), 0), "slot of rank " + rank);
            }
            barrier.await();
        }
        WaitWords.putIntVolatileAndWake(control.scratch(0), ShmChild.BARRIER_DONE, 1);

        assertExitsNormally(child, 0);
        assertEquals(RankState.FINISHED, control.state(1));
        assertEquals(2 * BARRIER_ROUNDS, BarrierProbe.completed(control.segment(), ControlLayout.barrierOffset(2), 2));
    }

    private void awaitJoined(final ControlFile control, final int rank, final Process child) {
        final long stateWord = ControlLayout.rowOffset(rank) + ControlLayout.ROW_STATE_OFFSET;
        new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0).awaitInt(control.segment(), stateWord,
            state -> state != RankState.EMPTY.code() && state != RankState.JOINING.code(),
            () -> checkAlive(child, rank));
        assertEquals(RankState.JOINED, control.state(rank));
    }

    private void checkAlive(final Process child, final int rank) {
        if (!child.isAlive()) {
            throw new PeerFailedException(rank, "child exited with " + child.exitValue() + ": " + shm.log(0));
        }
    }

    private void assertExitsNormally(final Process child, final int index) throws InterruptedException {
        assertTrue(child.waitFor(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS), "child still running");
        assertEquals(0, child.exitValue(), "child failed: " + shm.log(index));
    }

    private static PeerFailedException pollForFailure(final Runnable check) throws InterruptedException {
        for (int attempt = 0; attempt < 6000; attempt++) {
            try {
                check.run();
            } catch (final PeerFailedException e) {
                return e;
            }
            Thread.sleep(10);
        }
        return fail("the killed rank was never reported");
    }
}
