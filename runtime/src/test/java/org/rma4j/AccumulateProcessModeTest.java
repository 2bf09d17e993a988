package org.rma4j;

/**
 * The accumulate contract with ranks as real JVM processes started through the launcher, with
 * 100,000 operations per rank in the races.
 */
class AccumulateProcessModeTest extends AccumulateContractTest {
    static final int INCREMENTS = 100_000;

    @Override
    void run(final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, AccumulateScenarios.class, scenario,
            "-D" + AccumulateScenarios.INCREMENTS_PROP_NAME + "=" + INCREMENTS);
    }
}
