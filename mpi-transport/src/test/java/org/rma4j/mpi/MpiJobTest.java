package org.rma4j.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rma4j.mpi.RankLines.assertAll;
import static org.rma4j.mpi.RankLines.scenario;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rma4j.test.cluster.JobOutcome;
import org.rma4j.test.cluster.MpiCluster;

/**
 * The binding in a real Open MPI job of 2 nodes (network namespaces) x 2 ranks: one job runs every scenario
 * of {@link org.rma4j.mpi.ranks.RankMain} (ranks 0, 1 on node 0; 2, 3 on node 1; TCP between the nodes,
 * shared memory inside one), each test checks one scenario's lines.
 */
class MpiJobTest {
    private static MpiCluster cluster;
    private static JobOutcome job;

    @BeforeAll
    static void runJob() {
        cluster = MpiCluster.start();
        job = cluster.runOpenMpi(RankLines.rankCommand("basics", "nbc", "signals", "putget", "fetchop", "cas", "lock",
            "fence", "pscw", "rput", "sendrecv", "shared", "dynamic", "errors"), List.of(), RankLines.JOB_TIMEOUT);
    }

    @AfterAll
    static void closeCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void compiledCodeShouldKeepItsNullChecksAndSafepointsWithTheLibraryLoaded() {
        assertAll(scenario(job, "signals"), "npes", Integer.toString(2_000_000 / 1000));
    }

    @Test
    void jobShouldEndCleanlyAndLeaveNothingBehind() {
        assertEquals(0, job.exitCode(), job::toString);
        assertEquals(List.of(), job.leftovers(), job::toString);
        for (int rank = 0; rank < RankLines.RANKS; rank++) {
            assertEquals(List.of("R" + rank + " end"), job.lines("R" + rank + " end"), job::toString);
        }
    }

    @Test
    void shouldSplitTheWorldIntoOneCommunicatorPerNode() {
        final Map<Integer, Map<String, String>> basics = scenario(job, "basics");
        basics.forEach((rank, line) -> {
            final int node = rank / MpiCluster.SLOTS;
            assertEquals(cluster.hostname(node), line.get("host"), "rank " + rank + " runs on its node");
            assertEquals("2", line.get("nodeSize"));
            assertEquals(Integer.toString(rank % 2), line.get("nodeRank"));
            assertEquals("[" + 2 * node + "," + (2 * node + 1) + "]", line.get("nodeMembers"));
            assertEquals(Integer.toString(1 - rank / 2), line.get("parityRank"),
                "split(rank % 2, -rank) orders by key");
            assertEquals(rank == 3 ? "0" : rank == 1 ? "1" : Integer.toString(Mpi.UNDEFINED), line.get("inclRank"));
            assertEquals(Integer.toString(rank), line.get("dupRank"));
        });
        assertAll(basics, "size", "4");
        assertAll(basics, "paritySize", "2");
        assertAll(basics, "inclSize", "2");
        assertAll(basics, "level", "SERIALIZED");
        assertAll(basics, "abi", "OpenMPI");
    }

    @Test
    void shouldRunCollectivesAcrossNodes() {
        final Map<Integer, Map<String, String>> basics = scenario(job, "basics");
        assertAll(basics, "sum", "6");
        assertAll(basics, "bcast", "4242");
        assertAll(basics, "allgather", "[0,1,2,3]");
        assertAll(basics, "allgatherv", "[0,1,1,2,2,2,3,3,3,3]");
    }

    @Test
    void shouldCompleteNonblockingCollectivesByTesting() {
        final Map<Integer, Map<String, String>> nbc = scenario(job, "nbc");
        assertAll(nbc, "iallgather", "[0,10,20,30]");
        assertAll(nbc, "iallgatherv", "[0,10,11,20,21,22,30,31,32,33]");
        assertAll(nbc, "tested", "true");
    }

    @Test
    void shouldPutAndGetOneMebibyteAcrossNodesInLockAll() {
        final Map<Integer, Map<String, String>> putGet = scenario(job, "putget");
        putGet.forEach((rank, line) -> {
            final int origin = (rank + 2) % 4;
            assertEquals(Integer.toString(origin), line.get("target"));
            assertEquals(Long.toString(origin * 1_000_000L), line.get("ownFirst"));
            assertEquals(Long.toString(origin * 1_000_000L + (1 << 17) - 1), line.get("ownLast"));
        });
        assertAll(putGet, "getOk", "true");
        assertAll(putGet, "ownOk", "true");
    }

    @Test
    void fetchAndOpShouldCountEveryIncrementOfEveryRankOnce() {
        final Map<Integer, Map<String, String>> fetchOp = scenario(job, "fetchop");
        assertAll(fetchOp, "final", Integer.toString(4 * 200));
        assertAll(fetchOp, "unique", "true");
    }

    @Test
    void compareAndSwapShouldHaveOneWinnerAndExactCounts() {
        final Map<Integer, Map<String, String>> cas = scenario(job, "cas");
        assertAll(cas, "winners", "1");
        assertAll(cas, "counter", Integer.toString(4 * 50));
        final String slot = cas.get(0).get("slot");
        assertAll(cas, "slot", slot);
        assertEquals("true", cas.get(Integer.parseInt(slot)).get("won"), "the winner's number is in the slot");
    }

    @Test
    void exclusiveLockShouldExcludeAcrossNodes() {
        assertAll(scenario(job, "lock"), "final", Integer.toString(4 * 40));
    }

    @Test
    void fenceEpochShouldDeliverEveryPutAndGet() {
        final Map<Integer, Map<String, String>> fence = scenario(job, "fence");
        assertAll(fence, "own", "[100,101,102,103]");
        assertAll(fence, "neighbour", "[100,101,102,103]");
    }

    @Test
    void postStartCompleteWaitShouldDeliverTheOriginsPuts() {
        final Map<Integer, Map<String, String>> pscw = scenario(job, "pscw");
        assertEquals("[1,31]", pscw.get(1).get("slots"));
        assertEquals("[2,32]", pscw.get(2).get("slots"));
        assertEquals(null, pscw.get(0).get("slots"));
    }

    @Test
    void requestBasedCallsShouldCompleteThroughTheirRequests() {
        final Map<Integer, Map<String, String>> rput = scenario(job, "rput");
        assertAll(rput, "getOk", "true");
        assertAll(rput, "sumsOk", "true");
        assertAll(rput, "ownOk", "true");
        assertAll(rput, "complete", "true");
    }

    @Test
    void sendRecvShouldMatchSourcesTagsAndCounts() {
        final Map<Integer, Map<String, String>> sendRecv = scenario(job, "sendrecv");
        sendRecv.forEach((rank, line) -> {
            final int from = (rank + 3) % 4;
            assertEquals(Integer.toString(from), line.get("ringFrom"));
            assertEquals(Integer.toString(from * 10), line.get("ringValue"));
        });
        assertAll(sendRecv, "ringTag", "7");
        assertAll(sendRecv, "ringCount", "1");
        assertEquals("131072", sendRecv.get(3).get("bigCount"));
        assertAll(sendRecv, "bigOk", "true");
        assertEquals("12", sendRecv.get(2).get("probeBytes"));
        assertAll(sendRecv, "procNullSource", Integer.toString(Mpi.PROC_NULL));
        assertAll(sendRecv, "procNullTag", Integer.toString(Mpi.ANY_TAG));
        assertAll(sendRecv, "procNullCount", "0");
    }

    @Test
    void sharedWindowShouldBeNodeLocal() {
        final Map<Integer, Map<String, String>> shared = scenario(job, "shared");
        shared.forEach((rank, line) -> assertEquals(Integer.toString(1000 + (rank ^ 1)), line.get("neighbour")));
        assertAll(shared, "dispUnit", "8");
        assertAll(shared, "size", "64");
        assertAll(shared, "acrossNodes", "RMA_SHARED");
    }

    @Test
    void dynamicWindowShouldReachAttachedMemory() {
        final Map<Integer, Map<String, String>> dynamic = scenario(job, "dynamic");
        dynamic.forEach((rank, line) -> assertEquals(Integer.toString(7000 + (rank + 3) % 4), line.get("slot1")));
    }

    @Test
    void errorsShouldBecomeExceptionsWithTheirClassAndTheJobGoesOn() {
        final Map<Integer, Map<String, String>> errors = scenario(job, "errors");
        final Map<String, String> rank0 = errors.get(0);
        assertEquals("RMA_SYNC", rank0.get("outsideEpoch"));
        assertEquals("RANK", rank0.get("badRank"));
        assertEquals("DISP", rank0.get("negativeDisp"));
        assertEquals("COUNT", rank0.get("negativeCount"));
        assertEquals("RMA_SYNC", rank0.get("lockInLockAll"));
        assertEquals("BUFFER(binding)", rank0.get("smallBuffer"));
        assertEquals("BUFFER(binding)", rank0.get("heapBuffer"));
        assertEquals("RMA_SYNC", rank0.get("unlockNotLocked"));
        assertEquals("RMA_SYNC", rank0.get("flushNoEpoch"));
        assertEquals("ASSERT(binding)", rank0.get("badAssert"));
        assertEquals("RANK", rank0.get("sendBadRank"));
        assertEquals("COMM(binding)", rank0.get("freeWorld"));
        errors.forEach((rank, line) -> assertEquals(Integer.toString(5000 + (rank + 3) % 4), line.get("arrived"),
            "rank " + rank + ": a valid put after the errors arrives"));
        assertEquals(List.of(), job.leftovers(), job::toString);
    }
}
