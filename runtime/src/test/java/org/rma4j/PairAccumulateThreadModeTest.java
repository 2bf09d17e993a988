package org.rma4j;

/**
 * The pair-type contract with ranks as threads of this JVM.
 */
class PairAccumulateThreadModeTest extends PairAccumulateContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Scenarios.runThreads(base, ranks, PairAccumulateScenarios.class, scenario);
    }
}
