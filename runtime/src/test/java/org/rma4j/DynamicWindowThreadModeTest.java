package org.rma4j;

/**
 * The dynamic-window contract with ranks as threads of this JVM.
 */
class DynamicWindowThreadModeTest extends DynamicWindowContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Scenarios.runThreads(base, ranks, DynamicWindowScenarios.class, scenario);
    }
}
