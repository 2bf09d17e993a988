package org.rma4j;

import org.junit.jupiter.api.Test;

/**
 * The statistics contract with ranks as real JVM processes started through the launcher with the counters on, and
 * the switch that leaves them off for a process ({@link WindowStatistics#ENABLED_PROP_NAME}, read once per JVM, off
 * by default).
 */
class StatisticsProcessModeTest extends StatisticsContractTest {
    @Override
    void run(final int ranks, final String scenario) throws Exception {
        Scenarios.runProcesses(base, ranks, StatisticsScenarios.class, scenario,
            "-D" + WindowStatistics.ENABLED_PROP_NAME + "=true");
    }

    @Test
    void shouldRefuseStatisticsInProcessesStartedWithoutTheSetting() throws Exception {
        Scenarios.runProcesses(base, 2, StatisticsScenarios.class, "refusesStatisticsWhenSwitchedOff");
    }

    @Test
    void shouldRefuseStatisticsInProcessesStartedWithTheCountersOff() throws Exception {
        Scenarios.runProcesses(base, 2, StatisticsScenarios.class, "refusesStatisticsWhenSwitchedOff",
            "-D" + WindowStatistics.ENABLED_PROP_NAME + "=false");
    }
}
