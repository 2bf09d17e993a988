package org.rma4j.shm;

import org.rma4j.test.FutexSleepers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.ShmTestDirectory;

@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WaitStrategyTest {
    private static final long WORD = 512;
    private static final long SLEEPERS = WORD + WaitWords.SLEEPERS_OFFSET;

    private ShmTestDirectory shm;
    private MemorySegment segment;

    @BeforeEach
    void setUp() throws Exception {
        shm = new ShmTestDirectory();
        segment = ShmFiles.create(shm, "wait", 4096).segment();
    }

    @AfterEach
    void tearDown() throws Exception {
        shm.close();
    }

    @Test
    void shouldReturnAtOnceWhenConditionAlreadyHolds() {
        Words.putInt(segment, WORD, 9);
        final AtomicInteger checks = new AtomicInteger();

        final int value = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0).awaitInt(segment, WORD, v -> v == 9,
            checks::incrementAndGet);

        assertEquals(9, value);
        assertEquals(0, checks.get(), "no liveness check without waiting");
        assertEquals(0, Words.getIntVolatile(segment, SLEEPERS), "no sleeper announced");
    }

    @Test
    void shouldRunBeforeSleepAheadOfTheAnnouncementAndTheRecheck() {
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0);
        final AtomicInteger hooks = new AtomicInteger();
        final AtomicInteger sleepersAtHook = new AtomicInteger(-1);
        final AtomicInteger checksAfterHook = new AtomicInteger();

        // No spins nor yields: the first failed check leads to a sleep, whose re-check after the announcement sees
        // what the hook did and ends the wait before the futex call.
        strategy.awaitCondition(segment, WORD, () -> {
            if (hooks.get() == 0) {
                return false;
            }
            checksAfterHook.incrementAndGet();
            return true;
        }, Liveness.NONE, false, WaitStrategy.NO_EPOCH, () -> {
            hooks.incrementAndGet();
            sleepersAtHook.set(Words.getIntVolatile(segment, SLEEPERS));
        });

        assertEquals(1, hooks.get(), "one sleep, one hook");
        assertEquals(0, sleepersAtHook.get(), "the hook ran before the waiter announced itself");
        assertEquals(1, checksAfterHook.get(), "the re-check after the announcement ended the wait");
        assertEquals(0, Words.getIntVolatile(segment, SLEEPERS), "the sleeper withdrew its announcement");
    }

    @Test
    void shouldNotRunBeforeSleepWhileSpinning() {
        final AtomicInteger hooks = new AtomicInteger();
        final AtomicInteger checks = new AtomicInteger();

        WaitStrategy.busySpin().awaitCondition(segment, WORD, () -> checks.incrementAndGet() > 1000, Liveness.NONE,
            false, WaitStrategy.NO_EPOCH, hooks::incrementAndGet);

        assertEquals(1001, checks.get());
        assertEquals(0, hooks.get(), "a wait that never sleeps never runs the hook");
    }

    @Test
    void shouldSleepOnFutexAndWakeOnStoreWhenSpinsAndYieldsAreZero() throws Exception {
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0);
        final Future<Integer> waiter = shm.submit(() -> strategy.awaitInt(segment, WORD, v -> v == 1, Liveness.NONE));

        // The futex path announces the sleeper before it sleeps: seeing the count proves the path taken.
        ShmTestDirectory.awaitCondition(() -> Words.getIntVolatile(segment, SLEEPERS) == 1,
            "the waiter to announce itself");
        assertFalse(waiter.isDone());

        WaitWords.putIntVolatileAndWake(segment, WORD, 1);

        assertEquals(1, waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals(0, Words.getIntVolatile(segment, SLEEPERS), "the sleeper withdrew its announcement");
    }

    @Test
    void shouldCountNoRecheckWakeWhenTheWriterWakesAProvenSleeper() throws Exception {
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0);
        final long before = WaitStrategy.recheckWakes();
        final Future<Integer> waiter = shm.submit(() -> strategy.awaitInt(segment, WORD, v -> v == 1, Liveness.NONE));
        FutexSleepers.await(segment, WORD, 1);

        WaitWords.putIntVolatileAndWake(segment, WORD, 1);

        assertEquals(1, waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals(0, WaitStrategy.recheckWakes() - before, "the wake ended the sleep");
    }

    @Test
    void shouldCountAWakeThatArrivedOnlyThroughThePeriodicRecheck() throws Exception {
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0);
        final long before = WaitStrategy.recheckWakes();
        final Future<Integer> waiter = shm.submit(() -> strategy.awaitInt(segment, WORD, v -> v == 1, Liveness.NONE));
        FutexSleepers.await(segment, WORD, 1);

        // A lost wake-up on purpose: the store without its wake. The sleep runs out its period.
        Words.putIntVolatile(segment, WORD, 1);

        assertEquals(1, waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals(1, WaitStrategy.recheckWakes() - before, "the lost wake-up is counted");
        assertEquals(0, Words.getIntVolatile(segment, SLEEPERS), "the sleeper withdrew its announcement");
    }

    @Test
    void shouldCountNoRecheckWakeForASignalledCondition() throws Exception {
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0);
        final long before = WaitStrategy.recheckWakes();
        final long flag = WORD + 64;
        final Future<Void> waiter = shm.submit(() -> {
            strategy.awaitCondition(segment, WORD, () -> Words.getIntVolatile(segment, flag) == 1, Liveness.NONE);
            return null;
        });
        FutexSleepers.await(segment, WORD, 1);

        Words.putIntVolatile(segment, flag, 1);
        WaitWords.signal(segment, WORD);

        waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertEquals(0, WaitStrategy.recheckWakes() - before, "the signal woke the sleeper");
        assertEquals(1, Words.getIntVolatile(segment, WORD), "the signal bumped the word it sleeps on");
    }

    @Test
    void shouldEndAWordWaitWithWaitTimeoutExceptionOnceItsTimeoutPassed() {
        final long timeoutNs = 2 * WaitStrategy.LIVENESS_PERIOD_NS;
        for (final WaitStrategy strategy : new WaitStrategy[] {
            new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0).withTimeout(timeoutNs),
            WaitStrategy.busySpin().withTimeout(timeoutNs)}) {
            final WaitTimeoutException thrown = assertThrows(WaitTimeoutException.class,
                () -> strategy.awaitInt(segment, WORD, v -> v == 1, Liveness.NONE), strategy.toString());

            assertTrue(thrown.waitedNs() >= timeoutNs, thrown.waitedNs() + " ns");
            assertTrue(thrown.getMessage().startsWith("timed out after " + thrown.waitedNs() / 1_000_000
                + " ms waiting for the word at offset " + WORD + " "), thrown.getMessage());
            assertEquals(0, Words.getIntVolatile(segment, SLEEPERS), "no sleeper left behind");
        }
    }

    @Test
    void shouldEndAPolledWaitWithWaitTimeoutExceptionNamingWhatItAwaited() {
        final long timeoutNs = 2 * WaitStrategy.LIVENESS_PERIOD_NS;
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0).withTimeout(timeoutNs);

        final WaitTimeoutException thrown = assertThrows(WaitTimeoutException.class,
            () -> strategy.awaitPolled(() -> false, Liveness.NONE, "the moon"));

        assertTrue(thrown.waitedNs() >= timeoutNs, thrown.waitedNs() + " ns");
        assertEquals("timed out after " + thrown.waitedNs() / 1_000_000 + " ms waiting for the moon",
            thrown.getMessage());
    }

    @Test
    void shouldReturnFromAPolledWaitWhoseConditionCameTrueWithThePeerFailure() {
        final AtomicBoolean done = new AtomicBoolean();
        final AtomicInteger checks = new AtomicInteger();

        new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0).awaitPolled(done::get, () -> {
            checks.incrementAndGet();
            // The peer published the result and then died: the result counts.
            done.set(true);
            throw new PeerFailedException(1, "gone after publishing");
        }, "a result");

        assertEquals(1, checks.get());
    }

    @Test
    void shouldKeepItsTimeoutAndShowIt() {
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 7, 3).withTimeout(250_000_000L);

        assertEquals(250_000_000L, strategy.timeoutNs());
        assertEquals(0, new WaitStrategy(WaitStrategy.Kind.BACKOFF, 7, 3).timeoutNs());
        assertEquals("WaitStrategy{BACKOFF, spins=7, yields=3, timeout=250 ms}", strategy.toString());
        assertThrows(IllegalArgumentException.class, () -> strategy.withTimeout(-1));
    }

    @Test
    void shouldRunThePollerInEveryRoundUntilItMakesTheConditionTrue() {
        final AtomicInteger polls = new AtomicInteger();
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 15, 10).withPoller(() -> {
            if (polls.incrementAndGet() == 20) {
                Words.putIntVolatile(segment, WORD, 5);
            }
        });

        assertEquals(5, strategy.awaitInt(segment, WORD, v -> v == 5, Liveness.NONE));
        assertEquals(20, polls.get(), "one poll per round of spinning and yielding");
        assertSame(strategy.poller(), strategy.withTimeout(1_000_000).poller(), "a timeout keeps the poller");
        assertTrue(strategy.toString().contains("polling"), strategy.toString());
    }

    @Test
    void shouldRunThePollerInAPolledWait() {
        final AtomicInteger polls = new AtomicInteger();
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0)
            .withPoller(polls::incrementAndGet);

        strategy.awaitPolled(() -> polls.get() >= 3, Liveness.NONE, "three polls");

        assertEquals(3, polls.get());
    }

    @Test
    void shouldPollWithoutSleepingWhenThePollingTimeIsUnbounded() {
        final AtomicInteger polls = new AtomicInteger();
        final AtomicInteger sleepersSeen = new AtomicInteger();
        // A sleeping wait would poll once per liveness period (100 ms): 5,000 polls would take minutes.
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0).withPoller(() -> {
            sleepersSeen.addAndGet(Words.getIntVolatile(segment, SLEEPERS));
            if (polls.incrementAndGet() == 5_000) {
                Words.putIntVolatile(segment, WORD, 5);
            }
        }, -1);

        assertEquals(5, strategy.awaitInt(segment, WORD, v -> v == 5, Liveness.NONE));
        assertEquals(5_000, polls.get());
        assertEquals(0, sleepersSeen.get(), "the waiter never announced itself as a sleeper");
        assertEquals(-1, strategy.pollingNs());
        assertEquals(-1, strategy.withTimeout(1_000_000).pollingNs(), "a timeout keeps the polling time");

        strategy.awaitPolled(() -> polls.get() >= 10_000, Liveness.NONE, "5,000 more polls");
        assertEquals(10_000, polls.get());
    }

    @Test
    void shouldSleepOnceThePollingTimeIsOver() throws Exception {
        final AtomicInteger polls = new AtomicInteger();
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0)
            .withPoller(polls::incrementAndGet, TimeUnit.MILLISECONDS.toNanos(20));
        final long startNs = System.nanoTime();
        final Future<Integer> waiter = shm.submit(() -> strategy.awaitInt(segment, WORD, v -> v == 2, Liveness.NONE));
        ShmTestDirectory.awaitCondition(() -> Words.getIntVolatile(segment, SLEEPERS) == 1,
            "the waiter to sleep after its polling time");

        assertTrue(System.nanoTime() - startNs >= TimeUnit.MILLISECONDS.toNanos(20), "it polled 20 ms first");
        assertTrue(polls.get() > 1, "it polled while yielding: " + polls.get());
        WaitWords.putIntVolatileAndWake(segment, WORD, 2);
        assertEquals(2, waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void shouldReturnTheValueThatSatisfiedTheCondition() throws Exception {
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0);
        final Future<Integer> waiter = shm.submit(() -> strategy.awaitInt(segment, WORD, v -> v >= 3, Liveness.NONE));
        ShmTestDirectory.awaitCondition(() -> Words.getIntVolatile(segment, SLEEPERS) == 1,
            "the waiter to announce itself");

        WaitWords.putIntVolatileAndWake(segment, WORD, 1);
        WaitWords.putIntVolatileAndWake(segment, WORD, 5);

        assertEquals(5, waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void shouldReturnWhenValueChangesUnderDefaultBackoff() throws Exception {
        final Future<Integer> waiter = shm
            .submit(() -> WaitStrategy.defaultStrategy().awaitInt(segment, WORD, v -> v == 2, Liveness.NONE));

        WaitWords.putIntVolatileAndWake(segment, WORD, 2);

        assertEquals(2, waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals(0, Words.getIntVolatile(segment, SLEEPERS));
    }

    @Test
    void shouldReturnWhenValueChangesUnderBusySpinWithoutAnnouncingASleeper() throws Exception {
        final AtomicBoolean sawSleeper = new AtomicBoolean();
        final CountDownLatch spinning = new CountDownLatch(1);
        final Future<Integer> waiter = shm.submit(() -> WaitStrategy.busySpin().awaitInt(segment, WORD, v -> {
            spinning.countDown();
            if (Words.getIntVolatile(segment, SLEEPERS) != 0) {
                sawSleeper.set(true);
            }
            return v == 4;
        }, Liveness.NONE));
        assertTrue(spinning.await(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));

        // A plain volatile store without a wake: a spinner needs none.
        Words.putIntVolatile(segment, WORD, 4);

        assertEquals(4, waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertFalse(sawSleeper.get(), "busy spin never announces a sleeper");
    }

    @Test
    void shouldRunLivenessWhileSleepingAndPropagateItsFailure() throws Exception {
        assertLivenessFailurePropagates(new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0));
        assertEquals(0, Words.getIntVolatile(segment, SLEEPERS), "the failed sleeper withdrew its announcement");
    }

    @Test
    void shouldRunLivenessWhileBusySpinningAndPropagateItsFailure() throws Exception {
        assertLivenessFailurePropagates(WaitStrategy.busySpin());
    }

    @Test
    void shouldRunLivenessAfterSpinningAndYielding() throws Exception {
        assertLivenessFailurePropagates(new WaitStrategy(WaitStrategy.Kind.BACKOFF, 100, 10));
    }

    private void assertLivenessFailurePropagates(final WaitStrategy strategy) throws Exception {
        final AtomicBoolean peerDead = new AtomicBoolean();
        final CountDownLatch checked = new CountDownLatch(1);
        final Liveness liveness = () -> {
            checked.countDown();
            if (peerDead.get()) {
                throw new PeerFailedException(3, "test peer is dead");
            }
        };
        final Future<Integer> waiter = shm.submit(() -> strategy.awaitInt(segment, WORD, v -> v == 1, liveness));

        assertTrue(checked.await(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS),
            "liveness was never checked");
        assertFalse(waiter.isDone(), "a passing liveness check must not end the wait");
        peerDead.set(true);

        final ExecutionException thrown = assertThrows(ExecutionException.class,
            () -> waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        final PeerFailedException failure = assertInstanceOf(PeerFailedException.class, thrown.getCause());
        assertEquals(3, failure.rank());
        assertEquals(0, Words.getIntVolatile(segment, WORD), "the value never changed");
    }

    /**
     * A peer publishes the awaited value and then leaves (or dies) between the waiter's last read
     * of the value and its liveness check. The wait's condition holds, so the wait should succeed;
     * reporting the peer as failed turns a completed wait into a spurious job failure.
     */
    @Test
    void shouldReturnValuePublishedByPeerThatLeftBeforeTheLivenessCheck() throws Exception {
        final Liveness publishThenLeave = () -> {
            WaitWords.putIntVolatileAndWake(segment, WORD, 1);
            throw new PeerFailedException(1, "it has already left the job");
        };
        final Future<Integer> waiter = shm.submit(() -> new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0)
            .awaitInt(segment, WORD, v -> v == 1, publishThenLeave));

        assertEquals(1, waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void shouldRejectNegativeSpins() {
        final IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
            () -> new WaitStrategy(WaitStrategy.Kind.BACKOFF, -1, 0));
        assertTrue(thrown.getMessage().contains("spins=-1"), thrown.getMessage());
    }

    @Test
    void shouldRejectNegativeYields() {
        final IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
            () -> new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, -5));
        assertTrue(thrown.getMessage().contains("yields=-5"), thrown.getMessage());
    }

    @Test
    void shouldKeepConfiguredParameters() {
        final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 7, 3);

        assertSame(WaitStrategy.Kind.BACKOFF, strategy.kind());
        assertEquals(7, strategy.spins());
        assertEquals(3, strategy.yields());
        assertEquals("WaitStrategy{BACKOFF, spins=7, yields=3}", strategy.toString());
    }

    @Test
    void shouldBuildBusySpinWithoutYields() {
        final WaitStrategy strategy = WaitStrategy.busySpin();

        assertSame(WaitStrategy.Kind.BUSY_SPIN, strategy.kind());
        assertEquals(WaitStrategy.SPINS_DEFAULT, strategy.spins());
        assertEquals(0, strategy.yields());
    }

    @Test
    void shouldDefaultToAdaptiveWhenNoPropertyIsSet() {
        assumeTrue(System.getProperty(WaitStrategy.KIND_PROP_NAME) == null
            && System.getProperty(WaitStrategy.SPINS_PROP_NAME) == null
            && System.getProperty(WaitStrategy.YIELDS_PROP_NAME) == null, "rma4j.wait* properties are set");
        final WaitStrategy strategy = WaitStrategy.defaultStrategy();

        assertSame(WaitStrategy.Kind.ADAPTIVE, strategy.kind());
        assertEquals(WaitStrategy.SPINS_DEFAULT, strategy.spins());
        assertEquals(WaitStrategy.YIELDS_DEFAULT, strategy.yields());
        assertSame(strategy, WaitStrategy.defaultStrategy());
    }
}
