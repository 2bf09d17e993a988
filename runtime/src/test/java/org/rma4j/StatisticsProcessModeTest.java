package org.rma4j;

import org.junit.jupiter.api.Test;

/**
 * The statistics contract with ranks as real JVM processes started through the launcher, and the switch that
 * turns the counters off for a process ({@link WindowStatistics#ENABLED_PROP_NAME}, read once per JVM).
 */
class StatisticsProcessModeTest extends StatisticsContractTest {
    @Override
    void run(final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, StatisticsScenarios.class, scenario);
    }

    @Test
    void shouldRefuseStatisticsInProcessesStartedWithTheCountersOff() throws Exception {
        Scenarios.runProcesses(base, 2, StatisticsScenarios.class, "refusesStatisticsWhenSwitchedOff",
            "-D" + WindowStatistics.ENABLED_PROP_NAME + "=false");
    }
}
