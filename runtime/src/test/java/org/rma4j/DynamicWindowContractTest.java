package org.rma4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * The contract of dynamic windows with many regions (MPI-3.1 section 11.2.4: attach as many regions as
 * memory allows, detach, re-attach, and attach / detach while origins access), run by a subclass per job
 * mode. Each test runs a program of {@link DynamicWindowScenarios} at every rank of a job.
 */
@Timeout(300)
abstract class DynamicWindowContractTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    /**
     * Runs the scenario at each of {@code ranks} ranks and fails if any rank fails.
     */
    abstract void run(int ranks, String scenario) throws Exception;

    @Test
    void shouldReachAThousandRegionsAttachedByOneRankFromEveryOtherRankAndAfterReattach() throws Exception {
        run(4, "thousandRegions");
    }

    @Test
    void shouldNeverMissARegionWhileItsOwnerAttachesAndDetachesOthers() throws Exception {
        run(3, "attachWhileAccessing");
    }
}
