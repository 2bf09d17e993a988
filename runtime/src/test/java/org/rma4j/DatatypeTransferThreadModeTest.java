package org.rma4j;

/**
 * Typed put and get with ranks as threads of this JVM.
 */
class DatatypeTransferThreadModeTest extends DatatypeTransferContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Scenarios.runThreads(base, ranks, DatatypeScenarios.class, scenario);
    }
}
