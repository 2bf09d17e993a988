package org.rma4j.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rma4j.test.cluster.JobOutcome;
import org.rma4j.test.cluster.MpiCluster;

/**
 * A rank that ends abnormally ends the whole 2-node Open MPI job (the others are blocked in a barrier):
 * no hang (a generous bound, not a measurement), a message naming the rank, and nothing left behind in either
 * namespace, in /dev/shm or in the session directories.
 */
class MpiFailureTest {
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
    void rankThatHaltsShouldEndTheJobNamingIt() {
        final JobOutcome job = cluster.runOpenMpi(RankLines.rankCommand("exit"), List.of(), RankLines.JOB_TIMEOUT);
        assertFalse(job.timedOut(), job::toString);
        assertEquals(7, job.exitCode(), job::toString);
        assertTrue(
            Pattern.compile("Process name: \\[\\[\\d+,\\d+\\],3\\]\\s+Exit code:\\s+7").matcher(job.stderr()).find(),
            job::toString);
        assertEquals(List.of("R3 exit halting with status 7"), job.lines("R3 exit"));
        assertEquals(List.of(), job.lines("R0 exit UNEXPECTED"), "no rank passes the barrier");
        assertEquals(List.of(), job.leftovers(), job::toString);
    }

    @Test
    void abortShouldEndTheJobWithItsErrorCode() {
        final JobOutcome job = cluster.runOpenMpi(RankLines.rankCommand("abort"), List.of(), RankLines.JOB_TIMEOUT);
        assertFalse(job.timedOut(), job::toString);
        assertEquals(5, job.exitCode(), job::toString);
        assertTrue(job.stderr().contains("MPI_ABORT was invoked on rank 2 in communicator MPI_COMM_WORLD"),
            job::toString);
        assertTrue(job.stderr().contains("errorcode 5"), job::toString);
        assertEquals(List.of(), job.leftovers(), job::toString);
    }
}
