package org.rma4j;

import java.lang.foreign.MemorySegment;
import org.rma4j.internal.ArrivalBatch;
import org.rma4j.internal.RuntimeAccess;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.WaitStrategy;

/**
 * {@link RuntimeAccess} over this package's internals, for {@code org.rma4j.messaging}; installed by
 * {@link RmaJob}'s static initializer.
 */
final class RuntimeAccessImpl implements RuntimeAccess {
    @Override
    public void checkOpen(final RmaJob job, final String call) {
        job.checkOpen(call);
    }

    @Override
    public Throwable failure(final RmaJob job) {
        return job.failure();
    }

    @Override
    public RuntimeException recordFailure(final RmaJob job, final RuntimeException e) {
        return job.recordFailure(e);
    }

    @Override
    public void abandon(final RmaJob job, final Throwable cause) {
        job.abandon(cause);
    }

    @Override
    public Liveness peers(final Window window) {
        final CommContext context = window.context();
        return context.control().liveness(context.rank(), true);
    }

    @Override
    public WaitStrategy waitStrategy(final Window window) {
        return window.notifications().waitStrategy();
    }

    @Override
    public RmaJob jobOf(final Window window) {
        return window.jobOf();
    }

    @Override
    public RuntimeException translate(final RuntimeException e, final int rank, final String waited) {
        return Failures.translate(e, rank, waited);
    }

    @Override
    public void messagingWait(final Window window, final boolean send, final int peer, final int tag,
        final Runnable wait) {
        NotifyWaitPublication.messagingWait(window.notifications().waits, send, peer, tag, wait);
    }

    @Override
    public int drainArrivals(final Window window, final ArrivalBatch batch) {
        return window.notifications().drainTo(batch);
    }

    @Override
    public boolean putNotifyIfRoom(final Window window, final MemorySegment origin, final int target,
        final long targetDisp, final int tag) {
        return window.putNotifyIfRoom(origin, target, targetDisp, tag);
    }

    @Override
    public boolean putNotifyInlineOnly(final Window window, final MemorySegment origin, final int target,
        final long targetDisp, final int tag) {
        return window.putNotifyInlineOnly(origin, target, targetDisp, tag);
    }

    @Override
    public boolean onThisNode(final Window window, final int rank) {
        return window.notified().onThisNode(rank);
    }

    @Override
    public int awaitArrivals(final Window window, final ArrivalBatch batch) {
        final Notifications endpoint = window.notifications();
        try {
            return endpoint.awaitArrivals(batch);
        } catch (final RuntimeException e) {
            throw Failures.translate(e, endpoint.rank(), "a notification of its Messaging object");
        }
    }

    @Override
    public MemorySegment slice(final MemorySegment array, final int offset, final int length, final int elementBytes) {
        return Checks.slice(array, offset, length, elementBytes);
    }

    @Override
    public void checkOp(final String call, final Op op, final Datatype type) {
        Checks.checkOp(call, op, type);
        if (op == Op.MINLOC || op == Op.MAXLOC) {
            throw new RmaException(ErrorClass.OP,
                call + " op " + op.mpiName() + " is supported by the one-sided accumulate calls only");
        }
    }
}
