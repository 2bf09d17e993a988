package org.rma4j;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.ShmTestDirectory;

/**
 * Windows are prefaulted at creation ({@link WindowMemory}, {@link WindowMemory#POPULATE_MAX_PROP_NAME}), in
 * real rank processes: each process has its own page tables.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WindowPrefaultTest {
    private ShmTestDirectory base;

    @BeforeEach
    void setUp() throws Exception {
        base = new ShmTestDirectory();
    }

    @AfterEach
    void tearDown() throws Exception {
        base.close();
    }

    @Test
    void shouldMapEveryPageOfANewWindowInEveryRank() throws Exception {
        Scenarios.runProcesses(base, 2, WindowPrefaultScenarios.class, "everyPageOfANewWindowIsMapped");
    }

    @Test
    void shouldLeaveThePagesToTheirFirstAccessAboveTheLimit() throws Exception {
        Scenarios.runProcesses(base, 2, WindowPrefaultScenarios.class, "noPageIsMappedWithALimitOfZero",
            "-D" + WindowMemory.POPULATE_MAX_PROP_NAME + "=0");
    }
}
