package org.rma4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * The contract of a window's info, name, cached attributes and error handlers (MPI-3.1 sections 6.7.3, 6.8,
 * 8.3.3, 11.2.6, 11.2.7), run by a subclass per job mode. Each test runs a program of
 * {@link WindowSurfaceScenarios} at every rank of a job.
 */
@Timeout(300)
abstract class WindowSurfaceContractTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    /**
     * Runs the scenario at each of {@code ranks} ranks and fails if any rank fails.
     */
    abstract void run(int ranks, String scenario) throws Exception;

    @Test
    void shouldChangeTheChangeableHintsIgnoreTheFixedOnesAndNameTheWindow() throws Exception {
        run(2, "infoAndName");
    }

    @Test
    void shouldCacheAttributesAndCallDeleteCallbacksInTheReverseOrderOfSettingAtFree() throws Exception {
        run(3, "attributeCaching");
    }

    @Test
    void shouldHandEveryErrorToTheWindowsHandlerOnceBeforeThrowingIt() throws Exception {
        run(2, "errorHandlers");
    }
}
