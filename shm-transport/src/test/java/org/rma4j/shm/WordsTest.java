package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.ShmTestDirectory;

@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WordsTest {
    private static final int[] INT_VALUES = {0, 1, -1, 42, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x7F00_00FF};
    private static final long[] LONG_VALUES = {0L, 1L, -1L, 42L, Long.MIN_VALUE, Long.MAX_VALUE, 0x0123_4567_89AB_CDEFL,
        1L << 32};

    private ShmTestDirectory shm;
    private MemorySegment segment;

    @BeforeEach
    void setUp() throws Exception {
        shm = new ShmTestDirectory();
        segment = ShmFiles.create(shm, "words", 4096).segment();
    }

    @AfterEach
    void tearDown() throws Exception {
        shm.close();
    }

    @Test
    void shouldRoundTripIntThroughEveryStoreAndLoad() {
        for (final int value : INT_VALUES) {
            Words.putInt(segment, 64, value);
            assertEquals(value, Words.getInt(segment, 64));
            assertEquals(value, Words.getIntAcquire(segment, 64));
            assertEquals(value, Words.getIntVolatile(segment, 64));

            Words.putIntRelease(segment, 128, value);
            assertEquals(value, Words.getInt(segment, 128));
            assertEquals(value, Words.getIntAcquire(segment, 128));

            Words.putIntVolatile(segment, 192, value);
            assertEquals(value, Words.getInt(segment, 192));
            assertEquals(value, Words.getIntVolatile(segment, 192));
        }
    }

    @Test
    void shouldRoundTripLongThroughEveryStoreAndLoad() {
        for (final long value : LONG_VALUES) {
            Words.putLong(segment, 64, value);
            assertEquals(value, Words.getLong(segment, 64));
            assertEquals(value, Words.getLongAcquire(segment, 64));
            assertEquals(value, Words.getLongVolatile(segment, 64));

            Words.putLongRelease(segment, 128, value);
            assertEquals(value, Words.getLong(segment, 128));
            assertEquals(value, Words.getLongAcquire(segment, 128));

            Words.putLongVolatile(segment, 192, value);
            assertEquals(value, Words.getLong(segment, 192));
            assertEquals(value, Words.getLongVolatile(segment, 192));
        }
    }

    @Test
    void shouldStoreIntInNativeByteOrderWithoutTouchingNeighbours() {
        Words.putLong(segment, 0, -1L);
        Words.putLong(segment, 8, -1L);
        Words.putIntVolatile(segment, 4, 0x0102_0304);

        assertEquals(0x0102_0304, segment.get(ValueLayout.JAVA_INT, 4));
        assertEquals(-1, segment.get(ValueLayout.JAVA_INT, 0), "word before");
        assertEquals(-1L, segment.get(ValueLayout.JAVA_LONG, 8), "word after");
    }

    @Test
    void shouldSetIntOnlyWhenExpectedValueMatches() {
        Words.putInt(segment, 8, 5);

        assertFalse(Words.compareAndSetInt(segment, 8, 4, 9));
        assertEquals(5, Words.getIntVolatile(segment, 8), "a failed CAS must not store");

        assertTrue(Words.compareAndSetInt(segment, 8, 5, 9));
        assertEquals(9, Words.getIntVolatile(segment, 8));
    }

    @Test
    void shouldReturnWitnessValueFromCompareAndExchange() {
        Words.putInt(segment, 8, 5);

        assertEquals(5, Words.compareAndExchangeInt(segment, 8, 4, 9), "failure returns the current value");
        assertEquals(5, Words.getIntVolatile(segment, 8));

        assertEquals(5, Words.compareAndExchangeInt(segment, 8, 5, 9), "success returns the expected value");
        assertEquals(9, Words.getIntVolatile(segment, 8));
    }

    @Test
    void shouldSetLongOnlyWhenExpectedValueMatches() {
        Words.putLong(segment, 16, 1L << 40);

        assertFalse(Words.compareAndSetLong(segment, 16, 1L, 7L));
        assertEquals(1L << 40, Words.getLongVolatile(segment, 16), "a failed CAS must not store");

        assertTrue(Words.compareAndSetLong(segment, 16, 1L << 40, 7L));
        assertEquals(7L, Words.getLongVolatile(segment, 16));
    }

    @Test
    void shouldReturnPreviousValueFromGetAndAddInt() {
        Words.putInt(segment, 8, 10);

        assertEquals(10, Words.getAndAddInt(segment, 8, 5));
        assertEquals(15, Words.getAndAddInt(segment, 8, -20));
        assertEquals(-5, Words.getIntVolatile(segment, 8));
    }

    @Test
    void shouldWrapAroundOnIntOverflow() {
        Words.putInt(segment, 8, Integer.MAX_VALUE);

        assertEquals(Integer.MAX_VALUE, Words.getAndAddInt(segment, 8, 1));
        assertEquals(Integer.MIN_VALUE, Words.getInt(segment, 8));
    }

    @Test
    void shouldReturnPreviousValueFromGetAndAddLong() {
        Words.putLong(segment, 16, 1L << 33);

        assertEquals(1L << 33, Words.getAndAddLong(segment, 16, 1L << 33));
        assertEquals(1L << 34, Words.getLongVolatile(segment, 16));
    }

    @Test
    void shouldReturnPreviousValueFromGetAndSetInt() {
        Words.putInt(segment, 8, 3);

        assertEquals(3, Words.getAndSetInt(segment, 8, 11));
        assertEquals(11, Words.getIntVolatile(segment, 8));
    }

    @Test
    void shouldRejectMisalignedIntOffset() {
        for (final long offset : new long[] {1, 2, 3, 65}) {
            assertThrows(IllegalArgumentException.class, () -> Words.getInt(segment, offset), "get at " + offset);
            assertThrows(IllegalArgumentException.class, () -> Words.putIntVolatile(segment, offset, 1));
            assertThrows(IllegalArgumentException.class, () -> Words.compareAndSetInt(segment, offset, 0, 1));
            assertThrows(IllegalArgumentException.class, () -> Words.getAndAddInt(segment, offset, 1));
        }
    }

    @Test
    void shouldRejectMisalignedLongOffset() {
        for (final long offset : new long[] {1, 4, 12}) {
            assertThrows(IllegalArgumentException.class, () -> Words.getLong(segment, offset), "get at " + offset);
            assertThrows(IllegalArgumentException.class, () -> Words.putLongRelease(segment, offset, 1L));
            assertThrows(IllegalArgumentException.class, () -> Words.compareAndSetLong(segment, offset, 0L, 1L));
            assertThrows(IllegalArgumentException.class, () -> Words.getAndAddLong(segment, offset, 1L));
        }
    }

    @Test
    void shouldRejectOffsetOutsideSegment() {
        assertThrows(IndexOutOfBoundsException.class, () -> Words.getInt(segment, 4096));
        assertThrows(IndexOutOfBoundsException.class, () -> Words.putLong(segment, 4096 - 4, 1L));
        assertThrows(IndexOutOfBoundsException.class, () -> Words.getIntVolatile(segment, -4));
    }

    @Test
    void shouldCountEveryIncrementMadeConcurrentlyThroughSeparateMappings() throws Exception {
        final int threads = 4;
        final int increments = 20_000;
        final MemorySegment[] mappings = new MemorySegment[threads];
        for (int t = 0; t < threads; t++) {
            mappings[t] = ShmFiles.open(shm, "words").segment();
        }
        final CyclicBarrier start = new CyclicBarrier(threads);
        final List<Future<Void>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final MemorySegment mine = mappings[t];
            futures.add(shm.submit(() -> {
                start.await();
                for (int i = 0; i < increments; i++) {
                    Words.getAndAddInt(mine, 256, 1);
                    Words.getAndAddLong(mine, 264, 3L);
                }
                return null;
            }));
        }
        for (final Future<Void> future : futures) {
            future.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }

        assertEquals(threads * increments, Words.getIntVolatile(segment, 256));
        assertEquals(3L * threads * increments, Words.getLongVolatile(segment, 264));
    }
}
