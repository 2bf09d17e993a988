package org.rma4j.examples.mcs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.Rma;
import org.rma4j.examples.ProcessJob;
import org.rma4j.examples.mcs.McsLockDemo.Result;

/**
 * {@link McsLockDemo}: the non-atomic counter ends exact, in thread mode and with real processes.
 */
class McsLockDemoTest {
    private ProcessJob processes;

    @AfterEach
    void removeBaseDirectory() {
        if (processes != null) {
            processes.close();
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void counterIsExactWithFourRanksInThreadMode() {
        final List<Result> results = Rma.callThreads(4, job -> McsLockDemo.run(job, 2000));
        assertEquals(8000, results.getFirst().counter());
        for (int rank = 1; rank < 4; rank++) {
            assertEquals(-1, results.get(rank).counter(), "rank " + rank);
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void counterIsExactWithFourProcesses() throws InterruptedException {
        processes = new ProcessJob();
        final ProcessJob.Outcome outcome = processes.run(4, McsLockDemo.class, "500");
        assertEquals(0, outcome.result().exitCode(), outcome::transcript);
        assertTrue(
            outcome.lines().stream()
                .anyMatch(line -> line.startsWith(
                    "[0] mcs-lock: 4 ranks x 500 acquisitions, counter = 2000 (expected 2000): VERIFIED, ")),
            outcome::transcript);
    }

    @Test
    void zeroAcquisitionsLeaveTheCounterAtZero() {
        final List<Result> results = Rma.callThreads(2, job -> McsLockDemo.run(job, 0));
        assertEquals(0, results.getFirst().counter());
    }

    @Test
    void summaryLine() {
        assertEquals("mcs-lock: 4 ranks x 1000 acquisitions, counter = 4000 (expected 4000): VERIFIED, 81.2 ms",
            McsLockDemo.summary(4, 1000, 4000, 81_200_000L));
        assertEquals("mcs-lock: 1 rank x 3 acquisitions, counter = 2 (expected 3): FAILED, 0.0 ms",
            McsLockDemo.summary(1, 3, 2, 0));
    }

    @Test
    void argumentsTakeTheDefaultAndRejectGarbage() {
        assertEquals(McsLockDemo.DEFAULT_ACQUISITIONS, McsLockDemo.parseArguments(new String[0]));
        assertEquals(7, McsLockDemo.parseArguments(new String[] {" 7 "}));
        assertThrows(IllegalArgumentException.class, () -> McsLockDemo.parseArguments(new String[] {"x"}));
        assertThrows(IllegalArgumentException.class, () -> McsLockDemo.parseArguments(new String[] {"-1"}));
        assertThrows(IllegalArgumentException.class, () -> McsLockDemo.parseArguments(new String[] {"1", "2"}));
    }
}
