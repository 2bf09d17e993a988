package org.rma4j.notify;

import static org.rma4j.notify.NotifyLanesLayout.FENCE_MODE_OFFSET;
import static org.rma4j.notify.NotifyLanesLayout.HEAD_OFFSET;
import static org.rma4j.notify.NotifyLanesLayout.LANES_OFFSET;
import static org.rma4j.notify.NotifyLanesLayout.LANE_CAPACITY_OFFSET;
import static org.rma4j.notify.NotifyLanesLayout.POLL_MODE_OFFSET;
import static org.rma4j.notify.NotifyLanesLayout.SIGNAL_OFFSET;
import static org.rma4j.notify.NotifyLanesLayout.SUMMARY_OFFSET;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.function.BooleanSupplier;

import org.rma4j.shm.Liveness;
import org.rma4j.shm.Membarrier;
import org.rma4j.shm.PeerFailedException;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.WaitWords;

/**
 * The consumer side of one party's notification lanes ({@link NotifyLanesLayout}): one single-producer lane per
 * origin ({@link LaneProducer}), a summary line of doorbells (or, for few lanes, the lanes' stamps polled
 * directly: {@link NotifyLanesLayout#POLL_STAMPS}), a signal word to sleep on. Consumer methods:
 * {@link #poll}, {@link #drain}, {@link #awaitNotEmpty}, {@link #await}, {@link #isHeadReady},
 * {@link #wakeWaiters}, {@link #size}, {@link #isEmpty}.
 *
 * <p>Consumer side, one thread at a time (the caller's lock), not from a handler. A poll reads the next entry of
 * the lane it served last (in a two-party exchange the only line it touches) and the summary words (one line
 * per 32 lanes) or, in stamp mode, the next stamp of each other lane; an entry is read only after an acquire
 * load saw it published. Happens-before: everything a producer stored before its {@code offer} returned true is
 * visible to the handler that receives the entry; the handler's reads of an entry happen before its producer
 * reuses the slot.
 *
 * <p>Order: per lane FIFO (each origin's notifications in its offer order); across lanes, the order in which
 * the consumer finds them (see {@link NotifyLanesLayout}, "Order"): a lane keeps its turn for at most its
 * capacity of entries while others have entries, so no origin starves.
 *
 * <p>Dead producers need no handling: a producer that dies before its publishing store leaves nothing
 * visible, and no other lane waits for it.
 */
public final class NotifyLanes {
    // NOTE: var handles of this class, not the shared Words accessors: each call site here keeps its own
    // profile of the segment type, so the JIT inlines the accesses (a shared accessor sees every segment type).
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    /** Summary words read little-endian, so that doorbell {@code j} of word {@code w} is lane {@code 4w + j}'s. */
    private static final VarHandle SUMMARY_WORD = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle();
    private static final VarHandle DOORBELL = ValueLayout.JAVA_SHORT.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle();
    /** Doorbells per summary word. */
    private static final int PER_WORD = Long.BYTES / NotifyLanesLayout.DOORBELL_BYTES;
    private static final long DOORBELL_MASK = 0xFFFFL;
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    /*
     * Invariants (consumer thread):
     * - heads[k] is lane k's next entry to consume; lane k's shared head, which only this consumer writes, equals
     *   it outside a drain (release store after the last entry a drain takes from the lane), and lags it inside.
     * - summary mode: expected[w] doorbell j == heads[4w + j] & 0xFFFF: a summary word equal to it has no pending
     *   lane (stamp mode keeps no expected words: nothing rings).
     * - cursorKnown <= entries published and unconsumed in lane cursor.
     * - (doorbell(k) - heads[k]) & 0xFFFF is the pending count if <= capacity, else the doorbell's lag behind
     *   entries taken through their stamps (capacity <= 16384, so the two ranges never meet).
     * Non-invariants: cursorKnown may be 0 while the cursor lane has entries (found at the next poll).
     */
    private final MemorySegment segment;
    private final int lanes;
    private final int capacity;
    private final boolean asymmetric;
    /** Whether the consumer polls every lane's next stamp (no doorbells, {@link NotifyLanesLayout#POLL_STAMPS}). */
    private final boolean stampPolled;
    private final long signalOffset;
    private final long epochOffset;
    private final long summaryOffset;
    private final long firstLaneOffset;
    private final long laneLength;
    private final int summaryWords;
    private final long[] heads;
    private final long[] expected;
    private final Notification view = Notification.view();
    /** Whether a release needs a full fence before it reads the room-wait flag (no membarrier registration). */
    private final boolean roomFence;
    private RoomListener roomListener;
    private final BooleanSupplier headReady = this::headReady;
    private static final BooleanSupplier ALWAYS = () -> true;
    private int cursor;
    private int cursorKnown;
    private int turn;
    private boolean consuming;

    /**
     * Opens the consumer side of the lanes {@link #format formatted} at {@code offset}. One instance consumes.
     *
     * @throws IllegalArgumentException if the placement is invalid or the lanes were formatted with other
     *                                  dimensions.
     * @throws IllegalStateException    if no lanes were formatted at {@code offset}.
     */
    public NotifyLanes(final MemorySegment segment, final long offset, final int lanes, final int laneCapacity) {
        final int mode = checkFormatted(segment, offset, lanes, laneCapacity);
        this.segment = segment;
        this.lanes = lanes;
        this.capacity = laneCapacity;
        this.asymmetric = mode == NotifyLanesLayout.FENCE_ASYMMETRIC;
        this.stampPolled = pollMode(segment, offset) == NotifyLanesLayout.POLL_STAMPS;
        // NOTE: a producer waiting for room issues the membarrier; this process's release stores are the fast side.
        this.roomFence = !asymmetric || !Membarrier.registerGlobalExpedited();
        this.signalOffset = offset + SIGNAL_OFFSET;
        this.epochOffset = offset + NotifyLanesLayout.SLEEP_EPOCH_OFFSET;
        this.summaryOffset = offset + SUMMARY_OFFSET;
        this.firstLaneOffset = offset + NotifyLanesLayout.lanesOffset(lanes);
        this.laneLength = NotifyLanesLayout.laneLength(laneCapacity);
        this.summaryWords = (lanes + PER_WORD - 1) / PER_WORD;
        this.heads = new long[lanes];
        this.expected = new long[summaryWords];
        for (int lane = 0; lane < lanes; lane++) {
            heads[lane] = (long)LONG.getAcquire(segment, laneOffset(lane) + HEAD_OFFSET);
            setExpected(lane, heads[lane]);
        }
    }

    /**
     * Lays out empty lanes at {@code offset}: zeroes everything, then publishes the configuration (the lane
     * count last, with a release store). Call once, before any other party opens them. The fence mode is
     * {@link NotifyLanesLayout#FENCE_ASYMMETRIC} where {@link Membarrier#isGlobalExpeditedSupported()}, else
     * {@link NotifyLanesLayout#FENCE_SYMMETRIC}; the poll mode {@link NotifyLanesLayout#pollModeFor}.
     *
     * @throws IllegalArgumentException if the placement is invalid.
     */
    public static void format(final MemorySegment segment, final long offset, final int lanes, final int laneCapacity) {
        format(segment, offset, lanes, laneCapacity,
            Membarrier.isGlobalExpeditedSupported()
                ? NotifyLanesLayout.FENCE_ASYMMETRIC
                : NotifyLanesLayout.FENCE_SYMMETRIC);
    }

    /**
     * {@link #format(MemorySegment, long, int, int)} with a given fence mode.
     *
     * @throws IllegalArgumentException if the placement is invalid, or the mode is unknown or asymmetric where
     *                                  membarrier is not supported.
     */
    public static void format(final MemorySegment segment, final long offset, final int lanes, final int laneCapacity,
        final int fenceMode) {
        format(segment, offset, lanes, laneCapacity, fenceMode, NotifyLanesLayout.pollModeFor(lanes));
    }

    /**
     * {@link #format(MemorySegment, long, int, int)} with a given fence mode and poll mode.
     *
     * @throws IllegalArgumentException if the placement is invalid, or a mode is unknown, or the fence mode is
     *                                  asymmetric where membarrier is not supported.
     */
    public static void format(final MemorySegment segment, final long offset, final int lanes, final int laneCapacity,
        final int fenceMode, final int pollMode) {
        NotifyLanesLayout.checkPlacement(segment, offset, lanes, laneCapacity);
        if (pollMode != NotifyLanesLayout.POLL_SUMMARY && pollMode != NotifyLanesLayout.POLL_STAMPS) {
            throw new IllegalArgumentException("poll mode " + pollMode + " is not " + NotifyLanesLayout.POLL_SUMMARY
                + " or " + NotifyLanesLayout.POLL_STAMPS);
        }
        if (fenceMode != NotifyLanesLayout.FENCE_SYMMETRIC && fenceMode != NotifyLanesLayout.FENCE_ASYMMETRIC) {
            throw new IllegalArgumentException("fence mode " + fenceMode + " is not "
                + NotifyLanesLayout.FENCE_SYMMETRIC + " or " + NotifyLanesLayout.FENCE_ASYMMETRIC);
        }
        if (fenceMode == NotifyLanesLayout.FENCE_ASYMMETRIC && !Membarrier.isGlobalExpeditedSupported()) {
            throw new IllegalArgumentException("fence mode " + fenceMode + " needs membarrier, which is not supported");
        }
        segment.asSlice(offset, NotifyLanesLayout.lengthFor(lanes, laneCapacity)).fill((byte)0);
        INT.set(segment, offset + LANE_CAPACITY_OFFSET, laneCapacity);
        INT.set(segment, offset + FENCE_MODE_OFFSET, fenceMode);
        INT.set(segment, offset + POLL_MODE_OFFSET, pollMode);
        INT.setRelease(segment, offset + LANES_OFFSET, lanes);
    }

    /**
     * Checks the placement and that lanes of these dimensions were formatted at {@code offset}.
     *
     * @return the fence mode.
     */
    static int checkFormatted(final MemorySegment segment, final long offset, final int lanes, final int laneCapacity) {
        NotifyLanesLayout.checkPlacement(segment, offset, lanes, laneCapacity);
        final int formatted = (int)INT.getAcquire(segment, offset + LANES_OFFSET);
        if (formatted == 0) {
            throw new IllegalStateException("no notification lanes were formatted at offset " + offset);
        }
        final int formattedCapacity = (int)INT.get(segment, offset + LANE_CAPACITY_OFFSET);
        if (formatted != lanes || formattedCapacity != laneCapacity) {
            throw new IllegalArgumentException("lanes at offset " + offset + " are " + formatted + " of "
                + formattedCapacity + " entries, not " + lanes + " of " + laneCapacity);
        }
        return (int)INT.get(segment, offset + FENCE_MODE_OFFSET);
    }

    /**
     * @return the poll mode of lanes that {@link #checkFormatted} found formatted at {@code offset}.
     */
    static int pollMode(final MemorySegment segment, final long offset) {
        return (int)INT.get(segment, offset + POLL_MODE_OFFSET);
    }

    public int lanes() {
        return lanes;
    }

    /**
     * Tells the consumer who to call when it frees room in a lane whose producer waits for room (the producer
     * set the lane's room-wait flag, {@link LaneProducer#waitForRoom}). The listener runs on the consumer's
     * thread, inside {@link #drain}; it should only signal (a wait word the producer sleeps on).
     */
    public void onRoom(final RoomListener listener) {
        this.roomListener = listener;
    }

    /** Told that a waiting producer's lane has room now. */
    @FunctionalInterface
    public interface RoomListener {
        /**
         * @param lane the lane whose head just moved.
         */
        void room(int lane);
    }

    public int laneCapacity() {
        return capacity;
    }

    /**
     * @return whether producers skip their fence and a sleeping consumer issues membarrier.
     */
    public boolean isAsymmetric() {
        return asymmetric;
    }

    /**
     * @return whether the consumer polls every lane's next stamp ({@link NotifyLanesLayout#POLL_STAMPS}) rather
     *         than the summary's doorbells.
     */
    public boolean isStampPolled() {
        return stampPolled;
    }

    /**
     * Delivers the next notification, if one is published. Consumer thread only.
     *
     * @return 1 if a notification was delivered, else 0.
     */
    public int poll(final NotificationHandler handler) {
        return drain(handler, 1);
    }

    /**
     * Delivers up to {@code limit} published notifications, per lane in offer order, across lanes in the order
     * the consumer finds them. Consumer thread only; not from a handler. Each entry is consumed when its handler
     * call returns or throws; its slot is freed before this call returns (see {@link #drainWhile}).
     *
     * @return notifications delivered.
     * @throws IllegalStateException if called from a handler of these lanes.
     */
    public int drain(final NotificationHandler handler, final int limit) {
        return drainWhile(handler, limit, ALWAYS);
    }

    /**
     * {@link #drain(NotificationHandler, int)} that stops as soon as {@code more} returns false, checked before
     * each notification (a consumer that drains until a request completes leaves later entries in the lanes).
     * The slots of the entries delivered are given back to their producers once per lane and call (one
     * release store of the lane's head, after the last handler call of the lane), not once per entry: a
     * producer that fills its lane faster than the consumer drains then reads the head line once per batch.
     *
     * @return notifications delivered.
     * @throws IllegalStateException if called from a handler of these lanes.
     */
    public int drainWhile(final NotificationHandler handler, final int limit, final BooleanSupplier more) {
        Objects.requireNonNull(handler, "handler");
        enterConsumer();
        int delivered = 0;
        int taken = -1; // the lane whose entries were consumed and not yet given back
        try {
            while (delivered < limit && more.getAsBoolean() && (cursorKnown > 0 || findEntries())) {
                final int lane = cursor;
                if (taken != lane && taken >= 0) {
                    release(taken);
                }
                taken = lane;
                final long index = heads[lane];
                view.wrap(segment, laneOffset(lane) + NotifyLanesLayout.entryOffset(index, capacity));
                cursorKnown--;
                turn++;
                delivered++;
                try {
                    handler.onNotification(view);
                } finally {
                    // NOTE: consumed even if the handler throws; the shared head follows at the release.
                    heads[lane] = index + 1;
                    if (!stampPolled) {
                        setExpected(lane, index + 1);
                    }
                }
            }
        } finally {
            if (taken >= 0) {
                release(taken);
            }
            consuming = false;
        }
        return delivered;
    }

    /**
     * Waits until {@link #poll} would deliver a notification, sleeping on the signal word when idle. Consumer
     * thread only.
     *
     * @param strategy how to wait (spin, yield, futex sleep).
     * @param peers    run at least every {@link WaitStrategy#LIVENESS_PERIOD_NS} while waiting.
     * @throws PeerFailedException from {@code peers}.
     */
    public void awaitNotEmpty(final WaitStrategy strategy, final Liveness peers) {
        enterConsumer();
        try {
            strategy.awaitCondition(segment, signalOffset, headReady, peers, asymmetric, epochOffset);
        } finally {
            consuming = false;
        }
    }

    /**
     * Waits on the signal word until {@code ready} holds, for consumers shared by several threads under the
     * caller's lock: the waiting thread holds no lock while it sleeps, and {@code ready} takes the lock to ask
     * {@link #isHeadReady()} (or sees a completion another thread made and {@link #wakeWaiters() signalled}).
     *
     * @param strategy how to wait (spin, yield, futex sleep).
     * @param ready    the wake-up condition.
     * @param peers    run at least every {@link WaitStrategy#LIVENESS_PERIOD_NS} while waiting.
     * @throws PeerFailedException from {@code peers}.
     */
    public void await(final WaitStrategy strategy, final BooleanSupplier ready, final Liveness peers) {
        strategy.awaitCondition(segment, signalOffset, ready, peers, asymmetric, epochOffset);
    }

    /**
     * {@link #await(WaitStrategy, BooleanSupplier, Liveness)} that runs {@code beforeSleep} before each sleep
     * (a producer waiting for room sets its room-wait flag there: {@link NotifyLanesLayout}, "Room").
     */
    public void await(final WaitStrategy strategy, final BooleanSupplier ready, final Liveness peers,
        final Runnable beforeSleep) {
        strategy.awaitCondition(segment, signalOffset, ready, peers, asymmetric, epochOffset, beforeSleep);
    }

    /**
     * Whether {@link #poll} would deliver a notification now. Consumer side: one thread at a time (the caller's
     * lock), not from a handler.
     */
    public boolean isHeadReady() {
        enterConsumer();
        try {
            return headReady();
        } finally {
            consuming = false;
        }
    }

    /**
     * Wakes every thread {@link #await waiting} on these lanes: a consumer thread that completed what another
     * waits for calls it after making that visible (a volatile store). Costs a full fence and one load when
     * nobody sleeps.
     */
    public void wakeWaiters() {
        WaitWords.signal(segment, signalOffset);
    }

    /**
     * @return an estimate of the entries published and not consumed, over all lanes.
     */
    public int size() {
        int size = 0;
        for (int lane = 0; lane < lanes; lane++) {
            if (stampPolled) {
                size += publishedFrom(lane, (long)LONG.getAcquire(segment, laneOffset(lane) + HEAD_OFFSET));
                continue;
            }
            final int doorbell = Short.toUnsignedInt(
                (short)DOORBELL.getAcquire(segment, summaryOffset + (long)lane * NotifyLanesLayout.DOORBELL_BYTES));
            size += NotifyLanesLayout.pending(doorbell, (long)LONG.getAcquire(segment, laneOffset(lane) + HEAD_OFFSET));
        }
        return size;
    }

    /** Entries of {@code lane} published from index {@code head} on, by their stamps. */
    private int publishedFrom(final int lane, final long head) {
        int published = 0;
        while (published < capacity && stampPublished(lane, head + published)) {
            published++;
        }
        return published;
    }

    private boolean stampPublished(final int lane, final long index) {
        return (long)LONG.getAcquire(segment, laneOffset(lane) + NotifyLanesLayout.entryOffset(index, capacity)
            + NotifyLanesLayout.STAMP_OFFSET) == NotifyLanesLayout.stamp(index);
    }

    /**
     * @return whether no lane holds a published, unconsumed entry (an estimate, as {@link #size()}).
     */
    public boolean isEmpty() {
        return size() == 0;
    }

    /**
     * @return entries of {@code lane} consumed so far.
     */
    long head(final int lane) {
        return heads[lane];
    }

    /** Offset in the segment of the consumer's signal wait word. */
    long signalOffset() {
        return signalOffset;
    }

    private boolean headReady() {
        return cursorKnown > 0 || findEntries();
    }

    /**
     * Points the cursor at a lane with published entries and sets {@link #cursorKnown}. First the cursor lane's
     * next stamp, while its turn lasts (one line: the common case of one busy origin); then the summary (or the
     * lanes' next stamps), from the lane after the cursor, cyclically, the cursor lane last.
     *
     * @return false if no lane has a published entry.
     */
    private boolean findEntries() {
        if (turn < capacity && stampPublished(cursor, heads[cursor])) {
            cursorKnown = 1;
            return true;
        }
        final int start = cursor + 1 == lanes ? 0 : cursor + 1;
        if (stampPolled) {
            return findByStamps(start);
        }
        final int startWord = start / PER_WORD;
        // The start word's lanes from start on, the other words in order, then the start word's lanes below start.
        final long startMask = -1L << ((start % PER_WORD) << 4);
        if (summaryWords == 1) {
            return findInOneWord(startMask);
        }
        int word = startWord;
        for (int step = 0; step <= summaryWords; step++) {
            final long value = summaryWord(word);
            long diff = value ^ expected[word];
            if (step == 0) {
                diff &= startMask;
            } else if (step == summaryWords) {
                diff &= ~startMask;
            }
            while (diff != 0) {
                final int shift = Long.numberOfTrailingZeros(diff) & ~15;
                final int lane = word * PER_WORD + (shift >>> 4);
                final int pending = NotifyLanesLayout.pending((int)((value >>> shift) & DOORBELL_MASK), heads[lane]);
                if (pending <= capacity) {
                    cursor = lane;
                    cursorKnown = pending;
                    turn = 0;
                    return true;
                }
                // The doorbell lags entries taken by their stamps (NotifyLanesLayout, "Doorbell lag").
                diff &= ~(DOORBELL_MASK << shift);
            }
            word = word + 1 == summaryWords ? 0 : word + 1;
        }
        return false;
    }

    /**
     * {@link #findEntries()} without doorbells ({@link NotifyLanesLayout#POLL_STAMPS}): the next stamp of each
     * lane from {@code start} on, cyclically, the cursor lane last.
     */
    private boolean findByStamps(final int start) {
        int lane = start;
        for (int step = 0; step < lanes; step++) {
            if (stampPublished(lane, heads[lane])) {
                cursor = lane;
                cursorKnown = 1;
                turn = 0;
                return true;
            }
            lane = lane + 1 == lanes ? 0 : lane + 1;
        }
        return false;
    }

    /**
     * {@link #findEntries()}'s summary scan for up to 4 lanes: one load, lanes from the start mask's on first.
     */
    private boolean findInOneWord(final long startMask) {
        final long value = summaryWord(0);
        long diff = value ^ expected[0];
        while (diff != 0) {
            final long fromStart = diff & startMask;
            final int shift = Long.numberOfTrailingZeros(fromStart != 0 ? fromStart : diff) & ~15;
            final int lane = shift >>> 4;
            final int pending = NotifyLanesLayout.pending((int)((value >>> shift) & DOORBELL_MASK), heads[lane]);
            if (pending <= capacity) {
                cursor = lane;
                cursorKnown = pending;
                turn = 0;
                return true;
            }
            diff &= ~(DOORBELL_MASK << shift);
        }
        return false;
    }

    private long summaryWord(final int word) {
        final long offset = summaryOffset + (long)word * Long.BYTES;
        return LITTLE_ENDIAN ? (long)LONG.getAcquire(segment, offset) : (long)SUMMARY_WORD.getAcquire(segment, offset);
    }

    /** Gives the slots consumed in {@code lane} (up to {@code heads[lane]}) back to its producer. */
    private void release(final int lane) {
        final long head = heads[lane];
        // NOTE: release: the handler's reads of the entries precede the producer's reuse of their slots.
        final long laneOffset = laneOffset(lane);
        LONG.setRelease(segment, laneOffset + HEAD_OFFSET, head);
        if (roomListener != null) {
            if (roomFence) {
                VarHandle.fullFence();
            }
            // NOTE: after the head store, no fence in the asymmetric mode: a waiting producer's membarrier
            // orders the two (NotifyLanesLayout, "Room").
            if ((int)INT.getVolatile(segment, laneOffset + NotifyLanesLayout.ROOM_WAIT_OFFSET) != 0) {
                roomListener.room(lane);
            }
        }
    }

    private void setExpected(final int lane, final long head) {
        final int shift = (lane % PER_WORD) << 4;
        final int word = lane / PER_WORD;
        expected[word] = (expected[word] & ~(DOORBELL_MASK << shift)) | ((head & DOORBELL_MASK) << shift);
    }

    private long laneOffset(final int lane) {
        return firstLaneOffset + lane * laneLength;
    }

    private void enterConsumer() {
        if (consuming) {
            throw new IllegalStateException("the lanes' consumer methods are not reentrant (called from a handler?)");
        }
        consuming = true;
    }

    @Override
    public String toString() {
        return "NotifyLanes{lanes=" + lanes + ", laneCapacity=" + capacity + ", asymmetric=" + asymmetric + ", size="
            + size() + '}';
    }
}
