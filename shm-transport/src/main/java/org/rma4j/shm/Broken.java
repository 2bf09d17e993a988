package org.rma4j.shm;

/**
 * A barrier's broken state: once a wait ended with PeerFailedException or WaitTimeoutException, every
 * later wait of that party throws the same kind of exception at once (as a CyclicBarrier does). The
 * failed party's arrival stays counted (or its flags half written), so a later wait could otherwise
 * complete a barrier that the dead or late party never entered. One instance per barrier instance.
 */
final class Broken {
    private RuntimeException first;

    /**
     * Runs {@code wait} unless the barrier is broken, and breaks it if {@code wait} fails.
     *
     * @throws PeerFailedException  from {@code wait}, or again (naming the same rank) once broken.
     * @throws WaitTimeoutException from {@code wait}, or again once broken.
     */
    void await(final Runnable wait) {
        if (first != null) {
            throw again(first);
        }
        try {
            wait.run();
        } catch (final PeerFailedException | WaitTimeoutException e) {
            first = e;
            throw e;
        }
    }

    private static RuntimeException again(final RuntimeException first) {
        final RuntimeException again = first instanceof PeerFailedException failed
            ? new PeerFailedException(failed.rank(),
                "the barrier is broken since an earlier wait ended with: " + first.getMessage())
            : new WaitTimeoutException("a broken barrier (an earlier wait ended with: " + first.getMessage() + ")", 0);
        again.initCause(first);
        return again;
    }
}
