package org.rma4j.mpimode;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.cluster.MpiCluster;

/**
 * Communicators and collectives in a real job of 2 nodes x 2 ranks under Open MPI: the scenarios that run in
 * threads and processes ({@code CollectiveScenarios}, {@code CommunicatorScenarios}) run unchanged.
 */
@Timeout(900)
class MpiCollectivesTest {
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
    void shouldRunTheCollectiveScenariosAcrossNodes() throws Exception {
        final List<String> scenarios = new ArrayList<>(MpiJobs.of(Class.forName("org.rma4j.CollectiveScenarios"),
            "rooted", "rootedV", "everyToEvery", "reductions", "errors"));
        MpiJobs.runScenarios(cluster, scenarios);
    }

    @Test
    void shouldRunTheCommunicatorScenariosAcrossNodes() throws Exception {
        MpiJobs.runScenarios(cluster, MpiJobs.of(Class.forName("org.rma4j.CommunicatorScenarios"), "world",
            "splitUndefinedAndKeys", "constructorsAndCompare", "windowsOverSplit", "concurrentDups"));
    }
}
