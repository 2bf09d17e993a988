package org.rma4j.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The busy processes of {@code --background-load}: they run while open, die on close, and die by themselves
 * when the process they watch (the harness) is gone. The waits are generous bounds, not timings.
 */
class BackgroundLoadTest {
    @Test
    void shouldRunTheBusyProcessesUntilClosed() {
        final List<Process> processes;
        try (BackgroundLoad load = new BackgroundLoad(2)) {
            processes = load.processes();
            assertEquals(2, processes.size());
            assertTrue(processes.stream().allMatch(Process::isAlive));
            assertTrue(processes.getFirst().info().commandLine().orElse("").contains("while kill -0"),
                processes.getFirst().info().toString());
        }
        assertTrue(processes.stream().noneMatch(Process::isAlive));
        try (BackgroundLoad none = new BackgroundLoad(0)) {
            assertEquals(List.of(), none.processes());
        }
    }

    @Test
    void shouldEndByThemselvesWhenTheWatchedProcessIsGone() throws IOException, InterruptedException {
        final Process watched = new ProcessBuilder("sleep", "600").start();
        final BackgroundLoad load = new BackgroundLoad(1, watched.pid());
        try {
            final Process busy = load.processes().getFirst();
            assertTrue(busy.isAlive());
            watched.destroyForcibly();
            watched.waitFor();
            assertTrue(busy.waitFor(60, TimeUnit.SECONDS), "the busy process outlived the process it watched");
            assertFalse(busy.isAlive());
        } finally {
            load.close();
            watched.destroyForcibly();
        }
    }
}
