package org.rma4j.mpimode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.rma4j.MpiScenarioMain;
import org.rma4j.test.TestProcesses;
import org.rma4j.test.cluster.JobOutcome;
import org.rma4j.test.cluster.MpiCluster;

/**
 * Jobs of the MPI-mode tests: 2 nodes (network namespaces of an {@link MpiCluster}) x 2 ranks, every rank a
 * JVM running {@link MpiScenarioMain} under Open MPI's {@code mpirun}, TCP between the nodes, shared memory in
 * one.
 */
public final class MpiJobs {
    /** Ranks of a job. */
    public static final int RANKS = MpiCluster.NODES * MpiCluster.SLOTS;
    /** Generous bound of one job (4 JVMs on a shared 2-core machine): a hang check, not a measurement. */
    public static final Duration JOB_TIMEOUT = Duration.ofMinutes(6);
    /** System property the scenarios read: they run across nodes (allocate instead of allocateShared). */
    public static final String ACROSS_NODES_PROP_NAME = "rma4j.test.acrossNodes";

    private MpiJobs() {
    }

    /**
     * @return the rank command: {@code java <small-footprint options> -cp <test class path> <main> <args>}.
     */
    public static List<String> rankCommand(final List<String> jvmOptions, final Class<?> main,
        final List<String> args) {
        final List<String> options = new ArrayList<>(
            List.of("-XX:-UsePerfData", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx256m",
                "-D" + ACROSS_NODES_PROP_NAME + "=true", "-Drma4j.wait.timeout.ms=180000"));
        options.addAll(jvmOptions);
        return TestProcesses.javaCommand(options, main, args);
    }

    /**
     * Runs scenarios ({@code Holder#name}) in one job of {@link #RANKS} ranks and asserts that every rank passed
     * every one, closed the job, and that the job left nothing behind.
     */
    public static JobOutcome runScenarios(final MpiCluster cluster, final List<String> scenarios,
        final String... jvmOptions) {
        final JobOutcome job = cluster.runOpenMpi(rankCommand(List.of(jvmOptions), MpiScenarioMain.class, scenarios),
            List.of(), JOB_TIMEOUT);
        for (final String entry : scenarios) {
            assertEquals(RANKS, job.lines("scenario " + entry + " passed at rank ").size(),
                () -> "scenario " + entry + " did not pass at every rank: " + job);
        }
        assertEquals(RANKS, job.stdout().lines().filter(line -> line.matches("rank \\d closed the job")).count(),
            job::toString);
        assertEquals(0, job.exitCode(), job::toString);
        assertEquals(List.of(), job.leftovers(), job::toString);
        return job;
    }

    /** @return {@code holder#name} for each name. */
    public static List<String> of(final Class<?> holder, final String... names) {
        final List<String> entries = new ArrayList<>();
        for (final String name : names) {
            entries.add(holder.getName() + "#" + name);
        }
        return entries;
    }
}
