package org.rma4j;

/**
 * The notification-counter contract with ranks as threads of this JVM.
 */
class CounterThreadModeTest extends CounterContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Scenarios.runThreads(base, ranks, CounterScenarios.class, scenario);
    }
}
