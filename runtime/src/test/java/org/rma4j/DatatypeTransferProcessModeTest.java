package org.rma4j;

/**
 * Typed put and get with ranks as real JVM processes started through the launcher.
 */
class DatatypeTransferProcessModeTest extends DatatypeTransferContractTest {
    @Override
    void run(final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, DatatypeScenarios.class, scenario);
    }
}
