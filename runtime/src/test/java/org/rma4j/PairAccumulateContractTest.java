package org.rma4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * The contract of MINLOC and MAXLOC on the pair types (MPI-3.1 sections 5.9.4, 11.3.4 and 11.7.1: per-pair
 * atomicity against every other accumulate of the pair type from any rank), run by a subclass per job mode.
 * Each test runs a program of {@link PairAccumulateScenarios} at every rank of a job.
 */
@Timeout(300)
abstract class PairAccumulateContractTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    /**
     * Runs the scenario at each of {@code ranks} ranks and fails if any rank fails.
     */
    abstract void run(int ranks, String scenario) throws Exception;

    @Test
    void shouldLeaveTheExactMinlocAndMaxlocOfEveryPairTypeAfterRacesFromFourRanks() throws Exception {
        run(4, "minMaxLocRaces");
    }

    @Test
    void shouldLoseNoUpdateOfAnyPairTypeInRacesFromFourRanks() throws Exception {
        run(4, "minLocChains");
    }

    @Test
    void shouldCombineDerivedTypesOfPairsPairByPair() throws Exception {
        run(3, "derivedPairTypes");
    }

    @Test
    void shouldRaiseOpTypeAndDispErrorsOfPairTypesAndLeaveTheWindowUnchanged() throws Exception {
        run(2, "pairTypeErrors");
    }
}
