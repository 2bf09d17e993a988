package org.rma4j.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * The same binding under MPICH (integer handles, other constants, another MPI_Status): a job of 2 nodes x 2
 * ranks started by MPICH's Hydra through the same namespace agent; the ABI is chosen from the launcher's
 * environment (PMI_RANK).
 */
class MpichJobTest {
    private static MpiCluster cluster;
    private static JobOutcome job;

    @BeforeAll
    static void runJob() {
        cluster = MpiCluster.start();
        job = cluster.runMpich(RankLines.rankCommand("basics", "signals", "putget", "fetchop", "lock", "fence", "rput",
            "sendrecv", "shared", "errors"), RankLines.JOB_TIMEOUT);
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
    }

    @Test
    void shouldBindMpichAndSplitPerNode() {
        final Map<Integer, Map<String, String>> basics = scenario(job, "basics");
        basics.forEach((rank, line) -> {
            assertEquals(cluster.hostname(rank / MpiCluster.SLOTS), line.get("host"));
            assertEquals("[" + 2 * (rank / 2) + "," + (2 * (rank / 2) + 1) + "]", line.get("nodeMembers"));
        });
        assertAll(basics, "abi", "MPICH");
        assertAll(basics, "nodeSize", "2");
        assertAll(basics, "sum", "6");
        assertAll(basics, "allgatherv", "[0,1,1,2,2,2,3,3,3,3]");
        assertAll(basics, "inclSize", "2");
    }

    @Test
    void oneSidedCallsShouldGiveExactResults() {
        assertAll(scenario(job, "putget"), "getOk", "true");
        assertAll(scenario(job, "putget"), "ownOk", "true");
        assertAll(scenario(job, "fetchop"), "final", "800");
        assertAll(scenario(job, "fetchop"), "unique", "true");
        assertAll(scenario(job, "lock"), "final", "160");
        assertAll(scenario(job, "fence"), "own", "[100,101,102,103]");
        assertAll(scenario(job, "rput"), "ownOk", "true");
        assertAll(scenario(job, "rput"), "sumsOk", "true");
    }

    @Test
    void statusAndProcNullShouldReadMpichsLayoutAndValues() {
        final Map<Integer, Map<String, String>> sendRecv = scenario(job, "sendrecv");
        sendRecv.forEach((rank, line) -> assertEquals(Integer.toString((rank + 3) % 4), line.get("ringFrom")));
        assertAll(sendRecv, "ringTag", "7");
        assertAll(sendRecv, "ringCount", "1");
        assertEquals("12", sendRecv.get(2).get("probeBytes"));
        assertAll(sendRecv, "procNullSource", Integer.toString(Mpi.PROC_NULL));
        assertAll(sendRecv, "procNullTag", Integer.toString(Mpi.ANY_TAG));
    }

    /**
     * The node window works as in Open MPI. Unlike Open MPI (MPI_ERR_RMA_SHARED), MPICH 4.0 creates a shared
     * window over the world too: it does not check that the processes are on one node, and the two namespaces
     * are one kernel whose /dev/shm both map, so the memory can in fact be shared (MPI-3.1 section 11.2.3 makes
     * such a communicator the caller's responsibility, with no error class required).
     */
    @Test
    void sharedWindowShouldBeNodeLocal() {
        final Map<Integer, Map<String, String>> shared = scenario(job, "shared");
        shared.forEach((rank, line) -> assertEquals(Integer.toString(1000 + (rank ^ 1)), line.get("neighbour")));
        assertAll(shared, "acrossNodes", "none");
    }

    @Test
    void errorsShouldCarryMpichsClassesAsTheSameEnum() {
        final Map<String, String> rank0 = scenario(job, "errors").get(0);
        assertEquals("RMA_SYNC", rank0.get("outsideEpoch"));
        assertEquals("RANK", rank0.get("badRank"));
        assertEquals("RANK", rank0.get("sendBadRank"));
        assertEquals("ASSERT(binding)", rank0.get("badAssert"));
    }
}
