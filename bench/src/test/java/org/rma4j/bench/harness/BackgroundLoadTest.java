package org.rma4j.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * The busy processes of {@code --background-load}: they run while open, die on close, die with the JVM that
 * started them when it is stopped (its shutdown hook), and die by themselves when the process they watch (the
 * harness) is gone. The waits are generous bounds, not timings.
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
    void shouldKillTheBusyProcessesWhenTheJvmThatStartedThemIsStopped() throws IOException, InterruptedException {
        // The busy processes watch this test's JVM, which stays: only the child's shutdown hook can end them.
        final Process child = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "-cp",
            System.getProperty("java.class.path"), BackgroundLoadChild.class.getName(), "2",
            Long.toString(ProcessHandle.current().pid())).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        final List<ProcessHandle> busy = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(
            new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null && !line.equals("ready"); line = out.readLine()) {
                busy.add(ProcessHandle.of(Long.parseLong(line)).orElseThrow());
            }
            assertEquals(2, busy.size());
            assertTrue(busy.stream().allMatch(ProcessHandle::isAlive));
            child.destroy(); // SIGTERM, as Ctrl-C or kill would send
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM did not stop");
            for (final ProcessHandle p : busy) {
                p.onExit().get(60, TimeUnit.SECONDS);
                assertFalse(p.isAlive(), p + " outlived the JVM that started it");
            }
        } catch (final ExecutionException | TimeoutException e) {
            throw new AssertionError("a busy process outlived the JVM that started it", e);
        } finally {
            child.destroyForcibly();
            busy.forEach(ProcessHandle::destroyForcibly);
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
