package org.rma4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * The contract of exposing memory (MPI-3.1 sections 11.2.1 and 11.2.4: a window over any memory in a
 * shared mapping of the job; memory no other process can map refused), run by a subclass per job mode.
 * Each test runs a program of {@link ExposureScenarios} at every rank of a job.
 */
@Timeout(300)
abstract class ExposureContractTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    /**
     * Runs the scenario at each of {@code ranks} ranks and fails if any rank fails.
     */
    abstract void run(int ranks, String scenario) throws Exception;

    @Test
    void shouldCreateAndAttachOverWindowMemoryAndSlicesOfAllocations() throws Exception {
        run(3, "createOverSharedMappings");
    }

    @Test
    void shouldRefuseMemoryNoOtherProcessCanMapNamingItsAddress() throws Exception {
        run(2, "refuseUnmappableMemory");
    }

    @Test
    void shouldKeepTheFileOfAWindowWithMemoryUntilTheWindowIsFreed() throws Exception {
        run(2, "windowFilesLiveWithTheirWindows");
    }
}
