package org.rma4j;

import java.io.Serial;

/**
 * A blocking call ended because a rank it depends on has failed: its process is gone, it was marked
 * failed (an uncaught exception, {@link RmaJob#close()} after a failed call), or it left the job, so
 * what the call waits for can never happen. Error class {@link ErrorClass#PROC_FAILED}; {@link #rank()}
 * names the failed rank, the message also names the call this rank waited in.
 *
 * <p>After it, this rank is out of step with its peers: later collective calls throw it again and the
 * rank can only leave the job (see {@link RmaJob}).
 */
public final class RankFailedException extends RmaException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final int rank;

    /**
     * @param rank   the failed rank, in the job.
     * @param reason what was observed and where this rank waited, e.g. "process 1234 is gone (rank 0
     *               waited in barrier)".
     * @param cause  the lower-layer exception that reported it, or null.
     */
    public RankFailedException(final int rank, final String reason, final Throwable cause) {
        super(ErrorClass.PROC_FAILED, "rank " + rank + " failed: " + reason, cause);
        this.rank = rank;
    }

    /**
     * @return the failed rank, in the job.
     */
    public int rank() {
        return rank;
    }
}
