package org.rma4j;

/**
 * The notification-counter contract with ranks as real JVM processes, with 20,000 rounds per producer.
 */
class CounterProcessModeTest extends CounterContractTest {
    @Override
    void run(final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, CounterScenarios.class, scenario, "-Drma4j.test.counterRounds=20000");
    }
}
