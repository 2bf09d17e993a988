package org.rma4j;

import java.io.Serial;

/**
 * Thrown in thread mode by {@link RmaJob#abort(int)} and by {@link Rma#runThreads} for a job that one of
 * its ranks aborted (MPI_ABORT); {@link #status()} is the status the aborting rank gave. In process mode
 * an abort ends every rank's process with that status instead.
 */
public final class JobAbortedException extends RmaException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final int rank;
    private final int status;

    /**
     * @param rank   the rank that aborted the job.
     * @param status the status it gave.
     */
    public JobAbortedException(final int rank, final int status) {
        super(ErrorClass.OTHER, "rank " + rank + " aborted the job with status " + status);
        this.rank = rank;
        this.status = status;
    }

    /**
     * @return the rank that aborted the job.
     */
    public int rank() {
        return rank;
    }

    /**
     * @return the status the job was aborted with.
     */
    public int status() {
        return status;
    }
}
