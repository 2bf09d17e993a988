package org.rma4j;

/**
 * The statistics contract with ranks as threads of this JVM.
 */
class StatisticsThreadModeTest extends StatisticsContractTest {
    @Override
    void run(final int ranks, final String scenario) {
        Scenarios.runThreads(base, ranks, StatisticsScenarios.class, scenario);
    }
}
