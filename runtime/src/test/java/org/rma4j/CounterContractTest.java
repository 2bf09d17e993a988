package org.rma4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * The notification-counter contract (MPI Forum issue 59), run by a subclass per job mode.
 */
@Timeout(300)
abstract class CounterContractTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    abstract void run(int ranks, String scenario) throws Exception;

    @Test
    void shouldSeeEveryIncrementOfFourProducersAfterItsData() throws Exception {
        run(5, "producers");
    }

    @Test
    void shouldWakeAWaiterAsleepOnItsCounter() throws Exception {
        run(2, "sleeper");
    }

    @Test
    void shouldCountGetsAccumulatesAndTypedTransfers() throws Exception {
        run(4, "getAndAccumulate");
    }

    @Test
    void shouldRaiseNotifRangeWithTheValuesAndChangeNothing() throws Exception {
        run(2, "errors");
    }

    @Test
    void shouldAttachAndDetachCollectivelyWithDifferentCounts() throws Exception {
        run(4, "attachDetach");
    }
}
