package org.rma4j;

import java.util.Objects;

/**
 * Waits over requests of several kinds ({@link RmaJob#waitAny(Request...)}, MPI-3.1 section 3.7.5): rounds of
 * {@link Request#test()} over the active requests, between which the job's wait strategy spins, yields, then
 * parks for 10 us growing to 1 ms ({@code WaitStrategy.awaitPolled}; a condition over several kinds of request
 * has no single word to sleep on), checking every rank's liveness and the job's timeout like every wait.
 */
final class RequestWaits {
    /** {@link #testAny} found active requests, none complete. */
    private static final int NONE_COMPLETE = -2;

    private RequestWaits() {
    }

    static int testAny(final RmaJob job, final Request[] requests) {
        job.checkOpen("testAny");
        final int done = firstComplete(Objects.requireNonNull(requests, "requests"));
        return done == NONE_COMPLETE ? -1 : done;
    }

    static int waitAny(final RmaJob job, final Request[] requests) {
        job.checkOpen("waitAny");
        final int first = firstComplete(Objects.requireNonNull(requests, "requests"));
        if (first != NONE_COMPLETE) {
            return first;
        }
        final int[] done = {NONE_COMPLETE};
        final String what = "waitAny over " + requests.length + " requests";
        try {
            job.waitStrategy().awaitPolled(() -> (done[0] = firstComplete(requests)) != NONE_COMPLETE, job.liveness(),
                what);
        } catch (final RuntimeException e) {
            throw Failures.translate(e, job.rank(), what);
        }
        return done[0];
    }

    static void waitAll(final RmaJob job, final Request[] requests) {
        while (waitAny(job, requests) >= 0) {
            // a request reported complete is inactive afterwards; go on until none is active
        }
    }

    /**
     * @return the index of the first active request that tests complete, -1 if none is active, or
     *         {@link #NONE_COMPLETE}.
     */
    private static int firstComplete(final Request[] requests) {
        boolean active = false;
        for (int i = 0; i < requests.length; i++) {
            final Request request = requests[i];
            if (request != null && request.isActive()) {
                active = true;
                if (request.test()) {
                    return i;
                }
            }
        }
        return active ? NONE_COMPLETE : -1;
    }
}
