package org.rma4j.shm;

import java.io.Serial;

/**
 * Thrown by a blocking call when a peer it depends on has died (its process is gone, or it was
 * marked failed) or has left the job, so the awaited word can never change.
 */
public class PeerFailedException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final int rank;

    /**
     * @param rank   index of the failed peer in its job.
     * @param reason what was observed, e.g. "process 1234 is gone".
     */
    public PeerFailedException(final int rank, final String reason) {
        super("rank " + rank + " failed: " + reason);
        this.rank = rank;
    }

    /**
     * @return index of the failed peer in its job.
     */
    public int rank() {
        return rank;
    }
}
