package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * Per-test fixture: a fresh private directory under /dev/shm, the mappings, threads and child
 * processes a test made in it, and their removal in {@link #close()} (called from {@code @AfterEach},
 * so it also runs when the test failed).
 *
 * <p>Threads are daemons: a thread left blocked in a futex by a failed test cannot be interrupted, and
 * must not keep the test JVM alive.
 */
final class TestShm implements AutoCloseable {
    static final Path SHM_ROOT = Path.of("/dev/shm");
    static final String DIR_PREFIX = "rma4j-test-";

    /** Bound of every wait for an event in a test; hang protection, never a measured duration. */
    static final long EVENT_TIMEOUT_SECONDS = 60;

    private final Path dir;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    private final List<Path> logs = new ArrayList<>();
    private final ExecutorService executor;
    private int childCount;

    TestShm() throws IOException {
        dir = Files.createTempDirectory(SHM_ROOT, DIR_PREFIX);
        executor = Executors.newCachedThreadPool(runnable -> {
            final Thread thread = new Thread(runnable, "shm-test-worker");
            thread.setDaemon(true);
            return thread;
        });
    }

    Path dir() {
        return dir;
    }

    Path path(final String name) {
        return dir.resolve(name);
    }

    MappedFile create(final String name, final long sizeBytes) {
        return track(MappedFile.create(path(name), sizeBytes));
    }

    MappedFile open(final String name) {
        return track(MappedFile.open(path(name)));
    }

    /**
     * Closes {@code closeable} (a mapping or control file) when the test ends.
     */
    synchronized <T extends AutoCloseable> T track(final T closeable) {
        closeables.add(closeable);
        return closeable;
    }

    <T> Future<T> submit(final Callable<T> task) {
        return executor.submit(task);
    }

    /**
     * Starts a process of this machine (e.g. {@code true}, {@code sleep}); it is killed at the end of
     * the test if it still runs.
     */
    synchronized Process startProcess(final String... command) throws IOException {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        processes.add(process);
        return process;
    }

    /**
     * Starts a second JVM running {@link ShmChild} with {@code args}, with the test's class path and
     * native access enabled; its output goes to a log file in the test directory (see {@link #log}).
     */
    synchronized Process startChild(final String... args) throws IOException {
        final String java = ProcessHandle.current().info().command()
            .orElseThrow(() -> new IllegalStateException("cannot find the java command of this JVM"));
        final List<String> command = new ArrayList<>(List.of(
            java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
            ShmChild.class.getName()));
        command.addAll(List.of(args));
        final Path log = dir.resolve("child-" + childCount++ + ".log");
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        processes.add(process);
        logs.add(log);
        return process;
    }

    /**
     * @return the output of the child started {@code index}-th by {@link #startChild}, for failure messages.
     */
    synchronized String log(final int index) {
        try {
            return Files.readString(logs.get(index), StandardCharsets.UTF_8);
        } catch (final IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /**
     * Polls {@code condition} until it holds; fails after {@link #EVENT_TIMEOUT_SECONDS}.
     */
    static void awaitCondition(final BooleanSupplier condition, final String what) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(EVENT_TIMEOUT_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("gave up waiting for " + what);
            }
            try {
                Thread.sleep(1);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted while waiting for " + what);
            }
        }
    }

    /**
     * Kills the processes the test left running, stops its threads, unmaps its files and removes
     * the test directory with everything in it.
     */
    @Override
    public synchronized void close() throws IOException {
        for (final Process process : processes) {
            if (process.isAlive()) {
                process.destroyForcibly();
            }
            try {
                process.waitFor(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        executor.shutdownNow();
        for (final AutoCloseable closeable : closeables) {
            try {
                closeable.close();
            } catch (final Exception e) {
                // A thread of a failed test may still be inside a futex call on this mapping; the
                // mapping then goes with the JVM. The file is removed below all the same.
            }
        }
        deleteTree(dir);
    }

    static void deleteTree(final Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> entries = Files.walk(root)) {
            entries.sorted(Comparator.reverseOrder()).forEach(entry -> {
                try {
                    Files.deleteIfExists(entry);
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
