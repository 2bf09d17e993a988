package org.rma4j;

/**
 * The communicator contract with ranks as threads of this JVM.
 */
class CommunicatorThreadModeTest extends CommunicatorContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Scenarios.runThreads(base, ranks, CommunicatorScenarios.class, scenario);
    }
}
