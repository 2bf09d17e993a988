package org.rma4j;

import java.lang.foreign.MemorySegment;

/**
 * Notified access of one window to a target on another node (Notified Access, Belli and Hoefler, section III):
 * the data moves as the plain call moves it ({@link WindowTransport}), then the transport has the target's node
 * publish the notification in this rank's lane there ({@link WindowTransport#notify}), after the data took
 * effect at the target. The checks are those of {@link NotifiedAccess}; the range check is the transport's.
 */
final class RemoteNotified {
    private final WindowState state;
    private final WindowTransport transport;

    RemoteNotified(final WindowState state, final WindowTransport transport) {
        this.state = state;
        this.transport = transport;
    }

    /**
     * @return whether a notified access to {@code target} goes through this object: a rank of the window this
     *         process does not map (PROC_NULL and bad ranks go the usual way, which checks them).
     */
    boolean reaches(final int target) {
        return target >= 0 && target < state.sizes().length && !transport.mapped(target);
    }

    void putNotify(final MemorySegment origin, final int target, final long targetDisp, final int tag) {
        final long length = origin.byteSize();
        check("putNotify", target, targetDisp, length);
        transport.put("putNotify", origin, target, targetDisp);
        transport.notify("putNotify", target, tag, targetDisp, (int)length, Notifications.KIND_PUT);
        state.counters().count(WindowCounters.NOTIFIED, target, length);
    }

    void putNotify(final MemorySegment origin, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final int tag) {
        final long span = targetType.span(targetCount);
        check("putNotify", target, targetDisp, span);
        transport.put("putNotify", origin, originCount, originType, target, targetDisp, targetCount, targetType);
        transport.notify("putNotify", target, tag, targetDisp,
            (int)Math.min(targetCount * targetType.size(), Integer.MAX_VALUE), Notifications.KIND_PUT);
        state.counters().count(WindowCounters.NOTIFIED, target, span);
    }

    void getNotify(final MemorySegment destination, final int target, final long targetDisp, final int tag) {
        final long length = destination.byteSize();
        check("getNotify", target, targetDisp, length);
        transport.get("getNotify", destination, target, targetDisp);
        transport.notify("getNotify", target, tag, targetDisp, (int)length, Notifications.KIND_GET);
        state.counters().count(WindowCounters.NOTIFIED, target, length);
    }

    void accumulateNotify(final MemorySegment origin, final long count, final Datatype type, final int target,
        final long targetDisp, final Op op, final int tag) {
        final long span = type.span(count);
        check("accumulateNotify", target, targetDisp, span);
        transport.accumulate("accumulateNotify", op, origin, count, type, target, targetDisp, count, type);
        transport.notify("accumulateNotify", target, tag, targetDisp,
            (int)Math.min(count * type.size(), Integer.MAX_VALUE), Notifications.KIND_ACCUMULATE);
        state.counters().count(WindowCounters.NOTIFIED, target, span);
    }

    long fetchAndOpNotify(final long operand, final int target, final long targetDisp, final Op op, final int tag) {
        check("fetchAndOpNotify", target, targetDisp, Long.BYTES);
        final long previous = transport.fetchAndOp("fetchAndOpNotify", op, Datatype.LONG, operand, target, targetDisp);
        transport.notify("fetchAndOpNotify", target, tag, targetDisp, Long.BYTES, Notifications.KIND_ACCUMULATE);
        state.counters().count(WindowCounters.NOTIFIED, target, Long.BYTES);
        return previous;
    }

    private void check(final String call, final int target, final long targetDisp, final long length) {
        state.checkOpen(call);
        state.checkRank(target, call);
        if (targetDisp < 0) {
            throw new RmaException(ErrorClass.DISP, call + " target_disp=" + targetDisp + " is negative");
        }
        if (length > Integer.MAX_VALUE) {
            throw new RmaException(ErrorClass.COUNT, call + " length=" + length + " exceeds " + Integer.MAX_VALUE
                + " bytes, the most one notification describes");
        }
    }
}
