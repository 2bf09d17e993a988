package org.rma4j;

/**
 * The messaging contract with ranks as threads of this JVM.
 */
class MessagingThreadModeTest extends MessagingContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Scenarios.runThreads(base, ranks, MessagingScenarios.class, scenario);
    }
}
