package org.rma4j.notify;

import static org.rma4j.notify.NotifyLanesLayout.HEAD_OFFSET;
import static org.rma4j.notify.NotifyLanesLayout.SIGNAL_OFFSET;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

import org.rma4j.shm.Membarrier;
import org.rma4j.shm.WaitWords;

/**
 * The producer of one lane of a consumer's {@link NotifyLanes}: the origin that owns the lane offers with
 * plain stores and one release store, no read-modify-write and no fence ({@link NotifyLanesLayout},
 * publication rule).
 *
 * <p>One thread at a time per lane: a process whose threads notify one consumer from several threads
 * serializes them (a lock of its own, which no other process touches). A full lane makes {@link #offer}
 * return false; it never blocks. Happens-before: everything the producer stored before {@code offer}
 * returned true is visible to the handler that receives the entry.
 *
 * <p>The producer's count of published entries lives in this instance; a new instance for the same lane
 * resumes from the entries' stamps (the largest stamp in the lane), so a lane may be reopened once the
 * previous instance's offers have returned.
 */
public final class LaneProducer {
    // NOTE: var handles of this class, not the shared Words accessors: each call site here keeps its own
    // profile of the segment type, so the JIT inlines the accesses (a shared accessor sees every segment type).
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    /** Doorbells are stored little-endian (NotifyLanesLayout, "Mixed sizes"). */
    private static final VarHandle DOORBELL = ValueLayout.JAVA_SHORT.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle();

    /*
     * Invariants: head <= tail <= head + capacity; entry i's fields are written only while i == tail and
     * i < head + capacity; doorbell == tail & 0xFFFF once offer returned.
     * Non-invariant: limit may lag head + capacity (an underestimate of the room).
     */
    private final MemorySegment segment;
    private final int lane;
    private final int capacity;
    private final long headOffset;
    private final long doorbellOffset;
    private final long signalOffset;
    private final long epochOffset;
    private final long laneOffset;
    private final boolean fence;
    /** Whether offers ring the lane's doorbell ({@link NotifyLanesLayout#POLL_SUMMARY}). */
    private final boolean ring;
    private long tail;
    private long limit;

    /**
     * Opens the producer side of lane {@code lane} of the lanes {@link NotifyLanes#format formatted} at
     * {@code offset}. In {@link NotifyLanesLayout#FENCE_ASYMMETRIC} mode registers this process for
     * membarrier (once per process); a process that cannot register keeps the full fence.
     *
     * @throws IllegalArgumentException if the placement or lane is invalid or the lanes were formatted with
     *                                  other dimensions.
     * @throws IllegalStateException    if no lanes were formatted at {@code offset}.
     */
    public LaneProducer(final MemorySegment segment, final long offset, final int lanes, final int laneCapacity,
        final int lane) {
        final int mode = NotifyLanes.checkFormatted(segment, offset, lanes, laneCapacity);
        NotifyLanesLayout.checkLane(lanes, lane);
        this.segment = segment;
        this.lane = lane;
        this.capacity = laneCapacity;
        this.laneOffset = offset + NotifyLanesLayout.laneOffset(lanes, laneCapacity, lane);
        this.headOffset = laneOffset + HEAD_OFFSET;
        this.doorbellOffset = offset + NotifyLanesLayout.doorbellOffset(lane);
        this.signalOffset = offset + SIGNAL_OFFSET;
        this.epochOffset = offset + NotifyLanesLayout.SLEEP_EPOCH_OFFSET;
        this.fence = mode != NotifyLanesLayout.FENCE_ASYMMETRIC || !Membarrier.registerGlobalExpedited();
        this.ring = NotifyLanes.pollMode(segment, offset) == NotifyLanesLayout.POLL_SUMMARY;
        this.tail = resumeIndex();
        this.limit = (long)LONG.getAcquire(segment, headOffset) + capacity;
    }

    public int lane() {
        return lane;
    }

    public int laneCapacity() {
        return capacity;
    }

    /**
     * @return whether this producer puts a full fence before its sleeper check (symmetric mode, or a
     *         process that could not register for membarrier).
     */
    public boolean usesFullFence() {
        return fence;
    }

    /**
     * Offers one notification into this lane. One thread at a time.
     *
     * @param source        who sends it (>= 0).
     * @param tag           the sender's tag (>= 0).
     * @param displacement  where the notified access went in the target's memory.
     * @param length        bytes of the notified access (>= 0).
     * @param flags         the caller's flags, bits of {@link NotifyLanesLayout#USER_FLAGS_MASK}.
     * @param inlinePayload up to {@link NotifyLanesLayout#INLINE_CAPACITY} bytes carried in the entry, or null.
     * @return true if the notification was published; false if the lane was full (nothing was written).
     * @throws IllegalArgumentException naming an invalid argument.
     */
    public boolean offer(final int source, final int tag, final long displacement, final int length, final int flags,
        final MemorySegment inlinePayload) {
        NotifyLanesLayout.checkEntry(source, tag, length, flags, inlinePayload == null ? 0 : inlinePayload.byteSize());
        final long index = tail;
        if (index >= limit) {
            limit = (long)LONG.getAcquire(segment, headOffset) + capacity;
            if (index >= limit) {
                return false;
            }
        }
        final long entry = laneOffset + NotifyLanesLayout.entryOffset(index, capacity);
        Notification.writeFields(segment, entry, source, tag, displacement, length, flags, inlinePayload);
        // NOTE: release: the fields must be visible before the stamp, on their own line: a consumer polling this
        // lane sees the entry after one line transfer, not after the summary line's as well.
        LONG.setRelease(segment, entry + NotifyLanesLayout.STAMP_OFFSET, NotifyLanesLayout.stamp(index));
        if (ring) {
            // NOTE: release, and before the sleeper check: the doorbell is what a sleeping consumer re-checks.
            DOORBELL.setRelease(segment, doorbellOffset, NotifyLanesLayout.doorbell(index + 1));
        }
        tail = index + 1;
        WaitWords.signalOnce(segment, signalOffset, epochOffset, fence);
        return true;
    }

    /**
     * Sets or clears the lane's room-wait flag: set it before each sleep for room in a full lane (then announce
     * yourself on the word the consumer's room listener signals, issue the membarrier, re-check with
     * {@link #offer} and only then sleep; {@link NotifyLanesLayout}, "Room"), clear it once done. A producer that
     * only spins need not set it.
     */
    public void waitForRoom(final boolean waiting) {
        INT.setVolatile(segment, laneOffset + NotifyLanesLayout.ROOM_WAIT_OFFSET, waiting ? 1 : 0);
    }

    /**
     * Test hook: writes the fields of the next entry as {@link #offer} does and stops before publishing it, as
     * a producer killed between writing and publishing would (the reliability suite's fault (d)).
     *
     * @return the index written, or -1 if the lane was full.
     */
    long writeWithoutPublishing(final int source, final int tag, final long displacement, final int length,
        final int flags) {
        final long index = tail;
        if (index >= (long)LONG.getAcquire(segment, headOffset) + capacity) {
            return -1;
        }
        Notification.writeFields(segment, laneOffset + NotifyLanesLayout.entryOffset(index, capacity), source, tag,
            displacement, length, flags, null);
        return index;
    }

    /**
     * @return entries this producer's lane has published so far (its next index).
     */
    public long published() {
        return tail;
    }

    private long resumeIndex() {
        long stamp = 0;
        for (int slot = 0; slot < capacity; slot++) {
            stamp = Math.max(stamp, (long)LONG.getAcquire(segment,
                laneOffset + NotifyLanesLayout.entryOffset(slot, capacity) + NotifyLanesLayout.STAMP_OFFSET));
        }
        return stamp;
    }

    @Override
    public String toString() {
        return "LaneProducer{lane=" + lane + ", capacity=" + capacity + ", published=" + tail + ", fullFence=" + fence
            + '}';
    }
}
