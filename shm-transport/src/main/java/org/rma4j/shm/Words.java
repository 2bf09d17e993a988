package org.rma4j.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Accessors for 32- and 64-bit words in a {@link MemorySegment}, with the memory order in each name
 * (the agrona {@code AtomicBuffer} convention).
 *
 * <p>Offsets are byte offsets into the segment and must be naturally aligned for the accessed type;
 * the underlying var handles throw {@link IllegalArgumentException} otherwise.
 *
 * <p>Pairing rule: a store made with {@code put*Release}, {@code put*Volatile} or an atomic
 * read-modify-write is observed, together with everything the writer stored before it, by a load of
 * the same word with {@code get*Acquire} or {@code get*Volatile}. Plain accessors give no ordering.
 */
public final class Words {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private Words() {
    }

    public static int getInt(final MemorySegment segment, final long offset) {
        return (int)INT.get(segment, offset);
    }

    public static void putInt(final MemorySegment segment, final long offset, final int value) {
        INT.set(segment, offset, value);
    }

    public static int getIntAcquire(final MemorySegment segment, final long offset) {
        return (int)INT.getAcquire(segment, offset);
    }

    public static void putIntRelease(final MemorySegment segment, final long offset, final int value) {
        INT.setRelease(segment, offset, value);
    }

    public static int getIntVolatile(final MemorySegment segment, final long offset) {
        return (int)INT.getVolatile(segment, offset);
    }

    public static void putIntVolatile(final MemorySegment segment, final long offset, final int value) {
        INT.setVolatile(segment, offset, value);
    }

    public static boolean compareAndSetInt(final MemorySegment segment, final long offset, final int expected,
        final int value) {
        return INT.compareAndSet(segment, offset, expected, value);
    }

    public static int compareAndExchangeInt(final MemorySegment segment, final long offset, final int expected,
        final int value) {
        return (int)INT.compareAndExchange(segment, offset, expected, value);
    }

    public static int getAndAddInt(final MemorySegment segment, final long offset, final int delta) {
        return (int)INT.getAndAdd(segment, offset, delta);
    }

    public static int getAndSetInt(final MemorySegment segment, final long offset, final int value) {
        return (int)INT.getAndSet(segment, offset, value);
    }

    public static long getLong(final MemorySegment segment, final long offset) {
        return (long)LONG.get(segment, offset);
    }

    public static void putLong(final MemorySegment segment, final long offset, final long value) {
        LONG.set(segment, offset, value);
    }

    public static long getLongAcquire(final MemorySegment segment, final long offset) {
        return (long)LONG.getAcquire(segment, offset);
    }

    public static void putLongRelease(final MemorySegment segment, final long offset, final long value) {
        LONG.setRelease(segment, offset, value);
    }

    public static long getLongVolatile(final MemorySegment segment, final long offset) {
        return (long)LONG.getVolatile(segment, offset);
    }

    public static void putLongVolatile(final MemorySegment segment, final long offset, final long value) {
        LONG.setVolatile(segment, offset, value);
    }

    public static boolean compareAndSetLong(final MemorySegment segment, final long offset, final long expected,
        final long value) {
        return LONG.compareAndSet(segment, offset, expected, value);
    }

    public static long getAndAddLong(final MemorySegment segment, final long offset, final long delta) {
        return (long)LONG.getAndAdd(segment, offset, delta);
    }
}
