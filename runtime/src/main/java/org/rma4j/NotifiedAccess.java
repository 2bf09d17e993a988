package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.rma4j.internal.AtomicElements;

/**
 * Notified access of one window (Belli and Hoefler, "Notified Access", IPDPS 2015, section III): the
 * notified put, get, accumulate and fetch-and-op, which move their data at the call like their plain
 * counterparts ({@link TargetAccess}) and then publish a notification in this rank's lane at the target,
 * and the persistent {@link NotifyRequest}s made by notifyInit. Lanes, matching and waiting:
 * {@link Notifications}. Javadoc of each call: {@link Window}.
 *
 * <p>Each access takes this rank's lane at the target ({@link Notifications#lock}) before it moves the data
 * and gives it back after publishing: the data is in the target window when the notification is published
 * (release), and in program order with this origin's other operations to the target.
 */
final class NotifiedAccess {
    private final WindowState state;
    private final TargetMemory memory;
    private final Notifications notifications;
    private final List<NotifyRequest> requests = new ArrayList<>();
    /** Notified access to targets on another node. */
    private final RemoteNotified remote;

    NotifiedAccess(final WindowState state, final TargetMemory memory, final Notifications notifications,
        final WindowTransport transport) {
        this.state = state;
        this.memory = memory;
        this.notifications = notifications;
        this.remote = new RemoteNotified(state, transport);
    }

    /**
     * @return a description of a notification request of this window that is active, or null.
     */
    String activeRequest() {
        for (final NotifyRequest request : requests) {
            if (request.state() == NotifyRequest.State.ACTIVE) {
                return "notification request " + request + " is active";
            }
        }
        return null;
    }

    void putNotify(final MemorySegment origin, final int target, final long targetDisp, final int tag) {
        Objects.requireNonNull(origin, "origin");
        checkTag("putNotify", tag);
        if (remote.reaches(target)) {
            remote.putNotify(origin, target, targetDisp, tag);
            return;
        }
        final long length = origin.byteSize();
        final TargetMemory.Place destination = notifiedPlace("putNotify", target, targetDisp, length);
        if (destination == null) {
            return;
        }
        final Notifications.Lane lane = notifications.lock("putNotify", target);
        try {
            // NOTE: the data goes into the target window at the call, before the notification is published
            // (release), so it takes effect in program order with this origin's other operations to the target.
            MemorySegment.copy(origin, 0, destination.mapping(), destination.offset(), length);
            // NOTE: a short put's data travels in the notification too, so the target can take it from there
            // (NotifyRequest.inlineData); the window's copy above is the one that takes effect.
            notifications.publish("putNotify", lane, tag, targetDisp, (int)length, Notifications.KIND_PUT,
                length <= NotifyRequest.INLINE_BYTES ? origin : null);
        } finally {
            lane.unlock();
        }
    }

    void putNotify(final MemorySegment origin, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final int tag) {
        checkTag("putNotify", tag);
        Objects.requireNonNull(origin, "origin");
        Checks.checkTypes("putNotify", originCount, originType, targetCount, targetType);
        Checks.checkBuffer("putNotify", "origin", origin, originCount, originType);
        if (remote.reaches(target)) {
            remote.putNotify(origin, originCount, originType, target, targetDisp, targetCount, targetType, tag);
            return;
        }
        final MemorySegment destination = notifiedSlice("putNotify", target, targetDisp, targetType.span(targetCount));
        if (destination == null) {
            return;
        }
        final Notifications.Lane lane = notifications.lock("putNotify", target);
        try {
            TypeCursor.copy(origin, new TypeCursor(0, originCount, originType), destination,
                new TypeCursor(0, targetCount, targetType));
            notifications.publish("putNotify", lane, tag, targetDisp,
                (int)Math.min(targetCount * targetType.size(), Integer.MAX_VALUE), Notifications.KIND_PUT, null);
        } finally {
            lane.unlock();
        }
    }

    void getNotify(final MemorySegment destination, final int target, final long targetDisp, final int tag) {
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
        final Notifications.Lane lane = notifications.lock("getNotify", target);
        try {
            MemorySegment.copy(source, 0, destination, 0, length);
            notifications.publish("getNotify", lane, tag, targetDisp, (int)Math.min(length, Integer.MAX_VALUE),
                Notifications.KIND_GET, null);
        } finally {
            lane.unlock();
        }
    }

    void accumulateNotify(final MemorySegment origin, final long count, final Datatype type, final int target,
        final long targetDisp, final Op op, final int tag) {
        checkTag("accumulateNotify", tag);
        Checks.checkOp("accumulateNotify", op, type);
        Checks.checkNotNoOp("accumulateNotify", op);
        Objects.requireNonNull(origin, "origin");
        Checks.checkTypes("accumulateNotify", count, type, count, type);
        if (type.pairOrNull() != null) {
            throw new RmaException(ErrorClass.TYPE, "accumulateNotify datatype " + type + " is a pair type; notified"
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
        final Notifications.Lane lane = notifications.lock("accumulateNotify", target);
        try {
            TypeCursor.zip(new TypeCursor(0, count, type), new TypeCursor(place.offset(), count, type),
                (originOffset, targetOffset, elements) -> AtomicElements.accumulate(op, basic, origin, originOffset,
                    mapping, targetOffset, elements));
            notifications.publish("accumulateNotify", lane, tag, targetDisp,
                (int)Math.min(count * type.size(), Integer.MAX_VALUE), Notifications.KIND_ACCUMULATE, null);
        } finally {
            lane.unlock();
        }
    }

    long fetchAndOpNotify(final long operand, final int target, final long targetDisp, final Op op, final int tag) {
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
        final Notifications.Lane lane = notifications.lock("fetchAndOpNotify", target);
        try {
            final long previous = AtomicElements.getAndApply(op, Datatype.Basic.LONG, place.mapping(), place.offset(),
                operand);
            notifications.publish("fetchAndOpNotify", lane, tag, targetDisp, Long.BYTES, Notifications.KIND_ACCUMULATE,
                null);
            return previous;
        } finally {
            lane.unlock();
        }
    }

    NotifyRequest notifyInit(final int source, final int tag, final int expectedCount) {
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
        final NotifyRequest request = new NotifyRequest(notifications, source, tag, expectedCount);
        requests.removeIf(made -> made.state() == NotifyRequest.State.FREED);
        requests.add(request);
        return request;
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
        checkOpen(call);
        if (target == Rma.PROC_NULL) {
            return null;
        }
        checkRank(target, call);
        if (targetDisp < 0) {
            throw new RmaException(ErrorClass.DISP, call + " target_disp=" + targetDisp + " is negative");
        }
        if (length > Integer.MAX_VALUE) {
            throw new RmaException(ErrorClass.COUNT, call + " length=" + length + " exceeds " + Integer.MAX_VALUE
                + " bytes, the most one notification describes");
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
