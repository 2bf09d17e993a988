package org.rma4j;

/**
 * The notified-access contract with ranks as threads of this JVM.
 */
class NotifyThreadModeTest extends NotifyContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Scenarios.runThreads(base, ranks, NotifyScenarios.class, scenario);
    }
}
