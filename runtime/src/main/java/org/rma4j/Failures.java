package org.rma4j;

import org.rma4j.shm.PeerFailedException;
import org.rma4j.shm.WaitTimeoutException;

/**
 * The one translation of the shared-memory layer's wait failures into rma4j's API exceptions: a
 * {@link PeerFailedException} becomes a {@link RankFailedException}, a {@link WaitTimeoutException} a
 * {@link RmaTimeoutException}, each naming the rma4j call that waited. Every runtime call site of a
 * blocking primitive of {@code org.rma4j.shm} or {@code org.rma4j.notify} passes what it catches through
 * here, so no public call throws a lower-layer type.
 */
final class Failures {
    private Failures() {
    }

    /**
     * @param e      what a blocking primitive threw.
     * @param rank   the rank that waited.
     * @param waited the rma4j call and what it waited for, e.g. "lock(EXCLUSIVE, 1) on window 0".
     * @return the rma4j exception for {@code e}: {@code e} itself unless it is one of the two lower-layer
     *         wait failures. For {@code throw Failures.translate(e, ...)}. A failed peer's message reads
     *         "rank F failed: REASON (rank R waited in WAITED)", a timeout's "timed out after T ms waiting
     *         for WAITED at rank R".
     */
    static RuntimeException translate(final RuntimeException e, final int rank, final String waited) {
        if (e instanceof PeerFailedException failed) {
            return new RankFailedException(failed.rank(),
                reason(failed) + " (rank " + rank + " waited in " + waited + ")", e);
        }
        if (e instanceof WaitTimeoutException timedOut) {
            return new RmaTimeoutException(waited + " at rank " + rank, timedOut.waitedNs(), e);
        }
        return e;
    }

    /**
     * @return {@code e}'s message without its "rank N failed: " prefix (and error class).
     */
    private static String reason(final PeerFailedException e) {
        final String prefix = "rank " + ((PeerFailedException)e).rank() + " failed: ";
        final String message = e.getMessage();
        final int at = message.indexOf(prefix);
        return at < 0 ? message : message.substring(at + prefix.length());
    }
}
