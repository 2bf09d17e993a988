package org.rma4j;

/**
 * The notified-access race tests with ranks as real JVM processes.
 */
class NotifyRaceProcessModeTest extends NotifyRaceContractTest {
    @Override
    void run(final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, NotifyRaceScenarios.class, scenario,
            "-D" + org.rma4j.shm.WaitStrategy.TIMEOUT_PROP_NAME + "=" + WAIT_TIMEOUT_MS);
    }
}
