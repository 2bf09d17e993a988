package org.rma4j;

/**
 * The notified-access contract with ranks as real JVM processes, with 1,000,000 notifications per
 * producer in the soak.
 */
class NotifyProcessModeTest extends NotifyContractTest {
    @Override
    void run(final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, NotifyScenarios.class, scenario, "-Drma4j.test.soak=1000000",
            "-Drma4j.test.flood=100000");
    }
}
