package org.rma4j.shm;

import org.rma4j.test.FutexSleepers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.ShmTestDirectory;

@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WaitWordsTest {
    private static final long WORD = 256;
    private static final long LONG_TIMEOUT_NS = TimeUnit.MINUTES.toNanos(10);

    private ShmTestDirectory shm;
    private MemorySegment segment;

    @BeforeEach
    void setUp() throws Exception {
        shm = new ShmTestDirectory();
        segment = ShmFiles.create(shm, "wait-words", 4096).segment();
    }

    @AfterEach
    void tearDown() throws Exception {
        shm.close();
    }

    @Test
    void shouldPlaceSleeperCountRightAfterValue() {
        assertEquals(4, WaitWords.SLEEPERS_OFFSET);
        assertEquals(8, WaitWords.LENGTH);
    }

    @Test
    void shouldStoreValueWithoutTouchingSleeperCount() {
        WaitWords.putIntVolatileAndWake(segment, WORD, 17);

        assertEquals(17, Words.getIntVolatile(segment, WORD));
        assertEquals(0, Words.getIntVolatile(segment, WORD + WaitWords.SLEEPERS_OFFSET));
    }

    @Test
    void shouldAddAndReturnPreviousValue() {
        Words.putInt(segment, WORD, 40);

        assertEquals(40, WaitWords.getAndAddIntAndWake(segment, WORD, 2));
        assertEquals(42, Words.getIntVolatile(segment, WORD));
        assertEquals(0, Words.getIntVolatile(segment, WORD + WaitWords.SLEEPERS_OFFSET));
    }

    @Test
    void shouldCountAnnouncedSleepers() {
        WaitWords.addSleeper(segment, WORD);
        WaitWords.addSleeper(segment, WORD);
        assertEquals(2, Words.getIntVolatile(segment, WORD + WaitWords.SLEEPERS_OFFSET));

        WaitWords.removeSleeper(segment, WORD);
        WaitWords.removeSleeper(segment, WORD);
        assertEquals(0, Words.getIntVolatile(segment, WORD + WaitWords.SLEEPERS_OFFSET));
        assertEquals(0, Words.getIntVolatile(segment, WORD), "the value is not touched");
    }

    @Test
    void shouldWakeAnnouncedSleeperOnStore() throws Exception {
        WaitWords.addSleeper(segment, WORD);
        final Future<Boolean> sleeper = shm.submit(() -> Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS));
        FutexSleepers.await(segment, WORD, 1);

        WaitWords.putIntVolatileAndWake(segment, WORD, 1);

        assertTrue(sleeper.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS), "woken, not timed out");
        assertEquals(1, Words.getIntVolatile(segment, WORD));
    }

    @Test
    void shouldWakeAnnouncedSleeperWhenValueIsUnchanged() throws Exception {
        WaitWords.addSleeper(segment, WORD);
        final Future<Boolean> sleeper = shm.submit(() -> Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS));
        FutexSleepers.await(segment, WORD, 1);

        // The value stays 0, so only wakeAll can end the sleep.
        WaitWords.wakeAll(segment, WORD);

        assertTrue(sleeper.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS), "woken, not timed out");
        assertEquals(0, Words.getIntVolatile(segment, WORD));
    }

    @Test
    void shouldWakeAnnouncedSleeperOnAtomicAdd() throws Exception {
        WaitWords.addSleeper(segment, WORD);
        final Future<Boolean> sleeper = shm.submit(() -> Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS));
        FutexSleepers.await(segment, WORD, 1);

        assertEquals(0, WaitWords.getAndAddIntAndWake(segment, WORD, 5));

        assertTrue(sleeper.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS), "woken, not timed out");
        assertEquals(5, Words.getIntVolatile(segment, WORD));
    }

    @Test
    void shouldWakeAnnouncedSleeperOnSignalAndBumpTheSignalValue() throws Exception {
        WaitWords.addSleeper(segment, WORD);
        final Future<Boolean> sleeper = shm.submit(() -> Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS));
        FutexSleepers.await(segment, WORD, 1);

        WaitWords.signal(segment, WORD);

        assertTrue(sleeper.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS), "woken, not timed out");
        assertEquals(1, Words.getIntVolatile(segment, WORD));
        assertEquals(1, Words.getIntVolatile(segment, WORD + WaitWords.SLEEPERS_OFFSET), "the count is the waiter's");
    }

    /**
     * signalOnce: of several writers that signal while the announced sleeper has not withdrawn, only the first
     * bumps the value and wakes it; after the sleeper sleeps again on the new value, the next writer wakes it.
     */
    @Test
    void shouldWakeEachSleepOnceOnSignalOnce() throws Exception {
        final long epoch = WORD + 64;
        WaitWords.addSleeper(segment, WORD);
        WaitWords.recordEpoch(segment, epoch, 0);
        final Future<Boolean> sleeper = shm.submit(() -> Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS));
        FutexSleepers.await(segment, WORD, 1);

        WaitWords.signalOnce(segment, WORD, epoch, false);
        WaitWords.signalOnce(segment, WORD, epoch, true);
        WaitWords.signalOnce(segment, WORD, epoch, false);

        assertTrue(sleeper.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS), "woken, not timed out");
        assertEquals(1, Words.getIntVolatile(segment, WORD), "one bump for the three signals");
        WaitWords.recordEpoch(segment, epoch, 1); // the sleeper sleeps again, on the value it sees now
        WaitWords.signalOnce(segment, WORD, epoch, false);
        assertEquals(2, Words.getIntVolatile(segment, WORD));
        WaitWords.removeSleeper(segment, WORD);
        WaitWords.signalOnce(segment, WORD, epoch, false);
        assertEquals(2, Words.getIntVolatile(segment, WORD), "no sleeper, no bump");
    }

    /**
     * signalOnce with two sleepers on one word: one sleeps on the value after a bump, the other read the value
     * before that bump, records it late and withdraws (its condition came true). The epoch must stay at the value
     * the remaining sleeper sleeps on, so that the next writer wakes it.
     */
    @Test
    void shouldWakeSleeperOnSignalOnceAfterAnotherRecordedAnOlderValue() throws Exception {
        final long epoch = WORD + 64;
        Words.putIntVolatile(segment, WORD, 1); // one bump happened
        WaitWords.addSleeper(segment, WORD);
        WaitWords.recordEpoch(segment, epoch, 1);
        final Future<Boolean> sleeper = shm.submit(() -> Futex.wait(segment, WORD, 1, LONG_TIMEOUT_NS));
        FutexSleepers.await(segment, WORD, 1);
        // the late sleeper: read 0 before the bump, announces itself and records it now, then withdraws
        WaitWords.addSleeper(segment, WORD);
        WaitWords.recordEpoch(segment, epoch, 0);
        WaitWords.removeSleeper(segment, WORD);

        WaitWords.signalOnce(segment, WORD, epoch, true);

        assertTrue(sleeper.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS), "woken, not timed out");
        assertEquals(2, Words.getIntVolatile(segment, WORD));
        assertEquals(1, Words.getIntVolatile(segment, epoch), "the epoch never moves back");
        WaitWords.removeSleeper(segment, WORD);
    }

    @Test
    void shouldNeitherBumpNorWakeOnSignalWithoutAnnouncedSleeper() throws Exception {
        // An unannounced sleeper: neither call may wake it. A futex wake makes its sleeper runnable before
        // the syscall returns, so the sleeper is still listed asleep afterwards only if it was not woken.
        final Future<Boolean> sleeper = shm.submit(() -> Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS));
        FutexSleepers.await(segment, WORD, 1);

        WaitWords.signal(segment, WORD);
        WaitWords.wakeAll(segment, WORD);

        assertEquals(1, FutexSleepers.count(segment, WORD), "a sleeper that did not announce itself was woken");
        assertEquals(0, Words.getIntVolatile(segment, WORD), "the signal value moves only for a sleeper");
        Futex.wake(segment, WORD, 1);
        assertTrue(sleeper.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
    }
}
