package org.rma4j;

/**
 * The communicator contract with ranks as real JVM processes started through the launcher.
 */
class CommunicatorProcessModeTest extends CommunicatorContractTest {
    @Override
    void run(final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, CommunicatorScenarios.class, scenario);
    }
}
