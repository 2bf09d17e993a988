package org.rma4j.notify;

import org.rma4j.shm.Align;
import org.rma4j.shm.FileHeader;
import org.rma4j.shm.WaitWords;

/**
 * Layout of a block of notification counters: one party's counters that any party mapping the block
 * increments, in a file of its own. The creator writes the count, then publishes the {@link FileHeader}
 * (magic, version, ready, size); an opener checks the header and the count before it touches a counter.
 *
 * <pre>
 *   0                   24        28                                                   128
 *   +-------------------+---------+----------------------------------------------------+
 *   | FileHeader        | count   | padding                                            |  read-only after
 *   | magic,version,... | (int)   |                                                    |  publication
 *   +-------------------+---------+----------------------------------------------------+ 128
 *   | signal (wait word: int value, int sleepers)         | padding (120 B)              |  sleepers: waiters;
 *   |   value bumped by incrementers when a sleeper is announced                        |  value: incrementers
 *   +-----------------------------------------------------------------------------------+ 256
 *   | counter 0 (long)    | padding (56 B)                                              |  getAndAdd by every
 *   +-----------------------------------------------------------------------------------+ 320  incrementer,
 *   | counter 1 (long)    | padding (56 B)                                              |  loads and sets by
 *   +-----------------------------------------------------------------------------------+      the owner
 *   | ...                                                                               |
 *   +-----------------------------------------------------------------------------------+ 256 + 64 * count
 * </pre>
 *
 * Each counter has a cache line of its own, so origins incrementing different counters do not share a line;
 * the header and the signal word sit two lines apart from the counters and from each other.
 *
 * <p>Publication protocol: an incrementer makes its data visible with plain stores, then adds one to the
 * counter with a volatile read-modify-write (a release, so whoever reads the new value with an acquire or
 * volatile load sees the data), then reads the sleeper count and wakes sleepers only if one announced itself
 * ({@link WaitWords#signalAfterVolatile}).
 */
public final class CounterBlockLayout {
    /** Magic number of a counter block file: "rma4jCNT". */
    public static final long MAGIC = 0x726d61346a434e54L;
    /** Layout version; an opener accepts only this one. */
    public static final int VERSION = 1;

    /** Offset of the number of counters (int), written by the creator before publication. */
    public static final int COUNT_OFFSET = FileHeader.LENGTH;
    /** Offset of the block's signal {@link WaitWords wait word}: every waiter of the block sleeps on it. */
    public static final int SIGNAL_OFFSET = Align.PAD;
    /** Offset of counter 0. */
    public static final int COUNTERS_OFFSET = SIGNAL_OFFSET + Align.PAD;
    /** Bytes from one counter to the next: a cache line each. */
    public static final int COUNTER_STRIDE = Align.CACHE_LINE;

    /** Largest number of counters of one block: 2^20 (64 MiB of counters). */
    public static final int MAX_COUNT = 1 << 20;

    private CounterBlockLayout() {
    }

    /**
     * @return the offset of counter {@code index}.
     */
    public static long counterOffset(final int index) {
        return COUNTERS_OFFSET + (long)index * COUNTER_STRIDE;
    }

    /**
     * @return the bytes of a block of {@code count} counters.
     */
    public static long lengthBytes(final int count) {
        return counterOffset(count);
    }

    /**
     * @throws IllegalArgumentException if {@code count} is negative or above {@link #MAX_COUNT}.
     */
    public static int checkCount(final int count) {
        if (count < 0 || count > MAX_COUNT) {
            throw new IllegalArgumentException("counter count " + count + " is outside 0.." + MAX_COUNT);
        }
        return count;
    }
}
