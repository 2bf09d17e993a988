package org.rma4j.test.cluster;

import java.time.Duration;
import java.util.List;

/**
 * How an MPI job of {@link MpiCluster#run} ended.
 *
 * @param exitCode  the launcher's exit status (-1 if it was killed at the timeout).
 * @param stdout    everything the launcher printed on its standard output (the ranks' output).
 * @param stderr    its standard error (the ranks' and the launcher's messages).
 * @param timedOut  whether the job outlived its timeout and was killed.
 * @param elapsed   from the launcher's start to its end.
 * @param leftovers what the job left behind after the launcher ended (processes in the namespaces, shared
 *                  memory files of its hosts, session directories): empty for a clean job. The cluster
 *                  removes them in any case.
 */
public record JobOutcome(int exitCode, String stdout, String stderr, boolean timedOut, Duration elapsed,
    List<String> leftovers) {
    /**
     * @return the lines of {@link #stdout} that start with {@code prefix}.
     */
    public List<String> lines(final String prefix) {
        return stdout.lines().filter(line -> line.startsWith(prefix)).toList();
    }

    @Override
    public String toString() {
        return "exit " + exitCode + (timedOut ? " (timed out)" : "") + " after " + elapsed.toMillis() + " ms"
            + (leftovers.isEmpty() ? "" : ", left behind " + leftovers) + "\n--- stdout\n" + stdout + "--- stderr\n"
            + stderr;
    }
}
