package org.rma4j.mpimode;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.cluster.MpiCluster;

/**
 * Notified access, notification counters and Messaging across nodes: a real job of 2 nodes x 2 ranks under Open MPI runs the
 * scenarios of thread and process mode. Not here: MessagingScenarios.collectives (it reads a board through
 * sharedQuery, which needs one node) and directRendezvous (a receiver reads its sender's process memory). The job's waits poll MPI for 20 ms, then sleep (the default is to poll
 * for ever): so the scenarios also run with consumers, receivers and lock waiters asleep, served by the progress
 * thread, and waitingSleeps proves a long wait sleeps.
 */
@Timeout(900)
class MpiNotifyTest {
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
    void shouldRunTheNotifyAndMessagingScenariosAcrossNodes() throws Exception {
        final List<String> scenarios = new ArrayList<>(MpiJobs.of(Class.forName("org.rma4j.NotifyScenarios"),
            "matching", "transfers", "variants", "probe", "mixedWaits", "errors", "flood", "soak", "tokenRing"));
        scenarios.addAll(MpiJobs.of(Class.forName("org.rma4j.CounterScenarios"), "producers", "sleeper",
            "getAndAccumulate", "errors", "attachDetach"));
        scenarios.addAll(MpiJobs.of(Class.forName("org.rma4j.MessagingScenarios"), "pingPong", "orderAndWildcards",
            "unexpectedMessages", "nonblocking", "exchangeLargeBlockingSendFirst", "allToAll", "errors",
            "waitingSleeps"));
        scenarios.addAll(MpiJobs.of(Class.forName("org.rma4j.CommunicatorScenarios"), "dupIsolation"));
        MpiJobs.runScenarios(cluster, scenarios, "-Drma4j.mpi.pollWait.us=20000");
    }
}
