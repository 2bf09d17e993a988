package org.rma4j.mpi;

import java.lang.foreign.Arena;

/**
 * A nonblocking operation ({@code MPI_Request}) of point-to-point communication ({@link MpiComm#isend},
 * {@link MpiComm#irecv}) or a request-based one-sided call ({@link MpiWin#rput} and the others, MPI-3.1
 * section 11.3.5). Completing it ({@link #await}, a {@link #test} that returns true) frees it, as in MPI; the
 * handle then is {@code MPI_REQUEST_NULL} and completing it again returns at once.
 *
 * <p>The buffers of the operation must stay valid until it completes. Not thread-safe.
 */
public final class MpiRequest {
    private long handle;
    private final MpiDatatype countType;
    private final String call;
    /** Native arguments the operation reads until it completes (the counts of a v-collective), or null. */
    private Arena arguments;

    MpiRequest(final long handle, final MpiDatatype countType, final String call) {
        this(handle, countType, call, null);
    }

    MpiRequest(final long handle, final MpiDatatype countType, final String call, final Arena arguments) {
        this.handle = handle;
        this.countType = countType;
        this.call = call;
        this.arguments = arguments;
    }

    /**
     * @return the implementation's handle ({@code MPI_REQUEST_NULL} once complete).
     */
    public long handle() {
        return handle;
    }

    /**
     * @return whether the request completed (its handle is {@code MPI_REQUEST_NULL}).
     */
    public boolean isComplete() {
        return handle == Predefined.REQUEST_NULL;
    }

    /**
     * {@code MPI_Wait} with {@code MPI_STATUS_IGNORE}.
     */
    public void await() {
        final Scratch scratch = Scratch.get();
        scratch.handle0(handle);
        final int rc;
        try {
            rc = (int)MpiNative.WAIT.invokeExact(scratch.handle0, Predefined.STATUS_IGNORE);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        handle = scratch.handle0();
        releaseArguments();
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Wait", "request of " + call);
        }
    }

    /**
     * {@code MPI_Wait}.
     *
     * @return the status, its count in the datatype of the operation.
     */
    public MpiStatus awaitStatus() {
        final Scratch scratch = Scratch.get();
        scratch.handle0(handle);
        final int rc;
        try {
            rc = (int)MpiNative.WAIT.invokeExact(scratch.handle0, scratch.status);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        handle = scratch.handle0();
        releaseArguments();
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Wait", "request of " + call);
        }
        return MpiStatus.read(scratch.status, countType);
    }

    /**
     * {@code MPI_Test} with {@code MPI_STATUS_IGNORE}.
     *
     * @return whether the operation completed.
     */
    public boolean test() {
        final Scratch scratch = Scratch.get();
        scratch.handle0(handle);
        final int rc;
        try {
            rc = (int)MpiNative.TEST.invokeExact(scratch.handle0, scratch.int0, Predefined.STATUS_IGNORE);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        handle = scratch.handle0();
        if (isComplete()) {
            releaseArguments();
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Test", "request of " + call);
        }
        return scratch.int0() != 0;
    }

    /** Frees the native arguments once the operation no longer reads them. */
    private void releaseArguments() {
        if (arguments != null && isComplete()) {
            arguments.close();
            arguments = null;
        }
    }

    @Override
    public String toString() {
        return "MpiRequest[" + call + (isComplete() ? ", complete]" : "]");
    }
}
