package org.rma4j;

import java.lang.foreign.MemorySegment;
import org.rma4j.internal.InlineWords;
import org.rma4j.internal.WindowLayout;
import org.rma4j.notify.LaneProducer;
import org.rma4j.notify.NotifyLanes;
import org.rma4j.notify.NotifyLanesLayout;
import org.rma4j.shm.BiasedLock;
import org.rma4j.shm.ControlFile;
import org.rma4j.shm.WaitStrategy;

/**
 * The sending side of one rank's notification endpoint of one window (Notified Access, Belli and Hoefler,
 * section IV): this rank's single-producer lane at every target ({@link LaneProducer}), each with the
 * process-local lock that lets threads of the rank share it, and the wait for room in a full lane.
 *
 * <p>A full lane is back-pressure, never deadlock: while it waits for room the sender keeps draining its own
 * lanes ({@code drainOwn}, the endpoint's {@link Notifications#progress()}) into its unexpected queue, so two
 * ranks filling each other's lanes both progress. No other process takes a lane's lock; a rank that dies
 * holding it leaves nothing published.
 */
final class NotifySends {
    /**
     * The longest a producer waiting for room in a full lane goes without polling the lane's head, while it spins.
     * Each poll takes the head's line from the consumer, whose next store of the head must take it back: polled at
     * the spin's rate, a stream that keeps the lane full moved that line twice per entry and the consumer took an
     * entry in about 80 ns instead of 45 (the harness's fan-in with a request per message, 2 ranks). The default
     * lanes hold at least 64 entries, which their consumer needs longer than this to take (at least about 16 ns
     * each): it never runs dry, and the entries it takes between two polls free a batch of slots.
     */
    static final long ROOM_POLL_MAX_NS = 1_000;
    /** The shortest time a consumer takes an entry in, which scales {@link #ROOM_POLL_MAX_NS} for shallow lanes. */
    static final long ENTRY_NS = 16;

    private final WindowState window;
    private final int rank;
    private final ControlFile control;
    private final WaitStrategy waitStrategy;
    /** This rank's own lanes, on whose signal word a sender waiting for room sleeps. */
    private final NotifyLanes own;
    private final Runnable drainOwn;
    private final Lane[] outgoing;
    /** Test hook: runs when a send first finds its target's lane full, before it waits for room. */
    private volatile Runnable onFullLane = () -> {
    };

    /**
     * This rank's lane at one target, with the process-local lock that lets threads of the rank share it
     * ({@link LaneProducer} has one producer thread at a time). The lock is biased to the first thread that
     * sends ({@link BiasedLock}): a rank that sends from one thread takes it with a plain store and releases it
     * with a release store, no atomic instruction behind its earlier notifications' stores.
     */
    static final class Lane {
        final LaneProducer producer;
        final int target;
        private final BiasedLock lock = new BiasedLock();
        /** How the holder took the lock (written and read by the holder only). */
        private int taken;
        /**
         * Views of 0, 8, 16, 24 and 32 bytes of the lane's staging words, where the holder puts a short put's data
         * from an array for its notification's inline copy ({@link #staged}).
         */
        private final MemorySegment[] staging = new MemorySegment[NotifyLanesLayout.INLINE_CAPACITY / Long.BYTES + 1];
        /** The words {@link #staging} views. */
        private final long[] stagingWords = new long[staging.length - 1];
        /** Whether the holder set the lane's room-wait flag in its current wait for room (holder only). */
        private boolean roomWaitSet;
        /** Sets the room-wait flag before a sleep for room: made once, a wait allocates nothing for it. */
        private final Runnable beforeRoomSleep = this::beforeRoomSleep;

        /** At most {@link #ROOM_POLL_MAX_NS}, less for a lane too shallow to keep its consumer busy that long. */
        private final long roomPollNs;
        /** When the holder's current wait for room last polled the head (System.nanoTime). */
        private long headPolledNs;

        Lane(final LaneProducer producer, final int target) {
            this.producer = producer;
            this.target = target;
            this.roomPollNs = Math.min(ROOM_POLL_MAX_NS, producer.laneCapacity() * ENTRY_NS);
            final MemorySegment words = MemorySegment.ofArray(stagingWords);
            for (int i = 0; i < staging.length; i++) {
                staging[i] = words.asSlice(0, (long)i * Long.BYTES);
            }
        }

        private void beforeRoomSleep() {
            if (!roomWaitSet) {
                producer.waitForRoom(true);
                roomWaitSet = true;
            }
        }

        /** The holder begins a wait for room, having just found the lane full. */
        private void beginRoomWait() {
            headPolledNs = System.nanoTime();
        }

        /**
         * @return whether the holder's wait for room should poll the head now: once {@link #roomPollNs} passed since
         *         it last did, and always once it set the room-wait flag (the re-check before a sleep must see room
         *         the consumer freed before it could see the flag: NotifyLanesLayout, "Room").
         */
        private boolean pollsHead() {
            if (roomWaitSet) {
                return true;
            }
            final long now = System.nanoTime();
            if (now - headPolledNs < roomPollNs) {
                return false;
            }
            headPolledNs = now;
            return true;
        }

        /** Clears the room-wait flag if the holder's wait set it. */
        private void endRoomWait() {
            if (roomWaitSet) {
                roomWaitSet = false;
                producer.waitForRoom(false);
            }
        }

        /**
         * Copies {@code length} elements (at most {@link NotifyLanesLayout#INLINE_CAPACITY} bytes) of {@code array}, a
         * {@code long[]} or a {@code double[]}, from {@code offset} into the lane's staging words (the caller holds
         * the lane).
         *
         * @return a view of exactly those bytes: a notification's inline payload.
         */
        MemorySegment staged(final Object array, final int offset, final int length) {
            // NOTE: word stores, not MemorySegment.copy, whose checks of the array's class and the layout cost more
            // than the copy of a few words.
            if (array instanceof long[] longs) {
                System.arraycopy(longs, offset, stagingWords, 0, length);
            } else {
                final double[] doubles = (double[])array;
                for (int i = 0; i < length; i++) {
                    stagingWords[i] = Double.doubleToRawLongBits(doubles[offset + i]);
                }
            }
            return staging[length];
        }

        /**
         * Stores the first {@code length} staged words ({@link #staged}) at {@code offset} of {@code mapping}, in
         * native byte order: the bytes of the staged elements.
         */
        void storeStaged(final MemorySegment mapping, final long offset, final int length) {
            InlineWords.write(mapping, offset, length * Long.BYTES, stagingWords, 0);
        }

        boolean tryLock() {
            final int how = lock.tryLock();
            if (how == BiasedLock.NOT_TAKEN) {
                return false;
            }
            taken = how;
            return true;
        }

        void unlock() {
            lock.unlock(taken);
        }
    }

    NotifySends(final WindowState window, final MemorySegment mapping, final int rank, final int ranks,
        final int laneCapacity, final ControlFile control, final WaitStrategy waitStrategy, final NotifyLanes own,
        final Runnable drainOwn) {
        this.window = window;
        this.rank = rank;
        this.control = control;
        this.waitStrategy = waitStrategy;
        this.own = own;
        this.drainOwn = drainOwn;
        this.outgoing = new Lane[ranks];
        for (int target = 0; target < ranks; target++) {
            outgoing[target] = new Lane(new LaneProducer(mapping,
                WindowLayout.notifyLanesOffset(ranks, laneCapacity, target), ranks, laneCapacity, rank), target);
        }
    }

    /**
     * Takes this rank's lane at {@code target} for one notified access: the caller moves the data, then
     * {@link #publish}es, and {@link Lane#unlock}s in a {@code finally}. Taken before the data moves, so that
     * a CAS (once a second thread shared the lane) does not wait behind the data's stores. Another thread of this rank holding
     * the lane is waited for through the window's wait strategy (liveness of the target, the job's timeout).
     */
    Lane lock(final String call, final int target) {
        final Lane lane = outgoing[target];
        if (!lane.tryLock()) {
            lockSlowly(call, lane);
        }
        return lane;
    }

    private void lockSlowly(final String call, final Lane lane) {
        final String what = call + ": this rank's notification lane at rank " + lane.target
            + ", held by another thread of the rank";
        try {
            waitStrategy.awaitPolled(lane::tryLock, () -> {
                window.checkOpen(call);
                control.checkPeer(lane.target, true);
            }, what);
        } catch (final RuntimeException e) {
            throw Failures.translate(e, rank, what);
        }
    }

    /**
     * Publishes one notification in {@code lane} (held by the caller), waiting for room if the lane is full.
     * {@code inline} (null, or up to {@link NotifyLanesLayout#INLINE_CAPACITY} bytes) travels in the entry: a
     * copy of a short put's data, which the target's request hands out without reading the window.
     * While it is full this rank keeps draining its own lanes (the target may be waiting for room in ours),
     * and waits through the window's wait strategy: liveness of the target, the job's timeout, busy-spin
     * honoured.
     */
    void publish(final String call, final Lane lane, final int tag, final long displacement, final int length,
        final int flags, final MemorySegment inline) {
        if (!lane.producer.offer(rank, tag, displacement, length, flags, inline)) {
            publishWhenRoom(call, lane, tag, displacement, length, flags, inline);
        }
    }

    /**
     * Publishes one notification in {@code lane} (held by the caller) if it has room, without waiting.
     *
     * @return whether it was published.
     */
    boolean offer(final Lane lane, final int tag, final long displacement, final int length, final int flags,
        final MemorySegment inline) {
        return lane.producer.offer(rank, tag, displacement, length, flags, inline);
    }

    private void publishWhenRoom(final String call, final Lane lane, final int tag, final long displacement,
        final int length, final int flags, final MemorySegment inline) {
        final int target = lane.target;
        final var fullLaneEvent = WindowCounters.begin(WindowCounters.FULL_LANE);
        onFullLane.run();
        final String what = call + ": room in this rank's full notification lane at rank " + target;
        // NOTE: the target's drain signals our own signal word when it frees room in our lane while the lane's
        // room-wait flag is set, which the wait sets before it sleeps (NotifyLanesLayout, "Room"); notifications for
        // us signal it too, and we must drain them meanwhile: the target may be waiting for room in our lanes. The
        // head is polled at most every roomPollNs until then (ROOM_POLL_MAX_NS).
        try {
            lane.beginRoomWait();
            own.await(waitStrategy, () -> {
                drainOwn.run();
                return lane.pollsHead() && lane.producer.offer(rank, tag, displacement, length, flags, inline);
            }, () -> {
                window.checkOpen(call);
                control.checkPeer(target, true);
            }, lane.beforeRoomSleep);
        } catch (final RuntimeException e) {
            throw Failures.translate(e, rank, what);
        } finally {
            lane.endRoomWait();
        }
        window.counters().end(fullLaneEvent, target, tag, call);
    }

    /**
     * Sets the hook a sending thread runs when it first finds its lane at the target full (for tests that
     * let the target make room only once the sender waits for it).
     */
    void onFullLane(final Runnable hook) {
        onFullLane = hook;
    }

    /**
     * @return this rank's producer of its lane at {@code target} (for fault-injection tests, which write an
     *         entry and stop before publishing it).
     */
    LaneProducer outgoingLane(final int target) {
        return outgoing[target].producer;
    }
}
