package org.rma4j;

/**
 * The messaging contract with ranks as real JVM processes.
 */
class MessagingProcessModeTest extends MessagingContractTest {
    @Override
    void run(final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, MessagingScenarios.class, scenario);
    }
}
