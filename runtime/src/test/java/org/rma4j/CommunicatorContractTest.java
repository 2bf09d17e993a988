package org.rma4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * The communicator contract (MPI-3.1 chapter 6, windows over communicators, Messaging per communicator),
 * run by a subclass per job mode: thread mode and real processes. Each test runs a program of
 * {@link CommunicatorScenarios} at every rank of a job.
 */
@Timeout(300)
abstract class CommunicatorContractTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    /**
     * Runs the scenario at each of {@code ranks} ranks and fails if any rank fails.
     */
    abstract void run(int ranks, String scenario) throws Exception;

    @Test
    void shouldMakeTheWorldTheJobsCommunicator() throws Exception {
        run(3, "world");
    }

    @Test
    void shouldSplitWithUndefinedColorsAndKeysThatReorderRanks() throws Exception {
        run(7, "splitUndefinedAndKeys");
    }

    @Test
    void shouldDupCreateFromGroupsAndCompare() throws Exception {
        run(5, "constructorsAndCompare");
    }

    @Test
    void shouldMakeWindowsOfEveryFlavorOverASplitCommunicator() throws Exception {
        run(5, "windowsOverSplit");
    }

    @Test
    void shouldLetTwoHalvesWorkAtOnceWhileOneSleepsInItsBarrier() throws Exception {
        run(6, "halvesAtOnce");
    }

    @Test
    void shouldKeepTheMessagesOfTwoDupsApart() throws Exception {
        run(4, "dupIsolation");
    }

    @Test
    void shouldReportMismatchedCollectiveCallsOnACommunicator() throws Exception {
        run(3, "mismatchOnCommunicator");
    }

    @Test
    void shouldLeaveNoCommunicatorFileInTheJobDirectory() throws Exception {
        run(3, "noFilesLeft");
    }

    @Test
    void shouldFindNeighboursOfACartesianGridAndItsSubGrids() throws Exception {
        run(6, "cartesian");
    }

    @Test
    void shouldRunCollectivesOfTwoDupsInTwoThreadsOfEachRankAtOnce() throws Exception {
        run(3, "concurrentDups");
    }
}
