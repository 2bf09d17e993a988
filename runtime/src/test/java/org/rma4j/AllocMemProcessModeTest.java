package org.rma4j;

/**
 * The allocMem exposure contract with ranks as real JVM processes started through the launcher.
 */
class AllocMemProcessModeTest extends AllocMemContractTest {
    @Override
    void run(final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, AllocMemScenarios.class, scenario);
    }
}
