package org.rma4j;

/**
 * The request of a request-based RMA operation (MPI_RPUT, MPI_RGET, MPI_RACCUMULATE,
 * MPI_RGET_ACCUMULATE; MPI-3.1 section 11.3.5). rma4j performs the operation at the call, so its
 * request is complete when returned; {@link #test()} and {@link #await()} return at once. Requests
 * are not persistent: waiting on one releases it, as MPI_WAIT does, and it may be waited on once.
 *
 * <p>Completion of a request means local completion (the origin buffer may be reused, the result
 * buffer holds the data); in rma4j the operation is also complete at the target.
 */
public final class RmaRequest implements Request {
    private final String operation;
    private boolean released;

    private RmaRequest(final String operation) {
        this.operation = operation;
    }

    static RmaRequest completed(final String operation) {
        return new RmaRequest(operation);
    }

    /**
     * MPI_TEST: true when the operation is complete, which releases the request.
     *
     * @throws RmaException REQUEST if the request was already released.
     */
    @Override
    public boolean test() {
        release("test");
        return true;
    }

    /**
     * MPI_WAIT: returns when the operation is complete and releases the request.
     *
     * @throws RmaException REQUEST if the request was already released.
     */
    public void await() {
        release("await");
    }

    /** @return whether neither test nor await released the request yet. */
    @Override
    public boolean isActive() {
        return !released;
    }

    /**
     * @return whether test or await released the request.
     */
    public boolean isReleased() {
        return released;
    }

    /**
     * MPI_WAITALL: waits for every active request; null and released requests are skipped, as MPI
     * skips MPI_REQUEST_NULL.
     */
    public static void waitAll(final RmaRequest... requests) {
        for (final RmaRequest request : requests) {
            if (request != null && !request.released) {
                request.await();
            }
        }
    }

    /**
     * MPI_WAITANY: waits for one active request, releases it and returns its index, or -1
     * (MPI_UNDEFINED) if none is active.
     */
    public static int waitAny(final RmaRequest... requests) {
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] != null && !requests[i].released) {
                requests[i].await();
                return i;
            }
        }
        return -1;
    }

    /**
     * MPI_TESTALL: true when every active request is complete (always, in rma4j), releasing them.
     */
    public static boolean testAll(final RmaRequest... requests) {
        waitAll(requests);
        return true;
    }

    private void release(final String call) {
        if (released) {
            throw new RmaException(ErrorClass.REQUEST, call + " on a released " + operation + " request");
        }
        released = true;
    }

    @Override
    public String toString() {
        return "RmaRequest{" + operation + (released ? ", released" : ", complete") + '}';
    }
}
