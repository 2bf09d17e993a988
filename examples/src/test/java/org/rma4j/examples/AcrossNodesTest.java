package org.rma4j.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.examples.notified.PingPong;
import org.rma4j.examples.notified.PipelinedStencil;
import org.rma4j.examples.stencil.JacobiFence;
import org.rma4j.test.TestProcesses;
import org.rma4j.test.cluster.JobOutcome;
import org.rma4j.test.cluster.MpiCluster;

/**
 * The examples run unchanged across nodes: real Open MPI jobs of 2 nodes (network namespaces) x 2 ranks, each
 * rank a JVM running the example's main class, as a user runs it with {@code mpirun}; each verifies its result.
 */
@Timeout(900)
class AcrossNodesTest {
    /** Generous bound of one job (4 JVMs on a shared 2-core machine): a hang check, not a measurement. */
    private static final Duration JOB_TIMEOUT = Duration.ofMinutes(6);

    private static MpiCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = MpiCluster.start();
    }

    @AfterAll
    static void closeCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void jacobiStencilShouldVerifyAcrossTwoNodes() {
        final JobOutcome job = run(JacobiFence.class, "256", "256", "100");
        assertTrue(job.stdout().contains("stencil jacobi-fence: grid 256x256, 100 iterations, 4 ranks"), job::toString);
        assertTrue(job.stdout().contains("VERIFIED"), job::toString);
    }

    @Test
    void notifiedPingPongShouldVerifyEveryVariantBetweenTwoNodes() {
        // By node: ranks 0 and 1, the client and the server, run on different nodes.
        final JobOutcome job = run(List.of("--map-by", "node"), PingPong.class, "all", "20");
        assertTrue(job.stdout().contains("pingpong notified: 8 B, 20 iterations"), job::toString);
        assertTrue(job.stdout().contains("pingpong sendrecv: 1 MiB, 20 iterations"), job::toString);
        assertFalse(job.stdout().contains("FAILED"), job::toString);
    }

    @Test
    void pipelinedStencilShouldVerifyEveryVariantAcrossTwoNodes() {
        final JobOutcome job = run(List.of(), PipelinedStencil.class, "all", "64", "64", "10");
        assertTrue(job.stdout().contains("notified"), job::toString);
        assertFalse(job.stdout().contains("FAILED"), job::toString);
        assertTrue(job.stdout().contains("VERIFIED"), job::toString);
    }

    /** Runs {@code main} on the cluster's 4 ranks and checks the job ended well and left nothing behind. */
    static JobOutcome run(final Class<?> main, final String... args) {
        return run(List.of(), main, args);
    }

    /** Like {@link #run(Class, String...)} with more {@code mpirun} options. */
    static JobOutcome run(final List<String> options, final Class<?> main, final String... args) {
        final List<String> rank = TestProcesses.javaCommand(
            List.of("-XX:-UsePerfData", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx256m"), main,
            List.of(args));
        final JobOutcome job = cluster.runOpenMpi(rank, options, JOB_TIMEOUT);
        assertFalse(job.timedOut(), job::toString);
        assertEquals(0, job.exitCode(), job::toString);
        assertEquals(List.of(), job.leftovers(), job::toString);
        return job;
    }
}
