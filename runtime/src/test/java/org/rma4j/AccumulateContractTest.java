package org.rma4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * The contract of the accumulate family (MPI-3.1 sections 11.3.4 and 11.7.1: per-element atomicity
 * against every other accumulate from any rank), run by a subclass per job mode. Each test runs a
 * program of {@link AccumulateScenarios} at every rank of a job.
 */
@Timeout(300)
abstract class AccumulateContractTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    /**
     * Runs the scenario at each of {@code ranks} ranks and fails if any rank fails.
     */
    abstract void run(int ranks, String scenario) throws Exception;

    @Test
    void shouldSumLongDoubleAndFloatFromFourRanksWithoutLostUpdate() throws Exception {
        run(4, "sumCounters");
    }

    @Test
    void shouldKeepSubWordCountersAndTheirNeighboursExact() throws Exception {
        run(4, "subWordNeighbours");
    }

    @Test
    void shouldLeaveTheGlobalExtremesAfterMinAndMaxRaces() throws Exception {
        run(4, "minMaxRaces");
    }

    @Test
    void shouldCountExactlyWithCompareAndSwapRetryLoops() throws Exception {
        run(4, "compareAndSwapCounters");
    }

    @Test
    void shouldReadOnlyValuesThatWereReallyThereWithNoOp() throws Exception {
        run(4, "atomicReads");
    }

    @Test
    void shouldAccumulateDerivedTypesElementByElement() throws Exception {
        run(3, "typedAccumulate");
    }

    @Test
    void shouldAccumulateInsideFenceLockAllAndLockEpochsOnly() throws Exception {
        run(3, "accumulateEpochs");
    }

    @Test
    void shouldRaiseOpTypeAndDispErrorsAndLeaveWindowsUnchanged() throws Exception {
        run(2, "opTypeErrors");
    }

    @Test
    void shouldRunTheRacesAsSingleRank() throws Exception {
        run(1, "sumCounters");
    }

    @Test
    void shouldRejectNoOpInAccumulate() throws Exception {
        run(2, "noOpInAccumulate");
    }

    @Test
    void shouldAccumulateFromOriginAndResultBuffersAtAnyAlignment() throws Exception {
        run(2, "unalignedOriginBuffers");
    }
}
