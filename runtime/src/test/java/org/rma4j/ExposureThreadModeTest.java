package org.rma4j;

/**
 * The exposure contract with ranks as threads of this JVM.
 */
class ExposureThreadModeTest extends ExposureContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Scenarios.runThreads(base, ranks, ExposureScenarios.class, scenario);
    }
}
