package org.rma4j.notify;

import java.lang.foreign.MemorySegment;

import org.rma4j.shm.Align;
import org.rma4j.shm.Membarrier;
import org.rma4j.shm.WaitWords;

/**
 * Layout of one consumer's notification lanes: one single-producer lane of 64-byte notifications per origin,
 * a summary line of one 16-bit doorbell per lane, and the consumer's signal word, placed at a
 * {@link Align#PAD}-aligned offset of a shared mapping. Each origin publishes with one release store and
 * no read-modify-write (per-peer FIFOs as MPI libraries keep them, or Aeron's log per publication). The poll
 * mode, chosen at format ({@link #pollModeFor}), says how the consumer finds entries: with many lanes
 * ({@link #POLL_SUMMARY}) each origin also rings its lane's doorbell and the consumer polls one summary line per
 * 32 lanes, however many origins there are; with up to {@link #STAMP_POLLED_LANES_MAX} lanes
 * ({@link #POLL_STAMPS}) no doorbell is rung and the consumer polls each lane's next stamp, so that a
 * notification moves one line, the entry's.
 *
 * <pre>
 *   0                                                                           128
 *   +---------------------------------------------------------------------------+
 *   | lanes | lane capacity | fence mode | poll mode (ints) |  padding          | CONFIG, written once by format
 *   +---------------------------------------------------------------------------+ 128   SIGNAL_OFFSET
 *   | signal wait word: value, sleepers | sleep epoch (int) | padding (116 B)  | sleepers, epoch: consumer; value:
 *   +---------------------------------------------------------------------------+ 256   producers, only if a sleeper
 *   | doorbell (16 bits, LE) of lane 0 | lane 1 | ... | lane 31  (one 64 B line) | SUMMARY_OFFSET; bytes 2k, 2k+1:
 *   | lanes 32..63 | ...   (ceil(lanes / 32) lines, padded to a multiple of 128) |   lane k's producer, release store
 *   +---------------------------------------------------------------------------+ lanesOffset(lanes)
 *   | lane 0: head (long, consumer) | room wait (int, producer) | padding      |
 *   |         entry 0 | entry 1 | ... | entry capacity-1  (64 B each)           | laneLength(capacity) bytes
 *   +---------------------------------------------------------------------------+
 *   | lane 1 ... lane lanes-1                                                    |
 *   +---------------------------------------------------------------------------+ lengthFor(lanes, capacity)
 * </pre>
 *
 * Entry (one cache line, index {@code i} of a lane in slot {@code i & (capacity - 1)}):
 *
 * <pre>
 *   0               8       12      16              24      28      32                              64
 *   +---------------+-------+-------+---------------+-------+-------+-------------------------------+
 *   | stamp         |source | tag   | displacement  |length | flags | inline payload (32 B)         |
 *   | (long)        |(int)  |(int)  | (long)        |(int)  |(int)  | INLINE_CAPACITY bytes         |
 *   +---------------+-------+-------+---------------+-------+-------+-------------------------------+
 *   flags: bits 0..23 the caller's flags, bits 24..31 the number of inline payload bytes (0..32)
 * </pre>
 *
 * The header's ints go in pairs, source and tag, length and flags: each pair is one aligned 8-byte word in the
 * platform's byte order, which {@link Notification} stores and loads whole (three accesses for the header).
 *
 * The stamp is {@link #stamp stamp(i)} {@code = i + 1} once entry {@code i} is published; every value of an
 * earlier lap is smaller, so a slot of the previous lap is never taken for the current one. {@code length} is
 * the size of the notified access (it may exceed the inline payload, whose data then went to the target's
 * memory before the notification). Words written by different parties sit in different 128-byte regions
 * except the summary line, whose bytes the producers share on purpose: it is the one line the consumer polls.
 *
 * <p><b>Publication rule</b> (producer of lane {@code k}, one thread at a time, index {@code i} = its count
 * of published entries): if {@code i - head < capacity} (head read with an acquire load, cached until the
 * lane looks full), write the fields of entry {@code i & (capacity - 1)} with plain stores, then
 * <em>publish</em> with a release store of the entry's stamp {@code i + 1}, then, in {@link #POLL_SUMMARY} mode,
 * <em>ring</em> with a release store of the 16-bit value {@code (i + 1) & 0xFFFF} to doorbell {@code k}. The
 * consumer treats entry {@code i} as published when the entry's stamp (acquire) is {@code i + 1}, or when doorbell
 * {@code k} (acquire load of the summary word holding it) shows {@code (doorbell - head) & 0xFFFF} in
 * {@code 1..capacity}; it reads the entry only after one of these acquire loads, and releases it with a release
 * store of the lane's head. The consumer reads the stamp of the next entry of the lane it served last (one line:
 * in a two-party exchange the entry is seen one line transfer after the producer's stores) and, for every other
 * lane, the summary ({@link #POLL_SUMMARY}) or the lane's next stamp ({@link #POLL_STAMPS}).
 *
 * <ul>
 *   <li><b>Counting modulo 65536</b>: a lane never holds more than {@code capacity <= 16384} unconsumed
 *       entries.</li>
 *   <li><b>Doorbell lag</b>: a consumer may take entries through their stamps before their doorbell store is
 *       visible; the doorbell is then behind the head by at most {@code capacity}, and
 *       {@code (doorbell - head) & 0xFFFF} is in {@code 65536 - capacity .. 65535}, never in {@code 1..capacity}
 *       (hence the limit of 16384, below half the modulus): such a lane counts as having nothing pending.</li>
 *   <li><b>Mixed sizes</b>: producers store aligned 16-bit doorbells (little-endian, so that doorbell {@code j}
 *       of a summary word read little-endian is its bits {@code 16j..16j+15}), the consumer loads the 8-byte
 *       words that contain them. Aligned 2-byte stores and 8-byte loads are single-copy atomic per doorbell on
 *       x86-64 and AArch64; each doorbell of a loaded word is some store's value, and the consumer's use of it
 *       is the release / acquire pairing of that doorbell.</li>
 *   <li><b>A dead producer</b> simply never publishes: before its stamp store nothing of its entry is visible
 *       as published. Between the stamp and the doorbell (summary mode) the entry is visible only to a consumer
 *       polling that lane's stamp; as for any offer that never returned, its delivery is not promised. No claim
 *       exists, so nothing needs to be given up (the reliability suite's fault (d) holds by construction) and
 *       other lanes never wait for it.</li>
 * </ul>
 *
 * <p><b>Cache lines per notification.</b> A producer's offer writes the entry's line (fields, then the stamp) and,
 * in summary mode, the summary line (its doorbell), and reads the lane's head line only when the lane looks full
 * (once per lap at most) and the signal line's sleeper count (shared, unchanged while nobody sleeps). The consumer
 * reads the entry's line (the stamp, polled) and writes the head line, which stays in its cache; while the cursor
 * lane has nothing it also polls the summary line, or the next stamp of each other lane (each line stays in its
 * cache until that lane's producer writes it). In a two-party exchange of stamp-polled lanes one line moves each
 * way, as in a flag ping-pong; a doorbell is a second line each way, written by the producer and polled by the
 * consumer (measured: bench/README, "Where the time goes"). The data of the
 * notified access is the runtime's business: a notified put writes it into the target window <em>at the
 * call</em>, before the entry (program order with the origin's other operations: a copy taken in at the
 * target's drain would land after them), so a target that reads it from the window fetches a second line.
 * For a short put (up to {@link #INLINE_CAPACITY} bytes) the runtime also puts a copy of the data into the
 * entry's inline payload: the notification and its data travel in one line, and a target that takes the
 * value from the notification (the runtime's {@code NotifyRequest.inlineData}) reads only that line. The
 * window still receives the data at the call, so program order holds for everyone who reads the window;
 * the inline copy is the data as the put wrote it, which a later operation may have changed in the window.
 *
 * <p><b>Wake-up</b> (fence mode {@link #FENCE_ASYMMETRIC}): after publishing, the producer loads the signal
 * word's sleeper count (volatile load, no fence) and, only if it is non-zero, bumps the value and wakes;
 * a consumer going to sleep announces itself in the sleeper count, issues
 * {@code membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED)}, re-checks the lanes (the cursor lane's stamp, then the
 * summary or the other lanes' stamps) and sleeps on the value it read before announcing ({@link WaitWords},
 * "Asymmetric protocol", has the proof; the publishing store is the doorbell's in summary mode, the stamp's in
 * stamp mode). Producers register their process once ({@link Membarrier#registerGlobalExpedited()}). In
 * {@link #FENCE_SYMMETRIC} mode (no membarrier here) both sides put a full fence between their store and their
 * load ({@link WaitWords#signal}). A producer that dies:
 * <ul>
 *   <li>before its publishing store (the doorbell's in summary mode, the stamp's in stamp mode): nothing is
 *       published for a sleeping consumer (which re-checks the summary or the stamps); no wake-up is owed;</li>
 *   <li>between the publishing store and its sleeper check or wake: the entry is published and a sleeping
 *       consumer is not woken by it; the consumer finds it at its next periodic wake-up (at most
 *       {@link org.rma4j.shm.WaitStrategy#LIVENESS_PERIOD_NS} later), when it also learns of the death
 *       through its liveness check: late, never lost;</li>
 *   <li>after the wake: nothing is left to do.</li>
 * </ul>
 *
 * <p><b>Room</b> (a producer waiting for room in its full lane, in the asymmetric mode): the producer waits on a
 * wait word of its own choosing (the runtime: the signal word of its own lanes, so that notifications for it wake
 * it too), polling the lane's head while it spins; before each sleep it sets the lane's room-wait flag (a
 * volatile store), announces itself on that word, issues the membarrier and re-checks the head. A wait that ends
 * while spinning writes nothing the consumer reads: in a stream that keeps the lane full, the head's line is the
 * only one besides the entries' to move between the two for each entry. The consumer, after each release store of a lane's head, loads
 * the flag (no fence) and, if it is set, calls the room listener, which signals that word. Either the head
 * store precedes the membarrier's point in the consumer's thread (the re-check sees the room), or the flag
 * load follows it (it sees the flag, and the signal sees the announced sleeper): the same argument as the
 * wake-up's, with the roles of producer and consumer swapped. The consumer's process registers for
 * membarrier; in the symmetric mode (or where it cannot register) it puts a full fence between the head store
 * and the flag load.
 *
 * <p><b>Order</b>: each lane is FIFO, so one origin's notifications arrive in the order it offered them.
 * Across lanes the consumer takes them in the order it finds them: the lane it last served while that lane
 * has entries and its turn (at most {@code capacity} entries) lasts, then the next lane with entries after
 * it in lane order, cyclically. Notifications of different origins are thus ordered by when the consumer
 * saw them, not by a global clock: the guarantee MPI gives across senders (non-overtaking per pair only).
 */
public final class NotifyLanesLayout {
    /** Offset of the configuration region: lanes, lane capacity, fence mode; written once by format. */
    public static final int CONFIG_OFFSET = 0;
    /** Number of lanes (int); 0 until formatted, published last by format with a release store. */
    public static final int LANES_OFFSET = CONFIG_OFFSET;
    /** Entries per lane (int). */
    public static final int LANE_CAPACITY_OFFSET = LANES_OFFSET + Integer.BYTES;
    /** {@link #FENCE_SYMMETRIC} or {@link #FENCE_ASYMMETRIC} (int). */
    public static final int FENCE_MODE_OFFSET = LANE_CAPACITY_OFFSET + Integer.BYTES;
    /** {@link #POLL_SUMMARY} or {@link #POLL_STAMPS} (int). */
    public static final int POLL_MODE_OFFSET = FENCE_MODE_OFFSET + Integer.BYTES;
    /** The consumer's signal {@link WaitWords wait word}, in its own region. */
    public static final int SIGNAL_OFFSET = CONFIG_OFFSET + Align.PAD;
    /**
     * The consumer's sleep epoch (int), beside its signal word: the signal value its sleepers sleep on, so that
     * of many producers publishing while it is being woken only one wakes it ({@link WaitWords#signalOnce}).
     */
    public static final int SLEEP_EPOCH_OFFSET = SIGNAL_OFFSET + WaitWords.LENGTH;
    /** The summary: the 16-bit doorbell of lane {@code k} at {@code SUMMARY_OFFSET + 2k} ({@link #doorbellOffset}). */
    public static final int SUMMARY_OFFSET = SIGNAL_OFFSET + Align.PAD;

    /** Bytes of one lane's doorbell in the summary. */
    public static final int DOORBELL_BYTES = Short.BYTES;
    /** Lanes whose doorbells share one cache line of the summary. */
    public static final int LANES_PER_SUMMARY_LINE = Align.CACHE_LINE / DOORBELL_BYTES;

    /** Offset, in a lane, of the consumer's head (long): entries of the lane consumed so far. */
    public static final int HEAD_OFFSET = 0;
    /**
     * Offset, in a lane, of its producer's room-wait flag (int): 1 while the producer sleeps (or is about to) for
     * room in the full lane, so that the consumer, which frees room, tells it ({@link NotifyLanes#onRoom}).
     */
    public static final int ROOM_WAIT_OFFSET = HEAD_OFFSET + Long.BYTES;
    /** Offset, in a lane, of its first entry. */
    public static final int LANE_ENTRIES_OFFSET = HEAD_OFFSET + Align.PAD;

    /** Bytes of one entry: one cache line. */
    public static final int ENTRY_LENGTH = Align.CACHE_LINE;
    /** Offset, in an entry, of its stamp (long): {@link #stamp} of its index once published. */
    public static final int STAMP_OFFSET = 0;
    /** Offset, in an entry, of the source (int). */
    public static final int SOURCE_OFFSET = STAMP_OFFSET + Long.BYTES;
    /** Offset, in an entry, of the tag (int): beside the source, the two are one 8-byte word of the header. */
    public static final int TAG_OFFSET = SOURCE_OFFSET + Integer.BYTES;
    /** Offset, in an entry, of the displacement (long). */
    public static final int DISPLACEMENT_OFFSET = TAG_OFFSET + Integer.BYTES;
    /** Offset, in an entry, of the length of the notified access (int). */
    public static final int LENGTH_OFFSET = DISPLACEMENT_OFFSET + Long.BYTES;
    /**
     * Offset, in an entry, of the flags (int): the caller's, and the inline payload's length; beside the length, the
     * two are one 8-byte word of the header.
     */
    public static final int FLAGS_OFFSET = LENGTH_OFFSET + Integer.BYTES;
    /** Offset, in an entry, of the inline payload. */
    public static final int INLINE_OFFSET = FLAGS_OFFSET + Integer.BYTES;
    /** Bytes of payload an entry carries inline. */
    public static final int INLINE_CAPACITY = ENTRY_LENGTH - INLINE_OFFSET;
    /** Flag bits the caller may use; the rest of the flags word holds the inline payload length. */
    public static final int USER_FLAGS_MASK = 0x00FF_FFFF;
    /** Position of the inline payload length in the flags word. */
    public static final int INLINE_LENGTH_SHIFT = 24;

    /** Fence mode: producers and a sleeping consumer each put a full fence between their store and load. */
    public static final int FENCE_SYMMETRIC = 1;
    /** Fence mode: producers use no fence, a consumer going to sleep issues a global expedited membarrier. */
    public static final int FENCE_ASYMMETRIC = 2;

    /** Poll mode: producers ring their lane's doorbell in the summary, which the consumer scans. */
    public static final int POLL_SUMMARY = 1;
    /** Poll mode: producers ring no doorbell; the consumer polls the next stamp of every lane. */
    public static final int POLL_STAMPS = 2;
    /**
     * Most lanes whose consumer polls their stamps by default ({@link #pollModeFor}): up to this many, an idle
     * consumer's poll reads as many lines, each cached until a producer writes it, and a producer writes one
     * line per notification instead of two.
     */
    public static final int STAMP_POLLED_LANES_MAX = 8;

    /** Smallest lane capacity. */
    public static final int MIN_LANE_CAPACITY = 1;
    /**
     * Largest lane capacity: doorbells count modulo 65536 and may lag the head by up to a capacity, so pending
     * counts (0..capacity) and lags (65536-capacity..65535) stay apart below half the modulus (a power of two).
     */
    public static final int MAX_LANE_CAPACITY = 1 << 14;
    /** Default lane capacity: 2 KiB of entries per origin. */
    public static final int LANE_CAPACITY_DEFAULT = 32;
    /** Most lanes. */
    public static final int MAX_LANES = 1 << 16;

    private NotifyLanesLayout() {
    }

    /**
     * @return the default poll mode of {@code lanes} lanes: {@link #POLL_STAMPS} up to
     *         {@link #STAMP_POLLED_LANES_MAX}, else {@link #POLL_SUMMARY}.
     */
    public static int pollModeFor(final int lanes) {
        return lanes <= STAMP_POLLED_LANES_MAX ? POLL_STAMPS : POLL_SUMMARY;
    }

    /**
     * @return bytes of the summary for {@code lanes} lanes: one line per 32, padded to a multiple of {@link Align#PAD}.
     */
    public static int summaryLength(final int lanes) {
        checkLanes(lanes);
        return (int)Align.up(Align.up(lanes, LANES_PER_SUMMARY_LINE) * DOORBELL_BYTES, Align.PAD);
    }

    /**
     * @return offset, from the structure's start, of lane {@code lane}'s doorbell.
     */
    public static long doorbellOffset(final int lane) {
        return SUMMARY_OFFSET + (long)lane * DOORBELL_BYTES;
    }

    /**
     * @return offset, from the structure's start, of lane 0.
     */
    public static long lanesOffset(final int lanes) {
        return SUMMARY_OFFSET + summaryLength(lanes);
    }

    /**
     * @return bytes of one lane of {@code laneCapacity} entries: its head region and its entries.
     */
    public static long laneLength(final int laneCapacity) {
        checkLaneCapacity(laneCapacity);
        return LANE_ENTRIES_OFFSET + (long)laneCapacity * ENTRY_LENGTH;
    }

    /**
     * @return bytes the structure occupies: configuration, signal, summary and every lane.
     */
    public static long lengthFor(final int lanes, final int laneCapacity) {
        return lanesOffset(lanes) + lanes * laneLength(laneCapacity);
    }

    /**
     * @return offset, from the structure's start, of lane {@code lane}.
     */
    public static long laneOffset(final int lanes, final int laneCapacity, final int lane) {
        return lanesOffset(lanes) + lane * laneLength(laneCapacity);
    }

    /**
     * @return offset, from its lane's start, of the entry that holds index {@code index}.
     */
    public static long entryOffset(final long index, final int laneCapacity) {
        return LANE_ENTRIES_OFFSET + (index & (laneCapacity - 1)) * ENTRY_LENGTH;
    }

    /**
     * @return the stamp that publishes entry {@code index} of a lane.
     */
    public static long stamp(final long index) {
        return index + 1;
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

    /**
     * @return the doorbell after {@code published} entries of a lane were published.
     */
    public static short doorbell(final long published) {
        return (short)published;
    }

    /**
     * @return entries published and not consumed, given a lane's doorbell (as an unsigned 16-bit value) and its
     *         consumer head; a value above the capacity is a doorbell lagging the head.
     */
    public static int pending(final int doorbell, final long head) {
        return (doorbell - (int)head) & 0xFFFF;
    }

    /**
     * @throws IllegalArgumentException unless {@code lanes} is in 1..{@link #MAX_LANES}.
     */
    public static void checkLanes(final int lanes) {
        if (lanes < 1 || lanes > MAX_LANES) {
            throw new IllegalArgumentException("lanes " + lanes + " is not in 1.." + MAX_LANES);
        }
    }

    /**
     * @throws IllegalArgumentException unless {@code laneCapacity} is a power of two in
     *                                  {@link #MIN_LANE_CAPACITY}..{@link #MAX_LANE_CAPACITY}.
     */
    public static void checkLaneCapacity(final int laneCapacity) {
        if (laneCapacity < MIN_LANE_CAPACITY || laneCapacity > MAX_LANE_CAPACITY
            || Integer.bitCount(laneCapacity) != 1) {
            throw new IllegalArgumentException("lane capacity " + laneCapacity + " is not a power of two in "
                + MIN_LANE_CAPACITY + ".." + MAX_LANE_CAPACITY);
        }
    }

    /**
     * @throws IllegalArgumentException unless {@code lane} is in 0..lanes-1.
     */
    public static void checkLane(final int lanes, final int lane) {
        if (lane < 0 || lane >= lanes) {
            throw new IllegalArgumentException("lane " + lane + " is not in 0.." + (lanes - 1));
        }
    }

    /**
     * Checks that the lanes fit at {@code offset} of {@code segment} and start {@link Align#PAD}-aligned in memory.
     *
     * @throws IllegalArgumentException naming the offending values.
     */
    public static void checkPlacement(final MemorySegment segment, final long offset, final int lanes,
        final int laneCapacity) {
        checkLanes(lanes);
        checkLaneCapacity(laneCapacity);
        if (offset < 0 || offset % Align.PAD != 0) {
            throw new IllegalArgumentException(
                "lanes offset " + offset + " is not a non-negative multiple of " + Align.PAD);
        }
        if ((segment.address() + offset) % Align.PAD != 0) {
            throw new IllegalArgumentException("lanes at offset " + offset + " start at address 0x"
                + Long.toHexString(segment.address() + offset) + ", which is not " + Align.PAD + "-byte aligned");
        }
        final long length = lengthFor(lanes, laneCapacity);
        if (offset > segment.byteSize() - length) {
            throw new IllegalArgumentException("lanes at offset " + offset + " of " + length + " bytes (" + lanes
                + " lanes of " + laneCapacity + ") exceed the segment size " + segment.byteSize());
        }
    }
}
