package org.rma4j;

/**
 * The pair-type contract with ranks as real JVM processes started through the launcher, with 20,000
 * iterations per rank in the races (16 pair slots each).
 */
class PairAccumulateProcessModeTest extends PairAccumulateContractTest {
    static final int OPERATIONS = 20_000;

    @Override
    void run(final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, PairAccumulateScenarios.class, scenario,
            "-D" + PairAccumulateScenarios.OPERATIONS_PROP_NAME + "=" + OPERATIONS);
    }
}
