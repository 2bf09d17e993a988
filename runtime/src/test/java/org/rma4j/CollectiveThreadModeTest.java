package org.rma4j;

/**
 * The data collectives with ranks as threads of this JVM.
 */
class CollectiveThreadModeTest extends CollectiveContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Scenarios.runThreads(base, ranks, CollectiveScenarios.class, scenario);
    }
}
