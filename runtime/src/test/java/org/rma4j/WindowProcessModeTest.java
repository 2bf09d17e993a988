package org.rma4j;

/**
 * The window contract with ranks as real JVM processes started through the launcher.
 */
class WindowProcessModeTest extends WindowContractTest {
    @Override
    void run(final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, WindowScenarios.class, scenario, "-Drma4j.test.increments=10000");
    }
}
