package org.rma4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * {@link Window#statistics()}: exact counts of known operations, run by a subclass per job mode (thread
 * mode and real processes) with the programs of {@link StatisticsScenarios}.
 */
@Timeout(300)
abstract class StatisticsContractTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    abstract void run(int ranks, String scenario) throws Exception;

    @Test
    void shouldCountOperationsAndBytesPerTargetAndWaits() throws Exception {
        run(2, "countsOperationsAndBytesPerTarget");
    }

    @Test
    void shouldCountOperationsOfEveryThreadOfTheRank() throws Exception {
        run(2, "countsOperationsOfEveryThread");
    }
}
