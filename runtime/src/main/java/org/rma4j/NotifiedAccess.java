package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import org.rma4j.internal.AtomicElements;

/**
 * Notified access of one window (Belli and Hoefler, "Notified Access", IPDPS 2015, section III): the
 * notified put, get, accumulate and fetch-and-op, which move their data at the call like their plain
 * counterparts ({@link TargetAccess}) and then publish a notification in this rank's lane at the target,
 * and the persistent {@link NotifyRequest}s made by notifyInit. Lanes, matching and waiting:
 * {@link Notifications}. Javadoc of each call: {@link WindowNotifiedAccess}; each hands its
 * {@link RmaException} to the window's {@link WindowErrors} before it leaves.
 *
 * <p>Each access takes this rank's lane at the target ({@link Notifications#lock}) before it moves the data
 * and gives it back after publishing: the data is in the target window when the notification is published
 * (release), and in program order with this origin's other operations to the target.
 */
final class NotifiedAccess {
    private final WindowState state;
    private final TargetMemory memory;
    private final Notifications notifications;
    /** Notified access to targets on another node. */
    private final RemoteNotified remote;
    private final WindowTransport transport;
    /** The calls below hand their {@link RmaException} to the window's error handler before it leaves. */
    private final WindowErrors errors;

    NotifiedAccess(final WindowState state, final TargetMemory memory, final Notifications notifications,
        final WindowTransport transport, final WindowErrors errors) {
        this.state = state;
        this.memory = memory;
        this.notifications = notifications;
        this.remote = new RemoteNotified(state, transport);
        this.transport = transport;
        this.errors = errors;
    }

    /**
     * @return a description of a notification request of this window that is active, or null.
     */
    String activeRequest() {
        return notifications.activeRequest();
    }

    void putNotify(final MemorySegment origin, final int target, final long targetDisp, final int tag) {
        putNotify(origin, target, targetDisp, tag, true, true);
    }

    /**
     * A notified put whose notification is published only if this rank's lane at the target has room (the data
     * is written in any case), for a sender of flow-control words (Messaging's credit) whose earlier
     * notifications, still in the full lane, make the target read the word again when it drains them: a lane
     * full of them must not make the sender wait for a target that waits for it.
     *
     * @return whether the notification was published (always, for a target on another node, which never waits).
     */
    boolean putNotifyIfRoom(final MemorySegment origin, final int target, final long targetDisp, final int tag) {
        return putNotify(origin, target, targetDisp, tag, false, true);
    }

    /**
     * A notified put of at most {@link NotifyRequest#INLINE_BYTES} whose data travels only in its notification: the
     * window is not written (see RuntimeAccess#putNotifyInlineOnly). Same checks, statistics and wait for room as
     * {@link #putNotify}.
     *
     * @return false, nothing done, if {@code origin} is longer than {@code INLINE_BYTES} or {@code target} is on
     *         another node (the transport between nodes carries no data in a notification).
     */
    boolean putNotifyInlineOnly(final MemorySegment origin, final int target, final long targetDisp, final int tag) {
        if (origin != null && origin.byteSize() > NotifyRequest.INLINE_BYTES || remote.reaches(target)) {
            return false;
        }
        return putNotify(origin, target, targetDisp, tag, true, false);
    }

    /**
     * @return whether {@code target} is a rank of the window whose memory this process maps (its node's).
     */
    boolean onThisNode(final int target) {
        return target >= 0 && target < state.sizes().length && !remote.reaches(target);
    }

    /**
     * @param waitForRoom whether to wait for room in a full lane (else the notification is not published).
     * @param toWindow    whether the data goes into the window (else only into the notification: a short put's).
     */
    private boolean putNotify(final MemorySegment origin, final int target, final long targetDisp, final int tag,
        final boolean waitForRoom, final boolean toWindow) {
        try {
            Objects.requireNonNull(origin, "origin");
            checkTag("putNotify", tag);
            if (remote.reaches(target)) {
                remote.putNotify(origin, target, targetDisp, tag);
                return true;
            }
            final long length = origin.byteSize();
            final TargetMemory.Place destination = notifiedPlace("putNotify", target, targetDisp, length);
            if (destination == null) {
                return true;
            }
            final NotifySends.Lane lane = notifications.sends.lock("putNotify", target);
            try {
                // NOTE: the data goes into the target window at the call, before the notification is published
                // (release), so it takes effect in program order with this origin's other operations to the target.
                if (toWindow) {
                    MemorySegment.copy(origin, 0, destination.mapping(), destination.offset(), length);
                }
                // NOTE: a short put's data travels in the notification too, so the target can take it from there
                // (NotifyRequest.inlineData); the window's copy above, if made, is the one that takes effect.
                final MemorySegment inline = length <= NotifyRequest.INLINE_BYTES ? origin : null;
                if (!waitForRoom) {
                    return notifications.sends.offer(lane, tag, targetDisp, (int)length, Notifications.KIND_PUT,
                        inline);
                }
                notifications.sends.publish("putNotify", lane, tag, targetDisp, (int)length, Notifications.KIND_PUT,
                    inline);
                return true;
            } finally {
                lane.unlock();
            }
        } catch (final RmaException e) {
            throw errors.raise("putNotify", e);
        }
    }

    void putNotify(final MemorySegment origin, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final int tag) {
        try {
            checkTag("putNotify", tag);
            Objects.requireNonNull(origin, "origin");
            Checks.checkTypes("putNotify", originCount, originType, targetCount, targetType);
            Checks.checkBuffer("putNotify", "origin", origin, originCount, originType);
            if (remote.reaches(target)) {
                remote.putNotify(origin, originCount, originType, target, targetDisp, targetCount, targetType, tag);
                return;
            }
            final MemorySegment destination = notifiedSlice("putNotify", target, targetDisp,
                targetType.span(targetCount));
            if (destination == null) {
                return;
            }
            final NotifySends.Lane lane = notifications.sends.lock("putNotify", target);
            try {
                TypeCursor.copy(origin, new TypeCursor(0, originCount, originType), destination,
                    new TypeCursor(0, targetCount, targetType));
                notifications.sends.publish("putNotify", lane, tag, targetDisp,
                    (int)Math.min(targetCount * targetType.size(), Integer.MAX_VALUE), Notifications.KIND_PUT, null);
            } finally {
                lane.unlock();
            }
        } catch (final RmaException e) {
            throw errors.raise("putNotify", e);
        }
    }

    /**
     * Notified put of {@code length} elements of {@code layout} (8-byte elements: a {@code long[]} or
     * {@code double[]}) from {@code array} at {@code offset}. To a target of this node no segment of the array is
     * made: a short put's data is copied into the lane's staging words ({@link NotifySends.Lane#staged}), which
     * are its inline copy and are stored into the window word by word (the JDK's copy from an array checks the
     * array's class and the layout at every call: 72 against 64-66 ns per local cycle of an 8-byte put, JMH
     * {@code startPutNotifyAwaitHit8Array}); a longer put's goes into the window by the JDK's array copy. A
     * segment of the array that reaches the lane's offer escapes, which made such a put allocate 72 bytes per
     * call.
     */
    void putNotifyArray(final Object array, final int arrayLength, final int offset, final int length,
        final ValueLayout layout, final int target, final long targetDisp, final int tag) {
        try {
            Checks.checkElements(arrayLength, offset, length);
            checkTag("putNotify", tag);
            if (remote.reaches(target)) {
                remote.putNotify(Checks.arraySlice(array, offset, length, layout), target, targetDisp, tag);
                return;
            }
            final long bytes = length * layout.byteSize();
            final TargetMemory.Place destination = notifiedPlace("putNotify", target, targetDisp, bytes);
            if (destination == null) {
                return;
            }
            final NotifySends.Lane lane = notifications.sends.lock("putNotify", target);
            try {
                // NOTE: as putNotify of a segment: the window at the call, a short put's data in the notification too.
                final MemorySegment inline;
                if (bytes <= NotifyRequest.INLINE_BYTES) {
                    inline = lane.staged(array, offset, length);
                    // NOTE: a short put's window copy: word stores of the staged words, no copy call.
                    lane.storeStaged(destination.mapping(), destination.offset(), length);
                } else {
                    inline = null;
                    MemorySegment.copy(array, offset, destination.mapping(), layout, destination.offset(), length);
                }
                notifications.sends.publish("putNotify", lane, tag, targetDisp, (int)bytes, Notifications.KIND_PUT,
                    inline);
            } finally {
                lane.unlock();
            }
        } catch (final RmaException e) {
            throw errors.raise("putNotify", e);
        }
    }

    void getNotify(final MemorySegment destination, final int target, final long targetDisp, final int tag) {
        try {
            Objects.requireNonNull(destination, "destination");
            checkTag("getNotify", tag);
            if (remote.reaches(target)) {
                remote.getNotify(destination, target, targetDisp, tag);
                return;
            }
            final long length = destination.byteSize();
            final MemorySegment source = notifiedSlice("getNotify", target, targetDisp, length);
            if (source == null) {
                return;
            }
            final NotifySends.Lane lane = notifications.sends.lock("getNotify", target);
            try {
                MemorySegment.copy(source, 0, destination, 0, length);
                notifications.sends.publish("getNotify", lane, tag, targetDisp,
                    (int)Math.min(length, Integer.MAX_VALUE), Notifications.KIND_GET, null);
            } finally {
                lane.unlock();
            }
        } catch (final RmaException e) {
            throw errors.raise("getNotify", e);
        }
    }

    void accumulateNotify(final MemorySegment origin, final long count, final Datatype type, final int target,
        final long targetDisp, final Op op, final int tag) {
        try {
            checkTag("accumulateNotify", tag);
            Checks.checkOp("accumulateNotify", op, type);
            Checks.checkNotNoOp("accumulateNotify", op);
            Objects.requireNonNull(origin, "origin");
            Checks.checkTypes("accumulateNotify", count, type, count, type);
            if (type.pairOrNull() != null) {
                throw new RmaException(ErrorClass.TYPE,
                    "accumulateNotify datatype " + type + " is a pair type; notified"
                        + " accumulates take basic types (use accumulate with MINLOC or MAXLOC, then a notification)");
            }
            Checks.checkBuffer("accumulateNotify", "origin", origin, count, type);
            if (remote.reaches(target)) {
                remote.accumulateNotify(origin, count, type, target, targetDisp, op, tag);
                return;
            }
            final TargetMemory.Place place = notifiedPlace("accumulateNotify", target, targetDisp, type.span(count));
            if (place == null) {
                return;
            }
            final Datatype.Basic basic = type.basic();
            Checks.checkAligned("accumulateNotify", target, place.address(), basic);
            final MemorySegment mapping = place.mapping();
            final NotifySends.Lane lane = notifications.sends.lock("accumulateNotify", target);
            try {
                TypeCursor.zip(new TypeCursor(0, count, type), new TypeCursor(place.offset(), count, type),
                    (originOffset, targetOffset, elements) -> AtomicElements.accumulate(op, basic, origin, originOffset,
                        mapping, targetOffset, elements));
                notifications.sends.publish("accumulateNotify", lane, tag, targetDisp,
                    (int)Math.min(count * type.size(), Integer.MAX_VALUE), Notifications.KIND_ACCUMULATE, null);
            } finally {
                lane.unlock();
            }
        } catch (final RmaException e) {
            throw errors.raise("accumulateNotify", e);
        }
    }

    long fetchAndOpNotify(final long operand, final int target, final long targetDisp, final Op op, final int tag) {
        try {
            checkTag("fetchAndOpNotify", tag);
            Checks.checkOp("fetchAndOpNotify", op, Datatype.LONG);
            if (remote.reaches(target)) {
                return remote.fetchAndOpNotify(operand, target, targetDisp, op, tag);
            }
            final TargetMemory.Place place = notifiedPlace("fetchAndOpNotify", target, targetDisp, Long.BYTES);
            if (place == null) {
                return 0;
            }
            Checks.checkAligned("fetchAndOpNotify", target, place.address(), Datatype.Basic.LONG);
            final NotifySends.Lane lane = notifications.sends.lock("fetchAndOpNotify", target);
            try {
                final long previous = AtomicElements.getAndApply(op, Datatype.Basic.LONG, place.mapping(),
                    place.offset(), operand);
                notifications.sends.publish("fetchAndOpNotify", lane, tag, targetDisp, Long.BYTES,
                    Notifications.KIND_ACCUMULATE, null);
                return previous;
            } finally {
                lane.unlock();
            }
        } catch (final RmaException e) {
            throw errors.raise("fetchAndOpNotify", e);
        }
    }

    // ---------------------------------------------------------------- notified atomics, request-based calls

    /*
     * These move their data as the plain calls do, through the window's transport (which checks the range and
     * alignment, on this node or at the target's), then deliver the notification: into the target's endpoint on
     * this node, through the transport's ordered channel to another node. Notified access needs no epoch (NA
     * section III), so no epoch is checked.
     */

    void getAccumulateNotify(final MemorySegment origin, final long originCount, final Datatype originType,
        final MemorySegment result, final long resultCount, final Datatype resultType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final Op op, final int tag) {
        try {
            final String call = "getAccumulateNotify";
            checkTag(call, tag);
            Checks.checkOp(call, op, targetType);
            Objects.requireNonNull(result, "result");
            Checks.checkAccumulateTypes(call, resultCount, resultType, targetCount, targetType);
            Checks.checkBuffer(call, "result", result, resultCount, resultType);
            if (op != Op.NO_OP) {
                Objects.requireNonNull(origin, "origin");
                Checks.checkAccumulateTypes(call, originCount, originType, targetCount, targetType);
                Checks.checkBuffer(call, "origin", origin, originCount, originType);
            }
            final long span = targetType.span(targetCount);
            if (!notifiedTarget(call, target, targetDisp, span)) {
                return;
            }
            final NotifySends.Lane lane = localLane(call, target);
            try {
                transport.getAccumulate(call, op, op == Op.NO_OP ? null : origin, originCount, originType, result,
                    resultCount, resultType, target, targetDisp, targetCount, targetType);
                deliver(call, lane, target, tag, targetDisp, targetCount * targetType.size(),
                    Notifications.KIND_ACCUMULATE);
            } finally {
                unlock(lane);
            }
            state.counters().count(call, target, span);
        } catch (final RmaException e) {
            throw errors.raise("getAccumulateNotify", e);
        }
    }

    long compareAndSwapNotify(final long compare, final long value, final int target, final long targetDisp,
        final int tag) {
        try {
            final String call = "compareAndSwapNotify";
            checkTag(call, tag);
            if (!notifiedTarget(call, target, targetDisp, Long.BYTES)) {
                return 0;
            }
            final NotifySends.Lane lane = localLane(call, target);
            final long previous;
            try {
                previous = transport.compareAndSwap(call, Datatype.LONG, compare, value, target, targetDisp);
                deliver(call, lane, target, tag, targetDisp, Long.BYTES, Notifications.KIND_ACCUMULATE);
            } finally {
                unlock(lane);
            }
            state.counters().count(call, target, Long.BYTES);
            return previous;
        } catch (final RmaException e) {
            throw errors.raise("compareAndSwapNotify", e);
        }
    }

    RmaRequest rputNotify(final MemorySegment origin, final int target, final long targetDisp, final int tag) {
        try {
            putNotify(origin, target, targetDisp, tag);
            completeLocally(target);
            return RmaRequest.completed("rputNotify");
        } catch (final RmaException e) {
            throw errors.raise("rputNotify", e);
        }
    }

    RmaRequest rgetNotify(final MemorySegment destination, final int target, final long targetDisp, final int tag) {
        try {
            getNotify(destination, target, targetDisp, tag);
            return RmaRequest.completed("rgetNotify");
        } catch (final RmaException e) {
            throw errors.raise("rgetNotify", e);
        }
    }

    RmaRequest raccumulateNotify(final MemorySegment origin, final long count, final Datatype type, final int target,
        final long targetDisp, final Op op, final int tag) {
        try {
            accumulateNotify(origin, count, type, target, targetDisp, op, tag);
            completeLocally(target);
            return RmaRequest.completed("raccumulateNotify");
        } catch (final RmaException e) {
            throw errors.raise("raccumulateNotify", e);
        }
    }

    RmaRequest rgetAccumulateNotify(final MemorySegment origin, final long originCount, final Datatype originType,
        final MemorySegment result, final long resultCount, final Datatype resultType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final Op op, final int tag) {
        try {
            getAccumulateNotify(origin, originCount, originType, result, resultCount, resultType, target, targetDisp,
                targetCount, targetType, op, tag);
            return RmaRequest.completed("rgetAccumulateNotify");
        } catch (final RmaException e) {
            throw errors.raise("rgetAccumulateNotify", e);
        }
    }

    /**
     * A request-based call is complete when its origin buffer may be reused (MPI-3.1 section 11.3.5): at once on
     * this node; to another node, after the transport's local completion.
     */
    private void completeLocally(final int target) {
        if (remote.reaches(target)) {
            transport.flushLocal(target);
        }
    }

    /**
     * Checks a notified access that its transport resolves (no epoch needed).
     *
     * @return false for PROC_NULL (no operation).
     */
    private boolean notifiedTarget(final String call, final int target, final long targetDisp, final long length) {
        checkOpen(call);
        if (target == Rma.PROC_NULL) {
            return false;
        }
        checkRank(target, call);
        if (targetDisp < 0) {
            throw new RmaException(ErrorClass.DISP, call + " target_disp=" + targetDisp + " is negative");
        }
        if (length > Integer.MAX_VALUE) {
            throw new RmaException(ErrorClass.COUNT, call + " length=" + length + " exceeds " + Integer.MAX_VALUE
                + " bytes, the most one notification describes");
        }
        return true;
    }

    /**
     * @return this rank's lane at {@code target}, locked, when the target is on this node (the data then moves
     *         and the notification is published under it, so threads of this rank publish in the order their data
     *         took effect); null for a target on another node.
     */
    private NotifySends.Lane localLane(final String call, final int target) {
        return transport.mapped(target) ? notifications.sends.lock(call, target) : null;
    }

    private static void unlock(final NotifySends.Lane lane) {
        if (lane != null) {
            lane.unlock();
        }
    }

    /**
     * Publishes the notification of an access that took effect: in {@code lane} on this node, else through the
     * transport's ordered channel to the target's node.
     */
    private void deliver(final String call, final NotifySends.Lane lane, final int target, final int tag,
        final long targetDisp, final long bytes, final int kind) {
        final int length = (int)Math.min(bytes, Integer.MAX_VALUE);
        if (lane != null) {
            notifications.sends.publish(call, lane, tag, targetDisp, length, kind, null);
        } else {
            transport.notify(call, target, tag, targetDisp, length, kind);
        }
    }

    java.util.Optional<NotifyRequest.Status> notifyIprobe(final int source, final int tag) {
        try {
            checkProbe("notifyIprobe", source, tag);
            return java.util.Optional.ofNullable(statusOf(notifications.probe(source, tag)));
        } catch (final RmaException e) {
            throw errors.raise("notifyIprobe", e);
        }
    }

    NotifyRequest.Status notifyProbe(final int source, final int tag) {
        try {
            checkProbe("notifyProbe", source, tag);
            return statusOf(notifications.awaitProbe(source, tag));
        } catch (final RmaException e) {
            throw errors.raise("notifyProbe", e);
        } catch (final RuntimeException e) {
            throw Failures.translate(e, state.rank(), "notifyProbe(source=" + source + ", tag=" + tag + ")");
        }
    }

    private void checkProbe(final String call, final int source, final int tag) {
        checkOpen(call);
        if (source != Rma.ANY_SOURCE) {
            checkRank(source, call + " source");
        }
        if (tag != Rma.ANY_TAG) {
            checkTag(call, tag);
        }
    }

    private static NotifyRequest.Status statusOf(final org.rma4j.notify.Notification notification) {
        return notification == null
            ? null
            : new NotifyRequest.Status(notification.source(), notification.tag(), 1, notification.displacement(),
                notification.length());
    }

    NotifyRequest notifyInit(final int source, final int tag, final int expectedCount) {
        try {
            return newRequest(source, tag, expectedCount);
        } catch (final RmaException e) {
            throw errors.raise("notifyInit", e);
        }
    }

    private NotifyRequest newRequest(final int source, final int tag, final int expectedCount) {
        checkOpen("notifyInit");
        if (source != Rma.ANY_SOURCE) {
            checkRank(source, "notifyInit source");
        }
        if (tag != Rma.ANY_TAG) {
            checkTag("notifyInit", tag);
        }
        if (expectedCount < 0) {
            throw new RmaException(ErrorClass.COUNT, "notifyInit expected_count=" + expectedCount + " is negative");
        }
        // NOTE: the window learns of the request at its first start (Notifications.start): one that is never started
        // is never active, and costs no more than its object.
        return new NotifyRequest(notifications, source, tag, expectedCount);
    }

    /**
     * @return the window's notification endpoint.
     */
    Notifications notifications() {
        return notifications;
    }

    int unexpectedNotifications() {
        checkOpen("unexpectedNotifications");
        return notifications.unexpectedCount();
    }

    private MemorySegment notifiedSlice(final String call, final int target, final long targetDisp, final long length) {
        final TargetMemory.Place place = notifiedPlace(call, target, targetDisp, length);
        return place == null ? null : place.mapping().asSlice(place.offset(), length);
    }

    /**
     * Checks a notified access (no epoch needed) and returns its place, or null for PROC_NULL.
     */
    private TargetMemory.Place notifiedPlace(final String call, final int target, final long targetDisp,
        final long length) {
        if (!notifiedTarget(call, target, targetDisp, length)) {
            return null;
        }
        return state.counters().counted(call, target, length,
            memory.resolveInMapping(call, target, targetDisp, length));
    }

    private static void checkTag(final String call, final int tag) {
        if (tag < 0) {
            throw new RmaException(ErrorClass.TAG, call + " tag=" + tag + " is negative");
        }
    }

    private void checkOpen(final String call) {
        state.checkOpen(call);
    }

    private void checkRank(final int target, final String call) {
        state.checkRank(target, call);
    }
}
