package org.rma4j.shm;

import java.util.ArrayList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
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
class DisseminationBarrierTest {
    /** The barrier sits after the parties' slots, to exercise a non-zero offset. */
    private static final long BARRIER = 16 * Align.PAD;

    private ShmTestDirectory shm;
    private MemorySegment segment;

    @BeforeEach
    void setUp() throws Exception {
        shm = new ShmTestDirectory();
        segment = ShmFiles.create(shm, "barrier", BARRIER + DisseminationBarrierLayout.length(16)).segment();
    }

    @AfterEach
    void tearDown() throws Exception {
        shm.close();
    }

    @Test
    void shouldLayOutOneFlagPerPartyAndRound() {
        assertEquals(0, DisseminationBarrierLayout.rounds(1));
        assertEquals(1, DisseminationBarrierLayout.rounds(2));
        assertEquals(2, DisseminationBarrierLayout.rounds(3));
        assertEquals(2, DisseminationBarrierLayout.rounds(4));
        assertEquals(3, DisseminationBarrierLayout.rounds(5));
        assertEquals(4, DisseminationBarrierLayout.rounds(16));
        assertEquals(5, DisseminationBarrierLayout.rounds(17));
        assertEquals(Align.PAD, DisseminationBarrierLayout.length(1), "one block even without rounds");
        assertEquals(6L * 3 * Align.PAD, DisseminationBarrierLayout.length(6));
        assertEquals(5L * Align.PAD, DisseminationBarrierLayout.flagOffset(6, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> DisseminationBarrierLayout.rounds(0));
        // The tokens share the flag's line: the reader finds them in the line its wait brought in.
        assertEquals(8, DisseminationBarrierLayout.tokenOffset(2));
        assertEquals(16, DisseminationBarrierLayout.tokenOffset(3));
        assertTrue(DisseminationBarrierLayout.tokenOffset(1) + Long.BYTES <= 64);
    }

    static Stream<Arguments> tokenCases() {
        return Stream.of(Arguments.of(2, WaitStrategy.busySpin(), 5_000), Arguments.of(3, WaitStrategy.busySpin(), 500),
            Arguments.of(5, WaitStrategy.defaultStrategy(), 200));
    }

    @ParameterizedTest(name = "{0} parties")
    @MethodSource("tokenCases")
    void shouldHandEachPartyTheTokensOfThePartiesThatSignalledIt(final int parties, final WaitStrategy strategy,
        final int episodes) throws Exception {
        final List<Future<List<String>>> futures = new ArrayList<>();
        for (int p = 0; p < parties; p++) {
            final int party = p;
            final MemorySegment mine = ShmFiles.open(shm, "barrier").segment();
            futures.add(shm.submit(() -> {
                final DisseminationBarrier barrier = new DisseminationBarrier(mine, BARRIER, parties, party, strategy,
                    Liveness.NONE, false);
                final List<String> wrong = new ArrayList<>();
                assertEquals(DisseminationBarrierLayout.rounds(parties), barrier.tokenRounds());
                for (int episode = 1; episode <= episodes; episode++) {
                    // A signaller may be one episode ahead when this party reads: its tokens alternate by parity.
                    barrier.await(episode * 16L + party);
                    for (int round = 0; round < barrier.tokenRounds(); round++) {
                        final long expected = episode * 16L + barrier.signalledBy(round);
                        if (barrier.receivedToken(round) != expected) {
                            wrong.add("party " + party + " episode " + episode + " round " + round + ": "
                                + barrier.receivedToken(round) + " instead of " + expected);
                        }
                    }
                }
                return wrong;
            }));
        }
        for (final Future<List<String>> future : futures) {
            assertEquals(List.of(), future.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS * 4L, TimeUnit.SECONDS));
        }
        final DisseminationBarrier one = new DisseminationBarrier(segment, BARRIER, parties, 0, strategy, Liveness.NONE,
            false);
        for (int round = 0; round < one.tokenRounds(); round++) {
            assertEquals(Math.floorMod(-(1 << round), parties), one.signalledBy(round));
        }
        assertEquals(0,
            new DisseminationBarrier(segment, BARRIER, parties, 0, strategy, Liveness.NONE, true).tokenRounds(),
            "the central barrier hands no tokens");
    }

    static Stream<Arguments> cases() {
        return Stream.of(Arguments.of("2 parties, busy spin", 2, WaitStrategy.busySpin(), 2_000),
            Arguments.of("3 parties, default backoff", 3, WaitStrategy.defaultStrategy(), 300),
            Arguments.of("5 parties, futex on every wait", 5, new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0), 150),
            Arguments.of("6 parties, default backoff", 6, WaitStrategy.defaultStrategy(), 150),
            Arguments.of("8 parties, default backoff", 8, WaitStrategy.defaultStrategy(), 100));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void shouldKeepEveryPartyInLockstep(final String name, final int parties, final WaitStrategy strategy,
        final int rounds) throws Exception {
        final List<String> violations = Lockstep.run(shm, "barrier", parties, rounds, (mine, party,
            liveness) -> new DisseminationBarrier(mine, BARRIER, parties, party, strategy, liveness, false)::await);

        assertEquals(List.of(), violations);
        final int barrierRounds = DisseminationBarrierLayout.rounds(parties);
        for (int party = 0; party < parties; party++) {
            for (int round = 0; round < barrierRounds; round++) {
                final long flag = BARRIER + DisseminationBarrierLayout.flagOffset(parties, party, round);
                assertEquals(2 * rounds, Words.getIntVolatile(segment, flag), "episode of flag " + party + "/" + round);
                assertEquals(0, Words.getIntVolatile(segment, flag + WaitWords.SLEEPERS_OFFSET), "no sleeper left");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void shouldKeepEveryPartyInLockstepWithTheCentralBarrierOfMorePartiesThanCpus(final String name, final int parties,
        final WaitStrategy strategy, final int rounds) throws Exception {
        final List<String> violations = Lockstep.run(shm, "barrier", parties, rounds, (mine, party,
            liveness) -> new DisseminationBarrier(mine, BARRIER, parties, party, strategy, liveness, true)::await);

        assertEquals(List.of(), violations);
        assertEquals(2 * rounds, Words.getIntVolatile(segment, BARRIER + BarrierLayout.GENERATION_OFFSET),
            "episodes of the central barrier");
        assertEquals(0, Words.getIntVolatile(segment, BARRIER + BarrierLayout.ARRIVALS_OFFSET), "arrivals reset");
        assertEquals(0,
            Words.getIntVolatile(segment, BARRIER + BarrierLayout.GENERATION_OFFSET + WaitWords.SLEEPERS_OFFSET),
            "no sleeper left");
        assertTrue(DisseminationBarrierLayout.length(parties) >= BarrierLayout.LENGTH);
    }

    @Test
    void shouldNotReleaseAPartyBeforeEveryOtherArrived() throws Exception {
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0);
        final int parties = 3;
        final AtomicBoolean released = new AtomicBoolean();
        final Future<Void> first = shm.submit(() -> {
            new DisseminationBarrier(ShmFiles.open(shm, "barrier").segment(), BARRIER, parties, 0, strategy,
                Liveness.NONE).await();
            released.set(true);
            return null;
        });
        final Future<Void> second = shm.submit(() -> {
            new DisseminationBarrier(ShmFiles.open(shm, "barrier").segment(), BARRIER, parties, 1, strategy,
                Liveness.NONE).await();
            return null;
        });
        // Party 2 has not arrived: parties 0 and 1 must still be waiting after several sleep periods.
        Thread.sleep(300);
        assertFalse(released.get(), "party 0 left before party 2 arrived");
        assertFalse(first.isDone() || second.isDone());
        new DisseminationBarrier(segment, BARRIER, parties, 2, strategy, Liveness.NONE).await();
        first.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        second.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertTrue(released.get());
    }

    @Test
    void shouldEndAWaitWhenLivenessReportsAFailedParty() {
        final Liveness partyOneDied = () -> {
            throw new PeerFailedException(1, "rank 1 died");
        };
        final DisseminationBarrier barrier = new DisseminationBarrier(segment, BARRIER, 2, 0,
            new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0), partyOneDied);
        final PeerFailedException e = assertThrows(PeerFailedException.class, barrier::await);
        assertEquals(1, e.rank());
        // Broken for good: the next await fails at once instead of waiting for flags that cannot match.
        final PeerFailedException again = assertThrows(PeerFailedException.class, barrier::await);
        assertEquals(1, again.rank());
        assertTrue(again.getMessage().contains("broken"), again.getMessage());
    }

    @Test
    void shouldEndAWaitWithATimeout() {
        final DisseminationBarrier barrier = new DisseminationBarrier(segment, BARRIER, 2, 1,
            WaitStrategy.defaultStrategy().withTimeout(TimeUnit.MILLISECONDS.toNanos(200)), Liveness.NONE);
        final WaitTimeoutException e = assertThrows(WaitTimeoutException.class, barrier::await);
        assertTrue(e.waitedNs() >= TimeUnit.MILLISECONDS.toNanos(200), e.getMessage());
    }

    @Test
    void shouldPassAloneAndRejectABadParty() {
        new DisseminationBarrier(segment, BARRIER, 1, 0, WaitStrategy.busySpin(), Liveness.NONE).await();
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new DisseminationBarrier(segment, BARRIER, 2, 2, WaitStrategy.busySpin(), Liveness.NONE));
        assertTrue(e.getMessage().contains("party=2"), e.getMessage());
        assertInstanceOf(IllegalArgumentException.class, assertThrows(IllegalArgumentException.class,
            () -> new DisseminationBarrier(segment, BARRIER, 0, 0, WaitStrategy.busySpin(), Liveness.NONE)));
    }
}
