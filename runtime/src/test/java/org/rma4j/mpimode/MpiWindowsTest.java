package org.rma4j.mpimode;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.cluster.MpiCluster;

/**
 * The window contract across nodes: a real job of 2 nodes x 2 ranks under Open MPI runs the window scenarios
 * of thread and process mode (with {@code allocate} where they used {@code allocateShared} only for memory).
 */
@Timeout(900)
class MpiWindowsTest {
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
    void shouldRunTheWindowScenariosAcrossNodes() throws Exception {
        MpiJobs.runScenarios(cluster,
            MpiJobs.of(Class.forName("org.rma4j.WindowScenarios"), "fencePutGet", "putGetOverloads",
                "exclusiveLockCounter", "lockAllFlushFlag", "sharedLocksAndFlushes", "exclusiveAgainstLockAll",
                "syncOnly", "oversubscribedRounds", "pscw"),
            "-Drma4j.test.increments=200");
    }

    @Test
    void shouldRunTheAtomicAndDatatypeScenariosAcrossNodes() throws Exception {
        final java.util.List<String> scenarios = new java.util.ArrayList<>();
        scenarios.addAll(MpiJobs.of(Class.forName("org.rma4j.AccumulateScenarios"), "sumCounters", "subWordNeighbours",
            "minMaxRaces", "compareAndSwapCounters", "atomicReads", "typedAccumulate", "accumulateEpochs",
            "opTypeErrors", "noOpInAccumulate", "unalignedOriginBuffers"));
        scenarios.addAll(MpiJobs.of(Class.forName("org.rma4j.PairAccumulateScenarios"), "minMaxLocRaces",
            "minLocChains", "pairTypeErrors"));
        scenarios.addAll(MpiJobs.of(Class.forName("org.rma4j.DatatypeScenarios"), "structTransfers", "typedTransfers",
            "haloExchange", "subarrayHaloAndRecordField"));
        scenarios.addAll(
            MpiJobs.of(Class.forName("org.rma4j.DynamicWindowScenarios"), "thousandRegions", "attachWhileAccessing"));
        MpiJobs.runScenarios(cluster, scenarios, "-Drma4j.test.atomicIncrements=400",
            "-Drma4j.test.pairOperations=200");
    }
}
