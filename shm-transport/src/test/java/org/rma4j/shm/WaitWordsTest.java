package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WaitWordsTest {
    private static final long WORD = 256;
    private static final long LONG_TIMEOUT_NS = TimeUnit.MINUTES.toNanos(10);

    private TestShm shm;
    private MemorySegment segment;

    @BeforeEach
    void setUp() throws Exception {
        shm = new TestShm();
        segment = shm.create("wait-words", 4096).segment();
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
        final CountDownLatch returned = new CountDownLatch(1);
        WaitWords.addSleeper(segment, WORD);
        shm.submit(() -> {
            Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS);
            returned.countDown();
            return null;
        });

        WaitWords.putIntVolatileAndWake(segment, WORD, 1);

        assertTrue(returned.await(TestShm.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS),
            "the announced sleeper was not woken");
        assertEquals(1, Words.getIntVolatile(segment, WORD));
    }

    @Test
    void shouldWakeAnnouncedSleeperWhenValueIsUnchanged() throws Exception {
        final CountDownLatch returned = new CountDownLatch(1);
        WaitWords.addSleeper(segment, WORD);
        shm.submit(() -> {
            Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS);
            returned.countDown();
            return null;
        });

        // The value stays 0, so only wakeAll can end the sleep; repeat until the thread slept.
        do {
            WaitWords.wakeAll(segment, WORD);
        } while (!returned.await(5, TimeUnit.MILLISECONDS));

        assertEquals(0, Words.getIntVolatile(segment, WORD));
    }

    @Test
    void shouldWakeAnnouncedSleeperOnAtomicAdd() throws Exception {
        final CountDownLatch returned = new CountDownLatch(1);
        WaitWords.addSleeper(segment, WORD);
        shm.submit(() -> {
            Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS);
            returned.countDown();
            return null;
        });

        assertEquals(0, WaitWords.getAndAddIntAndWake(segment, WORD, 5));

        assertTrue(returned.await(TestShm.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS),
            "the announced sleeper was not woken");
    }
}
