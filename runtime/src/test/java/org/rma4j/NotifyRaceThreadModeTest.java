package org.rma4j;

/**
 * The notified-access race tests with ranks as threads of this JVM.
 */
class NotifyRaceThreadModeTest extends NotifyRaceContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Scenarios.runThreads(base, ranks, NotifyRaceScenarios.class, scenario, WAIT_TIMEOUT_MS);
    }
}
