package org.rma4j;

/**
 * The allocMem exposure contract with ranks as threads of this JVM.
 */
class AllocMemThreadModeTest extends AllocMemContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Scenarios.runThreads(base, ranks, AllocMemScenarios.class, scenario);
    }
}
