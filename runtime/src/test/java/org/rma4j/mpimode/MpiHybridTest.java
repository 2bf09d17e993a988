package org.rma4j.mpimode;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.cluster.MpiCluster;

/**
 * What only a job across nodes shows (2 nodes x 2 ranks under Open MPI): shared windows per node and the
 * standard's error across nodes, origins of both nodes contending on one target's location and lock (exact
 * counts), and the error classes of calls to another node's ranks.
 */
@Timeout(900)
class MpiHybridTest {
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
    void shouldKeepAtomicityAndExclusionBetweenLocalAndRemoteOriginsAndReportErrorsAcrossNodes() throws Exception {
        MpiJobs.runScenarios(cluster, MpiJobs.of(Class.forName("org.rma4j.MpiModeScenarios"), "sharedOnNodes",
            "hybridContention", "errorsAcrossNodes"), "-Drma4j.test.contention=300");
    }
}
