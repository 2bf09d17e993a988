package org.rma4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * The data collectives of a communicator (MPI-3.1 chapter 5), run by a subclass per job mode: thread
 * mode and real processes. Each test runs a program of {@link CollectiveScenarios} at every rank.
 */
@Timeout(300)
abstract class CollectiveContractTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    /**
     * Runs the scenario at each of {@code ranks} ranks and fails if any rank fails.
     */
    abstract void run(int ranks, String scenario) throws Exception;

    @Test
    void shouldBroadcastGatherAndScatterFromEveryRoot() throws Exception {
        run(3, "rooted");
    }

    @Test
    void shouldGathervAndScattervUnevenAndEmptyParts() throws Exception {
        run(5, "rootedV");
    }

    @Test
    void shouldAllgatherAndAlltoallIncludingTheirVVariants() throws Exception {
        run(4, "everyToEvery");
    }

    @Test
    void shouldReduceScanAndScatterReductionsExactly() throws Exception {
        run(5, "reductions");
    }

    @Test
    void shouldRaiseBadArgumentsAtEveryMemberAndStayInStep() throws Exception {
        run(3, "errors");
    }
}
