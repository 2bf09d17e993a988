package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.ShmTestDirectory;

/**
 * The learned active phase of an adaptive wait: the spin budget grows to twice the time of a wait that ended
 * while spinning or soon after it spun out, and halves when a wait spun out and lasted longer than the largest
 * budget; with more ranks than CPUs a wait polls, then yields until it is old whatever the yields cost; otherwise
 * yields stop after an expensive one. Each case runs on a fresh thread, whose instance starts at the initial budget.
 */
@Timeout(60)
class AdaptiveSpinTest {
    @BeforeEach
    @AfterEach
    void oneRankJob() {
        AdaptiveSpin.jobRanks(1); // the mode of this JVM's waits is set by the last control file opened
    }

    @Test
    void shouldPollThenYieldAndNotGrowAfterASleepWhenTheJobHasMoreRanksThanCpus() {
        AdaptiveSpin.jobRanks(AdaptiveSpin.ONLINE_CPUS + 1);
        final long[] result = onFreshThread(() -> {
            final AdaptiveSpin spin = AdaptiveSpin.begin();
            final long before = spin.spinNs();
            final long polls = spinOut(spin, 0);
            spin.ended(AdaptiveSpin.MIN_NS_DEFAULT); // then slept briefly
            return new long[] {before, polls, AdaptiveSpin.begin().spinNs()};
        });
        assertTrue(AdaptiveSpin.oversubscribed());
        assertEquals(15, result[1]);
        assertEquals(result[0] / 2, result[2]);
    }

    @Test
    void shouldYieldWhateverYieldsCostUntilTheWaitIsOldWhenTheJobHasMoreRanksThanCpus() {
        AdaptiveSpin.jobRanks(AdaptiveSpin.ONLINE_CPUS + 1);
        final long yieldNs = AdaptiveSpin.oversubscribedYieldNs;
        try {
            final long[] result = onFreshThread(() -> {
                // NOTE: a yield time no scheduler delay reaches: the steps below are counted, not timed
                AdaptiveSpin.oversubscribedYieldNs = Long.MAX_VALUE;
                final AdaptiveSpin spin = AdaptiveSpin.begin();
                long iteration = 0;
                while (spin.yieldsDone() < 5) {
                    assertTrue(spin.step(iteration++, 3), "a wait younger than the yield time yields on");
                }
                spin.yielded(AdaptiveSpin.EXPENSIVE_YIELD_NS + 1); // would pause the yields of a job of few ranks
                final AdaptiveSpin next = AdaptiveSpin.begin();
                long nextIteration = 0;
                while (next.yieldsDone() == 0) {
                    assertTrue(next.step(nextIteration++, 3), "an expensive yield gave the core to another rank");
                }
                AdaptiveSpin.oversubscribedYieldNs = 0;
                final boolean goesOn = next.step(nextIteration, 3);
                return new long[] {next.yieldsDone(), goesOn ? 1 : 0};
            });
            assertEquals(1, result[0], "the next wait yields too: an expensive yield gave the core to another rank");
            assertEquals(0, result[1], "a wait as old as the yield time sleeps");
        } finally {
            AdaptiveSpin.oversubscribedYieldNs = yieldNs;
        }
    }

    private static <T> T onFreshThread(final Supplier<T> body) {
        final CompletableFuture<T> result = new CompletableFuture<>();
        final Thread thread = new Thread(() -> {
            try {
                result.complete(body.get());
            } catch (final Throwable t) {
                result.completeExceptionally(t);
            }
        });
        thread.start();
        return result.join();
    }

    private static long spinOut(final AdaptiveSpin spin, final int yields) {
        long iteration = 0;
        while (spin.step(iteration, yields)) {
            iteration++;
        }
        return iteration;
    }

    /**
     * Spins the wait out, and has its yield take a time slice: other processes want the cores.
     */
    private static void spinOutOnBusyMachine(final AdaptiveSpin spin) {
        spinOut(spin, 0);
        assertFalse(spin.yielded(AdaptiveSpin.EXPENSIVE_YIELD_NS + 1));
    }

    @Test
    void shouldHalveTheBudgetWhenAWaitSpinsItOutAndLastsLongerThanAnyBudgetOnABusyMachine() {
        final long[] budgets = onFreshThread(() -> {
            final long first = AdaptiveSpin.begin().spinNs();
            final AdaptiveSpin spin = AdaptiveSpin.begin();
            spinOutOnBusyMachine(spin);
            spin.ended(AdaptiveSpin.MAX_NS_DEFAULT + 1); // then slept until the event
            final long second = AdaptiveSpin.begin().spinNs();
            return new long[] {first, second};
        });
        assertEquals(AdaptiveSpin.INITIAL_NS, budgets[0]);
        assertEquals(AdaptiveSpin.INITIAL_NS / 2, budgets[1]);
    }

    @Test
    void shouldKeepTheBudgetWhenAWaitLastsLongerThanAnyBudgetOnAMachineWithCoresToSpare() {
        final long[] budgets = onFreshThread(() -> {
            final AdaptiveSpin grow = AdaptiveSpin.begin();
            spinOut(grow, 0);
            grow.ended(AdaptiveSpin.MAX_NS_DEFAULT / 4); // a partner that answers within the largest budget
            final long grown = AdaptiveSpin.begin().spinNs();
            for (int i = 0; i < 8; i++) {
                final AdaptiveSpin spin = AdaptiveSpin.begin();
                spinOut(spin, 0); // no yield took a time slice
                spin.ended(10 * AdaptiveSpin.MAX_NS_DEFAULT); // a partner that computes for long
            }
            return new long[] {grown, AdaptiveSpin.begin().spinNs()};
        });
        assertEquals(AdaptiveSpin.MAX_NS_DEFAULT / 2, budgets[0]);
        assertEquals(budgets[0], budgets[1]);
    }

    @Test
    void shouldNotGoBelowTheLeastBudget() {
        final long budget = onFreshThread(() -> {
            for (int i = 0; i < 64; i++) {
                final AdaptiveSpin spin = AdaptiveSpin.begin();
                spinOutOnBusyMachine(spin);
                spin.ended(10 * AdaptiveSpin.MAX_NS_DEFAULT);
            }
            return AdaptiveSpin.begin().spinNs();
        });
        assertEquals(AdaptiveSpin.MIN_NS_DEFAULT, budget);
    }

    @Test
    void shouldGrowToTwiceAWaitThatEndedSoonAfterItsSpin() {
        final long[] budgets = onFreshThread(() -> {
            for (int i = 0; i < 64; i++) {
                final AdaptiveSpin spin = AdaptiveSpin.begin();
                spinOutOnBusyMachine(spin);
                spin.ended(10 * AdaptiveSpin.MAX_NS_DEFAULT); // down to the least budget
            }
            final AdaptiveSpin spin = AdaptiveSpin.begin();
            final long before = spin.spinNs();
            spinOut(spin, 0);
            spin.ended(10 * before); // a sleeper woken soon: a partner that answers in 10x the budget
            return new long[] {before, AdaptiveSpin.begin().spinNs()};
        });
        assertEquals(AdaptiveSpin.MIN_NS_DEFAULT, budgets[0]);
        assertEquals(20 * AdaptiveSpin.MIN_NS_DEFAULT, budgets[1]);
    }

    @Test
    void shouldNeverGrowBeyondTheLargestBudget() {
        final long budget = onFreshThread(() -> {
            final AdaptiveSpin spin = AdaptiveSpin.begin();
            spinOut(spin, 0);
            spin.ended(AdaptiveSpin.MAX_NS_DEFAULT - 1);
            return AdaptiveSpin.begin().spinNs();
        });
        assertEquals(AdaptiveSpin.MAX_NS_DEFAULT, budget);
    }

    @Test
    void shouldKeepTwiceTheTimeOfAWaitThatEndedWhileSpinning() {
        final long[] result = onFreshThread(() -> {
            final AdaptiveSpin spin = AdaptiveSpin.begin();
            final long before = spin.spinNs();
            final long start = spin.waitStartNs();
            while (System.nanoTime() - start < before * 3 / 4) {
                Thread.onSpinWait(); // a wait that ends after three quarters of the budget
            }
            spin.ended();
            return new long[] {before, spin.spinNs()};
        });
        assertTrue(result[1] >= result[0] * 3 / 2, () -> result[0] + " -> " + result[1]);
        assertTrue(result[1] <= AdaptiveSpin.MAX_NS_DEFAULT);
    }

    @Test
    void shouldStopYieldingAfterTheYieldsAreUsed() {
        final boolean exhausted = onFreshThread(() -> {
            final AdaptiveSpin spin = AdaptiveSpin.begin();
            long iteration = 0;
            int steps = 0;
            while (spin.step(iteration++, 3)) {
                steps++;
            }
            return steps >= 3;
        });
        assertTrue(exhausted);
    }

    @Test
    void shouldSleepAndPauseYieldingAfterAnExpensiveYield() {
        final boolean[] result = onFreshThread(() -> {
            final AdaptiveSpin spin = AdaptiveSpin.begin();
            spinOut(spin, 0);
            final boolean goOn = spin.yielded(AdaptiveSpin.EXPENSIVE_YIELD_NS + 1);
            final AdaptiveSpin next = AdaptiveSpin.begin();
            spinOut(next, 10); // the spin, then no yield
            return new boolean[] {goOn, next.yieldsDone() == 0};
        });
        assertEquals(false, result[0]);
        assertTrue(result[1]);
    }

    @Test
    void shouldWakeAnAdaptiveWaiterThatSleeps() throws Exception {
        try (ShmTestDirectory shm = new ShmTestDirectory()) {
            final MemorySegment segment = ShmFiles.create(shm, "word", 4096).segment();
            final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.ADAPTIVE, 0, 0);
            final CompletableFuture<Integer> waiter = CompletableFuture
                .supplyAsync(() -> strategy.awaitInt(segment, 0, v -> v == 1, Liveness.NONE));
            ShmTestDirectory.awaitCondition(() -> Words.getIntVolatile(segment, WaitWords.SLEEPERS_OFFSET) == 1,
                "the waiter to announce itself as a sleeper");
            WaitWords.putIntVolatileAndWake(segment, 0, 1);
            assertEquals(1, waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
            assertEquals(0, Words.getIntVolatile(segment, WaitWords.SLEEPERS_OFFSET));
        }
    }
}
