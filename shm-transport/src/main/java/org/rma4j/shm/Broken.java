package org.rma4j.shm;

/**
 * The exception a broken barrier throws for every await after the one that failed.
 */
final class Broken {
    private Broken() {
    }

    /**
     * @param first what ended the await that broke the barrier.
     * @return an exception of the same kind, saying that the barrier is broken and why.
     */
    static RuntimeException again(final RuntimeException first) {
        final RuntimeException again = first instanceof PeerFailedException failed
            ? new PeerFailedException(failed.rank(), "the barrier is broken since an earlier wait ended with: "
                + first.getMessage())
            : new WaitTimeoutException("a broken barrier (an earlier wait ended with: " + first.getMessage() + ")", 0);
        again.initCause(first);
        return again;
    }
}
