package org.rma4j;

/**
 * The exposure contract with ranks as real JVM processes started through the launcher.
 */
class ExposureProcessModeTest extends ExposureContractTest {
    @Override
    void run(final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, ExposureScenarios.class, scenario);
    }
}
