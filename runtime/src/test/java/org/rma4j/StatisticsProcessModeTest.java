package org.rma4j;

/**
 * The statistics contract with ranks as real JVM processes started through the launcher.
 */
class StatisticsProcessModeTest extends StatisticsContractTest {
    @Override
    void run(final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, StatisticsScenarios.class, scenario);
    }
}
