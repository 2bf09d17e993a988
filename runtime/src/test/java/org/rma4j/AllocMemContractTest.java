package org.rma4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * Memory from allocMem exposed to other ranks, run by a subclass per job mode: thread mode and real
 * processes. Each test runs a program of {@link AllocMemScenarios} at both ranks of a job.
 */
@Timeout(300)
abstract class AllocMemContractTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    /**
     * Runs the scenario at each of {@code ranks} ranks and fails if any rank fails.
     */
    abstract void run(int ranks, String scenario) throws Exception;

    @Test
    void shouldExposeAllocMemOfEverySizeUpTo64ThroughCreate() throws Exception {
        run(2, "createOverEverySmallSize");
    }

    @Test
    void shouldExposeAllocMemOfEverySizeUpTo64AsADynamicWindowRegion() throws Exception {
        run(2, "dynamicRegionOfEverySmallSize");
    }
}
