package org.rma4j.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * CPU-bound background processes for the loaded section ({@code --background-load N}): N shells each
 * running a busy loop, the equivalent of {@code while :; do :; done}, for as long as this object is open.
 *
 * <p>They are killed on every way out of the harness: {@link #close()} (try-with-resources, also when a step
 * fails), a shutdown hook (Ctrl-C, SIGTERM, {@code System.exit}), and, should the harness die by SIGKILL,
 * by themselves: between two stretches of 200 000 loop iterations (a fraction of a second) each checks
 * with {@code kill -0} that the process it watches (the harness) still exists and exits if not.
 */
final class BackgroundLoad implements AutoCloseable {
    /**
     * The busy loop; {@code $0} is the pid to watch. dash and bash evaluate the inner loop without starting
     * a process, so it only burns CPU.
     */
    static final String LOOP = "while kill -0 \"$0\" 2>/dev/null; do n=0; while [ \"$n\" -lt 200000 ]; "
        + "do n=$((n + 1)); done; done";

    /** Every process of every open instance, for the shutdown hook. */
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(
            new Thread(() -> LIVE.forEach(Process::destroyForcibly), "rma4j-bench-background-load-killer"));
    }

    private final List<Process> processes = new ArrayList<>();

    /**
     * Starts {@code count} busy processes that watch this JVM.
     */
    BackgroundLoad(final int count) {
        this(count, ProcessHandle.current().pid());
    }

    /**
     * Starts {@code count} busy processes that exit by themselves once process {@code watchedPid} is gone.
     *
     * @throws UncheckedIOException if one cannot start (those already started are killed).
     */
    BackgroundLoad(final int count, final long watchedPid) {
        try {
            for (int i = 0; i < count; i++) {
                final Process process = new ProcessBuilder("sh", "-c", LOOP, Long.toString(watchedPid))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                processes.add(process);
                LIVE.add(process);
            }
        } catch (final IOException e) {
            close();
            throw new UncheckedIOException("cannot start a background load process", e);
        }
    }

    /**
     * @return the processes, for tests.
     */
    List<Process> processes() {
        return List.copyOf(processes);
    }

    /**
     * Kills the processes and waits (up to 10 s each) until they are gone. Idempotent.
     */
    @Override
    public void close() {
        for (final Process process : processes) {
            process.destroyForcibly();
        }
        for (final Process process : processes) {
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            LIVE.remove(process);
        }
    }
}
