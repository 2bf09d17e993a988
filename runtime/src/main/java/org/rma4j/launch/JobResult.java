package org.rma4j.launch;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * How a job ended.
 *
 * @param exitCode       the first non-zero exit status of a rank, in the order the launcher saw the ranks
 *                       end, or 0 if every rank exited with 0.
 * @param rankExitCodes  exit status of each rank, indexed by rank (128 + n: ended by signal n).
 * @param failedRank     the rank whose exit status is {@code exitCode}, or -1 if the job succeeded.
 * @param failureMessage the launcher's message about the failed rank, empty if the job succeeded.
 * @param jobDirectory   the job directory the job ran in (removed by the time the result exists).
 */
public record JobResult(int exitCode, List<Integer> rankExitCodes, int failedRank, Optional<String> failureMessage,
    Path jobDirectory) {

    /**
     * Copies the list of exit codes.
     */
    public JobResult {
        rankExitCodes = List.copyOf(rankExitCodes);
    }

    /**
     * @return true if every rank exited with status 0.
     */
    public boolean succeeded() {
        return exitCode == 0;
    }

    /**
     * @param rank a rank of the job.
     * @return its exit status.
     */
    public int exitCode(final int rank) {
        return rankExitCodes.get(rank);
    }
}
