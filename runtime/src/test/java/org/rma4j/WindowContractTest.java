package org.rma4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The window contract, run by a subclass per job mode: thread mode and real processes. Each test
 * runs a program of {@link WindowScenarios} at every rank of a job.
 */
@Timeout(300)
abstract class WindowContractTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    /**
     * Runs the scenario at each of {@code ranks} ranks and fails if any rank fails.
     */
    abstract void run(int ranks, String scenario) throws Exception;

    @Test
    void shouldExposeAttributesAndContiguousSegmentsOfAllocateShared() throws Exception {
        run(4, "attributes");
    }

    @Test
    void shouldPlaceNoncontiguousSegmentsOnOwnPages() throws Exception {
        run(3, "noncontiguous");
    }

    @Test
    void shouldSeeDirectStoresThroughSharedQueryAfterBarrier() throws Exception {
        run(3, "sharedLoadStore");
    }

    @Test
    void shouldMakePutsVisibleAfterFence() throws Exception {
        run(4, "fencePutGet");
    }

    @Test
    void shouldPlaceEveryOverloadAtDispTimesDispUnit() throws Exception {
        run(2, "putGetOverloads");
    }

    @Test
    void shouldKeepPlainCounterExactUnderExclusiveLock() throws Exception {
        run(4, "exclusiveLockCounter");
    }

    @Test
    void shouldShowDataBeforeFlagWithLockAllPutFlush() throws Exception {
        run(4, "lockAllFlushFlag");
    }

    @Test
    void shouldAllowSharedLocksFlushesAndSync() throws Exception {
        run(3, "sharedLocksAndFlushes");
    }

    @Test
    void shouldFinishFenceAndLockRoundsWithMoreRanksThanCores() throws Exception {
        run(6, "oversubscribedRounds");
    }

    @Test
    void shouldSynchronizeWithPostStartCompleteWait() throws Exception {
        run(4, "pscw");
    }

    @Test
    void shouldExposeAllocMemThroughCreateAndDynamicWindows() throws Exception {
        run(3, "createAndDynamic");
    }

    @Test
    void shouldRaiseErrorClassesAndLeaveWindowIntact() throws Exception {
        run(3, "errorClasses");
    }

    @Test
    void shouldRunEveryScenarioAsSingleRank() throws Exception {
        run(1, "fencePutGet");
    }
}
