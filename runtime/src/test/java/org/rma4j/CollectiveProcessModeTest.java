package org.rma4j;

/**
 * The data collectives with ranks as real JVM processes started through the launcher.
 */
class CollectiveProcessModeTest extends CollectiveContractTest {
    @Override
    void run(final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, CollectiveScenarios.class, scenario);
    }
}
