package org.rma4j.shm;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * The wait-word convention: a 32-bit value that peers wait on, immediately followed by a 32-bit
 * sleeper count in which a waiter announces itself before it sleeps on the value's futex.
 *
 * <pre>
 *   0                   4                   8
 *   +-------------------+-------------------+
 *   |    value (int)    |  sleepers (int)   |
 *   +-------------------+-------------------+
 * </pre>
 *
 * Publication rule: any process may write the value; a writer changes the value with a volatile store or an atomic read-modify-write and then
 * calls {@link #wakeAll}, which issues the wake syscall only when the sleeper count is non-zero. A
 * waiter increments the sleeper count (atomic), issues a full fence, re-reads the value or its
 * condition and only then sleeps with the value it saw as the futex's expected value. Each side puts a
 * full fence (or a volatile access, which the Java memory model orders with every other volatile
 * access) between its store and its load, so either the writer sees the sleeper or the waiter sees the
 * new value: no wake-up is lost.
 */
public final class WaitWords {
    /** Offset of the value (int) in a wait word: the word's offset itself, the futex's address. */
    public static final int VALUE_OFFSET = 0;
    /** Offset of the sleeper count (int) from the value. */
    public static final int SLEEPERS_OFFSET = VALUE_OFFSET + Integer.BYTES;
    /** Bytes a wait word occupies: value and sleeper count. */
    public static final int LENGTH = SLEEPERS_OFFSET + Integer.BYTES;

    private WaitWords() {
    }

    /**
     * Wakes every sleeper on the wait word at {@code offset}, if any announced itself.
     *
     * @param segment the mapping holding the word.
     * @param offset  offset of the word's value.
     */
    public static void wakeAll(final MemorySegment segment, final long offset) {
        if (Words.getIntVolatile(segment, offset + SLEEPERS_OFFSET) != 0) {
            Futex.wake(segment, offset, Integer.MAX_VALUE);
        }
    }

    /**
     * Stores {@code value} with volatile semantics and wakes the word's sleepers.
     *
     * @param segment the mapping holding the word.
     * @param offset  offset of the word's value.
     * @param value   the new value.
     */
    public static void putIntVolatileAndWake(final MemorySegment segment, final long offset, final int value) {
        Words.putIntVolatile(segment, offset, value);
        wakeAll(segment, offset);
    }

    /**
     * Adds {@code delta} atomically and wakes the word's sleepers.
     *
     * @param segment the mapping holding the word.
     * @param offset  offset of the word's value.
     * @param delta   the increment.
     * @return the previous value.
     */
    public static int getAndAddIntAndWake(final MemorySegment segment, final long offset, final int delta) {
        final int previous = Words.getAndAddInt(segment, offset, delta);
        wakeAll(segment, offset);
        return previous;
    }

    /**
     * Signals a condition awaited with {@link WaitStrategy#awaitCondition}: if a sleeper announced
     * itself, bumps the signal value and wakes every sleeper. Call after making the condition true;
     * costs a full fence and one volatile load when nobody sleeps.
     *
     * @param segment the mapping holding the signal word.
     * @param offset  offset of the signal word's value.
     */
    public static void signal(final MemorySegment segment, final long offset) {
        // NOTE: the store that made the condition true may be a release store, which a later load can
        // pass; the fence keeps the sleeper-count read after it, so no announced sleeper is missed.
        VarHandle.fullFence();
        if (Words.getIntVolatile(segment, offset + SLEEPERS_OFFSET) != 0) {
            Words.getAndAddInt(segment, offset, 1);
            Futex.wake(segment, offset, Integer.MAX_VALUE);
        }
    }

    /**
     * Announces a sleeper; pair with {@link #removeSleeper}.
     */
    static void addSleeper(final MemorySegment segment, final long offset) {
        Words.getAndAddInt(segment, offset + SLEEPERS_OFFSET, 1);
    }

    static void removeSleeper(final MemorySegment segment, final long offset) {
        Words.getAndAddInt(segment, offset + SLEEPERS_OFFSET, -1);
    }
}
