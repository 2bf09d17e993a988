package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rma4j.test.ShmTestDirectory;

@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ShmBarrierTest {
    /** More parties than the machine's cores, so waiters are descheduled and must sleep. */
    private static final int PARTIES = 6;
    /** The barrier sits after the parties' slots, to exercise a non-zero offset. */
    private static final long BARRIER = 1024;
    private static final long ARRIVALS = BARRIER + BarrierLayout.ARRIVALS_OFFSET;
    private static final long GENERATION = BARRIER + BarrierLayout.GENERATION_OFFSET;

    private ShmTestDirectory shm;
    private MemorySegment segment;

    @BeforeEach
    void setUp() throws Exception {
        shm = new ShmTestDirectory();
        segment = ShmFiles.create(shm, "barrier", 4096).segment();
    }

    @AfterEach
    void tearDown() throws Exception {
        shm.close();
    }

    static Stream<Arguments> strategies() {
        return Stream.of(Arguments.of("default backoff", WaitStrategy.defaultStrategy(), 200),
            Arguments.of("futex on every wait", new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0), 200),
            Arguments.of("busy spin", WaitStrategy.busySpin(), 30));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("strategies")
    void shouldKeepEveryPartyInLockstep(final String name, final WaitStrategy strategy, final int rounds)
        throws Exception {
        final List<String> violations = Lockstep.run(shm, "barrier", PARTIES, rounds,
            (mine, party, liveness) -> new ShmBarrier(mine, BARRIER, PARTIES, strategy, liveness)::await);

        assertEquals(List.of(), violations);
        assertEquals(2 * rounds, Words.getIntVolatile(segment, GENERATION), "one generation per barrier");
        assertEquals(0, Words.getIntVolatile(segment, ARRIVALS), "the count is reset after every barrier");
        assertEquals(0, Words.getIntVolatile(segment, GENERATION + WaitWords.SLEEPERS_OFFSET), "no sleeper left");
    }

    @Test
    void shouldReleaseWaitersOnlyWhenTheLastPartyArrives() throws Exception {
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0);
        final List<Future<Void>> early = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            final ShmBarrier barrier = new ShmBarrier(ShmFiles.open(shm, "barrier").segment(), BARRIER, 3, strategy,
                Liveness.NONE);
            early.add(shm.submit(() -> {
                barrier.await();
                return null;
            }));
        }
        ShmTestDirectory.awaitCondition(() -> Words.getIntVolatile(segment, ARRIVALS) == 2, "two parties to arrive");
        ShmTestDirectory.awaitCondition(
            () -> Words.getIntVolatile(segment, GENERATION + WaitWords.SLEEPERS_OFFSET) == 2, "two parties to sleep");

        for (final Future<Void> party : early) {
            assertFalse(party.isDone(), "a party passed the barrier before the last one arrived");
        }
        assertEquals(0, Words.getIntVolatile(segment, GENERATION));

        new ShmBarrier(segment, BARRIER, 3, strategy, Liveness.NONE).await();

        for (final Future<Void> party : early) {
            party.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        assertEquals(1, Words.getIntVolatile(segment, GENERATION));
        assertEquals(0, Words.getIntVolatile(segment, ARRIVALS));
    }

    @Test
    void shouldPassAtOnceWithASingleParty() {
        final ShmBarrier barrier = new ShmBarrier(segment, BARRIER, 1, WaitStrategy.defaultStrategy(), Liveness.NONE);

        barrier.await();
        barrier.await();

        assertEquals(2, Words.getIntVolatile(segment, GENERATION));
        assertEquals(0, Words.getIntVolatile(segment, ARRIVALS));
        assertEquals(1, barrier.parties());
    }

    @Test
    void shouldRejectFewerThanOneParty() {
        for (final int parties : new int[] {0, -1}) {
            final IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
                () -> new ShmBarrier(segment, BARRIER, parties, WaitStrategy.defaultStrategy(), Liveness.NONE));
            assertTrue(thrown.getMessage().contains("parties=" + parties), thrown.getMessage());
        }
    }

    @Test
    void shouldThrowPeerFailedWhenLivenessReportsAFailureWhileWaiting() throws Exception {
        final AtomicBoolean peerDead = new AtomicBoolean();
        final CountDownLatch checked = new CountDownLatch(1);
        final Liveness liveness = () -> {
            checked.countDown();
            if (peerDead.get()) {
                throw new PeerFailedException(1, "process 1234 is gone");
            }
        };
        final ShmBarrier barrier = new ShmBarrier(segment, BARRIER, 2, WaitStrategy.defaultStrategy(), liveness);
        final Future<Void> waiter = shm.submit(() -> {
            barrier.await();
            return null;
        });

        assertTrue(checked.await(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS),
            "liveness was never checked");
        assertFalse(waiter.isDone());
        peerDead.set(true);

        final ExecutionException thrown = assertThrows(ExecutionException.class,
            () -> waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        final PeerFailedException failure = assertInstanceOf(PeerFailedException.class, thrown.getCause());
        assertEquals(1, failure.rank());
        assertEquals(0, Words.getIntVolatile(segment, GENERATION), "the barrier never completed");

        // This party's arrival stays counted: another await would complete the barrier alone. Broken
        // for good instead, it fails at once.
        final PeerFailedException again = assertThrows(PeerFailedException.class, barrier::await);
        assertEquals(1, again.rank());
        assertTrue(again.getMessage().contains("broken"), again.getMessage());
        assertEquals(0, Words.getIntVolatile(segment, GENERATION), "still never completed");
    }

    /**
     * The other party arrives (completing the barrier) and leaves the job between this party's last
     * read of the generation and its liveness check: the barrier is complete, so await should return.
     */
    @Test
    void shouldCompleteWhenTheLastPartyArrivesAndLeavesBeforeTheLivenessCheck() throws Exception {
        final ShmBarrier other = new ShmBarrier(ShmFiles.open(shm, "barrier").segment(), BARRIER, 2,
            WaitStrategy.defaultStrategy(), Liveness.NONE);
        final Liveness arriveThenLeave = () -> {
            if (Words.getIntVolatile(segment, GENERATION) == 0) {
                other.await();
            }
            throw new PeerFailedException(1, "it has already left the job");
        };
        final ShmBarrier barrier = new ShmBarrier(segment, BARRIER, 2,
            new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0), arriveThenLeave);

        final Future<Void> waiter = shm.submit(() -> {
            barrier.await();
            return null;
        });

        waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertEquals(1, Words.getIntVolatile(segment, GENERATION));
    }
}
