package org.rma4j.notify;

import java.lang.foreign.MemorySegment;

import org.rma4j.shm.Align;
import org.rma4j.shm.WaitWords;

/**
 * Layout of a bounded multi-producer single-consumer ring of 64-byte notifications, placed at a
 * {@link Align#PAD}-aligned offset of a shared mapping.
 *
 * <p>Header: every word written by a different party sits in its own 128-byte region (two cache
 * lines, so the adjacent-line prefetcher does not couple them).
 *
 * <pre>
 *   0                                                                       128
 *   +-----------------------------------------------------------------------+
 *   | producer index (long)  CAS by every producer       | padding (120 B)  |
 *   +-----------------------------------------------------------------------+ 128
 *   | consumer index (long)  release store by consumer   | padding (120 B)  |
 *   +-----------------------------------------------------------------------+ 256
 *   | signal (wait word: int value, int sleepers)        | padding (120 B)  |
 *   |   value bumped by producers, sleepers by consumer  |                  |
 *   +-----------------------------------------------------------------------+ 384
 *   | capacity (int)  written once by format, read-only  | padding (124 B)  |
 *   +-----------------------------------------------------------------------+ 512
 *   | entry 0 | entry 1 | ... | entry capacity-1   (64 B each, line-aligned) |
 *   +-----------------------------------------------------------------------+ 512 + 64 * capacity
 * </pre>
 *
 * Entry (one cache line):
 *
 * <pre>
 *   0               8       12      16              24      28      32                              64
 *   +---------------+-------+-------+---------------+-------+-------+-------------------------------+
 *   | sequence      |source | tag   | displacement  |length | flags | inline payload (32 B)         |
 *   | (long)        |(int)  |(int)  | (long)        |(int)  |(int)  | INLINE_CAPACITY bytes         |
 *   +---------------+-------+-------+---------------+-------+-------+-------------------------------+
 *   flags: bits 0..23 the caller's flags, bits 24..31 the number of inline payload bytes (0..32)
 * </pre>
 *
 * Publication protocol: a producer claims index {@code i} by a CAS of the producer index, records itself
 * with a CAS of the slot's sequence word from its previous-lap value ({@link #isPreviousLap}) to
 * {@link #claimMark claimMark(i, producerId)}, writes the
 * fields and payload with plain stores and publishes them with a release store of {@code i + 1} to the
 * sequence word, which the consumer reads with an acquire load before reading anything else.
 *
 * <p>Sequence word values for index {@code i} (slot {@code i & (capacity - 1)}):
 * <ul>
 *   <li>{@code i + 1}: published for index {@code i}; every value of an earlier lap is smaller, so a
 *       late publication is never mistaken for a later lap's entry;</li>
 *   <li>{@code claimMark(i, p)}: claimed by producer {@code p}, not yet published (sign bit set, bits
 *       32..62 the low 31 bits of {@code i}, bits 0..31 {@code p});</li>
 *   <li>{@code skipMark(i)}: the consumer gave index {@code i} up because its claimer died;</li>
 *   <li>anything else (0 when never used, a value of an earlier lap): not yet claimed, or claimed and
 *       not yet marked.</li>
 * </ul>
 */
public final class NotifyRingLayout {
    public static final int PRODUCER_INDEX_OFFSET = 0;
    public static final int CONSUMER_INDEX_OFFSET = Align.PAD;
    /** The consumer's signal {@link WaitWords wait word}. */
    public static final int SIGNAL_OFFSET = 2 * Align.PAD;
    public static final int CAPACITY_OFFSET = 3 * Align.PAD;
    /** Bytes of the header; entries start here. */
    public static final int HEADER_LENGTH = 4 * Align.PAD;

    /** Bytes of one entry: one cache line. */
    public static final int ENTRY_LENGTH = Align.CACHE_LINE;
    public static final int SEQUENCE_OFFSET = 0;
    public static final int SOURCE_OFFSET = 8;
    public static final int TAG_OFFSET = 12;
    public static final int DISPLACEMENT_OFFSET = 16;
    public static final int LENGTH_OFFSET = 24;
    public static final int FLAGS_OFFSET = 28;
    public static final int INLINE_OFFSET = 32;
    /** Bytes of payload an entry carries inline. */
    public static final int INLINE_CAPACITY = ENTRY_LENGTH - INLINE_OFFSET;

    /** Flag bits the caller may use; the rest of the flags word holds the inline payload length. */
    public static final int USER_FLAGS_MASK = 0x00FF_FFFF;
    /** Position of the inline payload length in the flags word. */
    public static final int INLINE_LENGTH_SHIFT = 24;

    /** Smallest capacity. */
    public static final int MIN_CAPACITY = 1;
    /** Largest capacity: 2^24 entries, 1 GiB of entries. */
    public static final int MAX_CAPACITY = 1 << 24;

    /** Producer ids are {@code 0..MAX_PRODUCER_ID}. */
    public static final int MAX_PRODUCER_ID = Integer.MAX_VALUE;

    private static final long MARK_BIT = Long.MIN_VALUE;
    private static final long MARK_INDEX_MASK = 0x7FFF_FFFFL;
    private static final long MARK_ID_MASK = 0xFFFF_FFFFL;
    private static final int SKIP_ID = -1;

    private NotifyRingLayout() {
    }

    /**
     * @param capacity entries of the ring, a power of two.
     * @return bytes the ring occupies: header and entries.
     */
    public static long lengthFor(final int capacity) {
        checkCapacity(capacity);
        return HEADER_LENGTH + (long)capacity * ENTRY_LENGTH;
    }

    /**
     * @return offset, from the ring's start, of the entry that holds {@code index}.
     */
    public static long entryOffset(final long index, final int capacity) {
        return HEADER_LENGTH + (index & (capacity - 1)) * ENTRY_LENGTH;
    }

    /**
     * @return the sequence value that publishes {@code index}.
     */
    public static long publishedValue(final long index) {
        return index + 1;
    }

    /**
     * @return the sequence value by which {@code producerId} records its claim of {@code index}.
     */
    public static long claimMark(final long index, final int producerId) {
        return MARK_BIT | ((index & MARK_INDEX_MASK) << 32) | (producerId & MARK_ID_MASK);
    }

    /**
     * @return the sequence value by which the consumer gives up {@code index}.
     */
    public static long skipMark(final long index) {
        return MARK_BIT | ((index & MARK_INDEX_MASK) << 32) | (SKIP_ID & MARK_ID_MASK);
    }

    /**
     * @return whether {@code sequence} is a claim or skip mark made for {@code index}.
     */
    public static boolean isMarkFor(final long sequence, final long index) {
        return (sequence & MARK_BIT) != 0 && ((sequence >>> 32) & MARK_INDEX_MASK) == (index & MARK_INDEX_MASK);
    }

    /**
     * Whether {@code sequence} is a value the slot of {@code index} holds between its previous lap and a
     * claim of {@code index}: 0 (never used) in the first lap, else the published value or the skip mark of
     * {@code index - capacity}. A producer records its claim only from such a value.
     *
     * @return whether the slot is free for index's claim to be recorded.
     */
    public static boolean isPreviousLap(final long sequence, final long index, final int capacity) {
        final long previous = index - capacity;
        if (previous < 0) {
            return sequence == 0;
        }
        return sequence == publishedValue(previous) || sequence == skipMark(previous);
    }

    /**
     * @return whether {@code sequence} is the claim mark of a producer for {@code index}.
     */
    public static boolean isClaimMarkFor(final long sequence, final long index) {
        return isMarkFor(sequence, index) && (int)sequence != SKIP_ID;
    }

    /**
     * @return the producer id recorded in a claim mark.
     */
    public static int markedProducer(final long sequence) {
        return (int)sequence;
    }

    /**
     * @throws IllegalArgumentException unless capacity is a power of two in MIN_CAPACITY..MAX_CAPACITY.
     */
    public static void checkCapacity(final int capacity) {
        if (capacity < MIN_CAPACITY || capacity > MAX_CAPACITY || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException(
                "ring capacity " + capacity + " is not a power of two in " + MIN_CAPACITY + ".." + MAX_CAPACITY);
        }
    }

    /**
     * Checks that a ring of {@code capacity} entries fits at {@code offset} of {@code segment} and that its
     * start is {@link Align#PAD}-aligned in memory.
     *
     * @throws IllegalArgumentException naming the offending values.
     */
    public static void checkPlacement(final MemorySegment segment, final long offset, final int capacity) {
        checkCapacity(capacity);
        if (offset < 0 || offset % Align.PAD != 0) {
            throw new IllegalArgumentException(
                "ring offset " + offset + " is not a non-negative multiple of " + Align.PAD);
        }
        if ((segment.address() + offset) % Align.PAD != 0) {
            throw new IllegalArgumentException("ring at offset " + offset + " starts at address 0x"
                + Long.toHexString(segment.address() + offset) + ", which is not " + Align.PAD + "-byte aligned");
        }
        final long length = lengthFor(capacity);
        if (offset > segment.byteSize() - length) {
            throw new IllegalArgumentException("ring at offset " + offset + " of " + length + " bytes (capacity "
                + capacity + ") exceeds the segment size " + segment.byteSize());
        }
    }

    /**
     * @throws IllegalArgumentException unless {@code producerId} is in 0..MAX_PRODUCER_ID.
     */
    public static void checkProducerId(final int producerId) {
        if (producerId < 0) {
            throw new IllegalArgumentException("producer id " + producerId + " is negative");
        }
    }

    /**
     * Checks the fields of one notification.
     *
     * @throws IllegalArgumentException naming the offending value.
     */
    public static void checkEntry(final int source, final int tag, final int length, final int flags,
        final long inlineLength) {
        if (source < 0) {
            throw new IllegalArgumentException("source " + source + " is negative");
        }
        if (tag < 0) {
            throw new IllegalArgumentException("tag " + tag + " is negative");
        }
        if (length < 0) {
            throw new IllegalArgumentException("length " + length + " is negative");
        }
        if ((flags & ~USER_FLAGS_MASK) != 0) {
            throw new IllegalArgumentException("flags 0x" + Integer.toHexString(flags) + " use bits outside 0x"
                + Integer.toHexString(USER_FLAGS_MASK));
        }
        if (inlineLength > INLINE_CAPACITY) {
            throw new IllegalArgumentException(
                "inline payload of " + inlineLength + " bytes exceeds " + INLINE_CAPACITY);
        }
    }
}
