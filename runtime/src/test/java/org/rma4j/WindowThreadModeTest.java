package org.rma4j;

/**
 * The window contract with ranks as threads of this JVM.
 */
class WindowThreadModeTest extends WindowContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Scenarios.runThreads(base, ranks, WindowScenarios.class, scenario);
    }
}
