package org.rma4j;

/**
 * The accumulate contract with ranks as threads of this JVM.
 */
class AccumulateThreadModeTest extends AccumulateContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Scenarios.runThreads(base, ranks, AccumulateScenarios.class, scenario);
    }
}
