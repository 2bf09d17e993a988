package org.rma4j;

/**
 * The dynamic-window contract with ranks as real JVM processes started through the launcher.
 */
class DynamicWindowProcessModeTest extends DynamicWindowContractTest {
    @Override
    void run(final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, DynamicWindowScenarios.class, scenario);
    }
}
