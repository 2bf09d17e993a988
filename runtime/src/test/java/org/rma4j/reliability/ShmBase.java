package org.rma4j.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.rma4j.launch.JobEnvironment;

/**
 * A private base directory under /dev/shm for the job directories of one test (the idea of
 * {@code org.rma4j.ShmTestDirectory}). Registered as a JUnit extension on an instance field, it creates the
 * directory before each test and checks after it that the test's jobs left nothing in it, then kills any
 * process still working in it (only after a failed test) and removes it with all it holds.
 */
final class ShmBase implements BeforeEachCallback, AfterEachCallback {
    private Path path;

    @Override
    public void beforeEach(final ExtensionContext context) throws IOException {
        path = Files.createTempDirectory(Path.of("/dev/shm"), "rma4j-reliability-");
    }

    Path path() {
        return path;
    }

    /**
     * @return what is left in the base directory.
     */
    List<Path> entries() {
        try (Stream<Path> entries = Files.list(path)) {
            return entries.sorted().toList();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void assertEmpty(final String context) {
        assertEquals(List.of(), entries(), () -> "files left behind " + context);
    }

    @Override
    public void afterEach(final ExtensionContext context) {
        if (path == null) {
            return;
        }
        try {
            killStrays();
            assertEquals(List.of(), entries(), "the test's jobs left files behind");
        } finally {
            remove();
        }
    }

    /**
     * Kills every process (not this one) that is a rank of a job under this base directory or a launcher
     * told to use it.
     */
    void killStrays() {
        final List<ProcessHandle> strays = ProcessHandle.allProcesses().filter(this::belongsHere).toList();
        strays.forEach(ProcessHandle::destroyForcibly);
        for (final ProcessHandle stray : strays) {
            try {
                stray.onExit().get(5, TimeUnit.SECONDS);
            } catch (final Exception ignored) {
                // best effort: the directory is removed anyway
            }
        }
    }

    /**
     * Whether {@code process} is a rank of a job under this base directory (its environment names a job
     * directory here) or a launcher whose arguments name it.
     */
    boolean belongsHere(final ProcessHandle process) {
        if (process.pid() == ProcessHandle.current().pid()) {
            return false;
        }
        final String base = path.toString();
        if (process.info().arguments().map(args -> List.of(args).contains(base)).orElse(false)) {
            return true;
        }
        return environment(process.pid()).contains(JobEnvironment.JOB_DIR + "=" + base + "/");
    }

    /**
     * Whether {@code process} is a rank JVM of a job under this base directory: its environment names a job
     * directory here. (A launcher's child between fork and exec still shows the launcher's command line.)
     */
    boolean isRank(final ProcessHandle process) {
        return environment(process.pid()).contains(JobEnvironment.JOB_DIR + "=" + path + "/");
    }

    /**
     * @return the environment block of a process ("" if unreadable).
     */
    static String environment(final long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "environ"), StandardCharsets.ISO_8859_1);
        } catch (final IOException | UncheckedIOException e) {
            return "";
        }
    }

    /**
     * @return the rank a process was started as (its {@code RMA4J_RANK}), or -1.
     */
    static int rankOf(final long pid) {
        for (final String variable : environment(pid).split("\0")) {
            if (variable.startsWith(JobEnvironment.RANK + "=")) {
                return Integer.parseInt(variable.substring(JobEnvironment.RANK.length() + 1));
            }
        }
        return -1;
    }

    /**
     * Whether a process exists and is not a zombie.
     */
    static boolean isRunning(final long pid) {
        try {
            final String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (final IOException e) {
            return false;
        }
    }

    private void remove() {
        try (Stream<Path> tree = Files.walk(path)) {
            for (final Path entry : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(entry);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
