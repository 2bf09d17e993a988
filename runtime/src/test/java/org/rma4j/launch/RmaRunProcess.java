package org.rma4j.launch;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.rma4j.test.TestProcesses;

/**
 * Runs {@code rmarun} ({@link RmaRun}) as a JVM of its own, as {@code bin/rmarun} does, on the test class
 * path, so that a test can watch it from outside, kill it or starve it of memory.
 */
final class RmaRunProcess {
    /** JVM options of the launcher and of its ranks: quick to start, small. */
    static final List<String> SMALL_JVM = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
        "-XX:-UsePerfData", "-Xmx48m");
    /** Bound of every wait for an event in these tests; hang protection, never a measured duration. */
    static final long HANG_BOUND_SECONDS = 120;

    private RmaRunProcess() {
    }

    /**
     * @return the command running {@code rmarun --shm-dir base rmarunArgs...} with the ranks' JVMs small too.
     */
    static List<String> command(final Path base, final List<String> rmarunArgs) {
        final List<String> arguments = new ArrayList<>(List.of("--shm-dir", base.toString()));
        SMALL_JVM.forEach(option -> arguments.add("--jvm-opt=" + option));
        arguments.addAll(rmarunArgs);
        return TestProcesses.javaCommand(SMALL_JVM, RmaRun.class, arguments);
    }

    /**
     * Kills the process and its descendants, if still running, and waits for it (for finally blocks).
     */
    static void destroy(final Process process) throws InterruptedException {
        if (process == null) {
            return;
        }
        final List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
        process.waitFor(HANG_BOUND_SECONDS, TimeUnit.SECONDS);
    }
}
