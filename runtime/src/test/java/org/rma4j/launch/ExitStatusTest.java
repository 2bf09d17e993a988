package org.rma4j.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ExitStatusTest {
    @Test
    void shouldDescribeANormalExitStatusByItsNumber() {
        assertEquals("status 3", ExitStatus.describe(3));
        assertEquals("status 128", ExitStatus.describe(128));
        assertEquals("status 255", ExitStatus.describe(255));
    }

    @Test
    void shouldDescribeStatusAbove128AsDeathBySignal() {
        assertEquals("status 137, killed by signal 9 (SIGKILL)", ExitStatus.describe(137));
        assertEquals("status 143, killed by signal 15 (SIGTERM)", ExitStatus.describe(143));
        assertEquals("status 134, killed by signal 6 (SIGABRT)", ExitStatus.describe(134));
        assertEquals("status 130, killed by signal 2 (SIGINT)", ExitStatus.describe(130));
        assertEquals("status 164, killed by signal 36 (SIGRTMIN+2)", ExitStatus.describe(164));
    }
}
