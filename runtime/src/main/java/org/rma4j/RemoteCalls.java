package org.rma4j;

import java.lang.foreign.MemorySegment;
import org.rma4j.internal.mpi.AmLayout;
import org.rma4j.internal.mpi.MpiLink;
import org.rma4j.internal.mpi.NativeBuffers;
import org.rma4j.internal.mpi.RemoteFailureException;
import org.rma4j.shm.Liveness;

/**
 * The requests of one window's origin to its targets on other nodes ({@link RemoteRequests}, {@link TargetAgent}):
 * their frames, the wait for a reply (serving the link meanwhile, through the job's wait strategy: liveness, the
 * job's timeout), and the error a reply reports, as the RmaException the target raised.
 */
final class RemoteCalls {
    private final WindowState state;
    private final MpiLink link;
    private final long key;
    private final Liveness liveness;

    RemoteCalls(final WindowState state, final MpiLink link, final long key, final Liveness liveness) {
        this.state = state;
        this.link = link;
        this.key = key;
        this.liveness = liveness;
    }

    /** @return a request without payload or arguments but {@code arg0}. */
    NativeBuffers.Buffer header(final int kind, final int target, final long arg0) {
        final NativeBuffers.Buffer message = link.request(0);
        AmLayout.writeHeader(message.segment(), kind, key, target, state.rank(), 0, arg0, 0, 0, 0);
        return message;
    }

    /**
     * Sends a request with {@code payload} (or none) and waits for its reply, whose payload goes to
     * {@code into} (or nowhere).
     */
    void request(final int target, final int kind, final long offset, final long arg0, final long arg1, final long arg2,
        final MemorySegment payload, final MemorySegment into, final String call) {
        final long length = payload == null ? 0 : payload.byteSize();
        final NativeBuffers.Buffer message = link.request(length);
        AmLayout.writeHeader(message.segment(), kind, key, target, state.rank(), offset, arg0, arg1, arg2, length);
        if (payload != null) {
            MemorySegment.copy(payload, 0, message.segment(), AmLayout.HEADER_LENGTH, length);
        }
        finish(call, target, call(target, message, into == null ? MemorySegment.NULL : into, state.job().waitStrategy(),
            liveness, call + " on window " + state.number() + " at rank " + target));
    }

    /**
     * {@link MpiLink#call} to {@code target} (a rank of the window), a target's error as the RmaException it
     * reported.
     */
    int call(final int target, final NativeBuffers.Buffer message, final MemorySegment into,
        final org.rma4j.shm.WaitStrategy wait, final Liveness waitLiveness, final String what) {
        final int dest = state.context().jobRank(target);
        try {
            return link.call(dest, message, into, wait, waitLiveness, what);
        } catch (final RemoteFailureException e) {
            throw new RmaException(ErrorClass.ofCode(e.status()),
                e.getMessage() + " (at job rank " + dest + ", on another node)");
        }
    }

    /**
     * @throws RmaException the error a target's reply reports.
     */
    void finish(final String call, final int target, final int status) {
        if (status == 0) {
            return;
        }
        if (status == MpiLink.STATUS_NO_WINDOW) {
            throw new RmaException(ErrorClass.WIN,
                call + ": rank " + target + " has no window " + state.number() + " (freed there)");
        }
        if (status == MpiLink.STATUS_HANDLER_FAILED) {
            throw new RmaException(ErrorClass.OTHER,
                call + ": rank " + target + " failed to apply it (see its standard error)");
        }
        throw new RmaException(ErrorClass.ofCode(status), call + " at rank " + target + " of window " + state.number()
            + " failed there with " + ErrorClass.ofCode(status).mpiName());
    }

}
