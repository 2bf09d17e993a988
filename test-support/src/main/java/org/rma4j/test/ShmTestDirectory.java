package org.rma4j.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A private directory under /dev/shm (the temporary directory where there is none) for one test: the shared
 * files or job directories the test makes in it, the mappings, threads and child processes it made, and
 * their removal in {@link #close()}.
 *
 * <p>Two ways to use it:
 * <ul>
 *   <li>Registered as a JUnit extension on an instance field ({@code @RegisterExtension final
 *   ShmTestDirectory base = new ShmTestDirectory();}): after each test it kills the processes still working
 *   in the directory (only after a failed test), checks that the test left nothing in it, and removes it,
 *   also when the test failed.</li>
 *   <li>Created in {@code @BeforeEach} and closed in {@code @AfterEach}: {@link #close()} cleans up without
 *   checking.</li>
 * </ul>
 *
 * <p>Threads of {@link #submit} are daemons: a thread left blocked in a futex by a failed test cannot be
 * interrupted, and must not keep the test JVM alive. Thread-safe.
 */
public final class ShmTestDirectory implements AutoCloseable, BeforeEachCallback, AfterEachCallback {
    /** The machine's shared-memory file system. */
    public static final Path SHM_ROOT = Path.of("/dev/shm");
    /** Prefix of the directory's name unless a test gives its own. */
    public static final String DEFAULT_PREFIX = "rma4j-test-";
    /** Bound of every wait for an event in a test; hang protection, never a measured duration. */
    public static final long EVENT_TIMEOUT_SECONDS = 120;

    private final String prefix;
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    private final List<Path> logs = new ArrayList<>();
    private ExecutorService executor;
    private Path path;
    private boolean closed;

    /**
     * Creates a directory named {@code rma4j-test-*}.
     */
    public ShmTestDirectory() {
        this(DEFAULT_PREFIX);
    }

    /**
     * Creates a directory named {@code <prefix>*}.
     */
    public ShmTestDirectory(final String prefix) {
        this.prefix = prefix;
        this.path = createDirectory(prefix);
    }

    private static Path createDirectory(final String prefix) {
        final Path parent = Files.isDirectory(SHM_ROOT) && Files.isWritable(SHM_ROOT)
            ? SHM_ROOT
            : Path.of(System.getProperty("java.io.tmpdir"));
        try {
            return Files.createTempDirectory(parent, prefix);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @return the directory.
     */
    public synchronized Path path() {
        return path;
    }

    /**
     * @return the path of {@code name} in the directory.
     */
    public synchronized Path path(final String name) {
        return path.resolve(name);
    }

    /**
     * Closes {@code closeable} (a mapping, a control file, ...) when the test ends, before the directory is
     * removed.
     *
     * @return {@code closeable}.
     */
    public synchronized <T extends AutoCloseable> T track(final T closeable) {
        closeables.add(closeable);
        return closeable;
    }

    /**
     * Runs {@code task} on a daemon thread that is abandoned when the test ends.
     */
    public synchronized <T> Future<T> submit(final Callable<T> task) {
        if (executor == null) {
            executor = Executors.newCachedThreadPool(runnable -> {
                final Thread thread = new Thread(runnable, "shm-test-worker");
                thread.setDaemon(true);
                return thread;
            });
        }
        return executor.submit(task);
    }

    /**
     * Starts a process of this machine (e.g. {@code true}, {@code sleep}) with its output discarded; it is
     * killed at the end of the test if it still runs.
     */
    public synchronized Process startProcess(final String... command) throws IOException {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        processes.add(process);
        return process;
    }

    /**
     * Starts a child JVM running {@code mainClass} with {@code args} ({@link TestProcesses#javaCommand}); its
     * output goes to a log file in the directory (see {@link #log}), and it is killed at the end of the test
     * if it still runs.
     */
    public synchronized Process startJvm(final Class<?> mainClass, final String... args) throws IOException {
        final Path log = path.resolve("child-" + logs.size() + ".log");
        final Process process = new ProcessBuilder(TestProcesses.javaCommand(mainClass, args)).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        processes.add(process);
        logs.add(log);
        return process;
    }

    /**
     * @return the output of the JVM started {@code index}-th by {@link #startJvm}, for failure messages.
     */
    public synchronized String log(final int index) {
        try {
            return Files.readString(logs.get(index), StandardCharsets.UTF_8);
        } catch (final IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /**
     * @return what the test left in the directory, sorted (the logs of {@link #startJvm} excepted).
     */
    public synchronized List<Path> entries() {
        try (Stream<Path> entries = Files.list(path)) {
            return entries.filter(entry -> !logs.contains(entry)).sorted().toList();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @return the entries whose name starts with {@code namePrefix}, sorted.
     */
    public List<Path> entries(final String namePrefix) {
        return entries().stream().filter(entry -> entry.getFileName().toString().startsWith(namePrefix)).toList();
    }

    /**
     * Asserts that the directory is empty (the logs of {@link #startJvm} excepted).
     *
     * @param context what should have left nothing, for the failure message, e.g. "by the soak".
     */
    public void assertEmpty(final String context) {
        assertEquals(List.of(), entries(), () -> "files left behind " + context);
    }

    /**
     * Asserts that no entry whose name starts with {@code namePrefix} is left in the directory.
     */
    public void assertNoEntryLeft(final String namePrefix) {
        assertEquals(List.of(), entries(namePrefix), () -> "entries " + namePrefix + "* left in " + path());
    }

    /**
     * Polls {@code condition} until it holds; fails after {@link #EVENT_TIMEOUT_SECONDS}.
     */
    public static void awaitCondition(final BooleanSupplier condition, final String what) {
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
     * Kills every process (not this one, started by anyone) that works in the directory: its arguments name
     * the directory, or a variable of its environment names a path in it (e.g. a job directory). A rank
     * orphaned by a launcher that died is no descendant of this JVM, hence the search of all processes.
     */
    public void killStrays() {
        final List<ProcessHandle> strays = ProcessHandle.allProcesses().filter(this::belongsHere).toList();
        strays.forEach(ProcessHandle::destroyForcibly);
        for (final ProcessHandle stray : strays) {
            try {
                stray.onExit().get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (final Exception ignored) {
                // best effort: the directory is removed anyway
            }
        }
    }

    /**
     * Whether {@code process} (not this one) works in the directory: its arguments name it, or a variable of
     * its environment names a path in it.
     */
    public boolean belongsHere(final ProcessHandle process) {
        if (process.pid() == ProcessHandle.current().pid()) {
            return false;
        }
        final String base = path().toString();
        if (process.info().arguments().map(args -> List.of(args).contains(base)).orElse(false)) {
            return true;
        }
        return TestProcesses.environment(process.pid()).contains("=" + base + "/");
    }

    @Override
    public synchronized void beforeEach(final ExtensionContext context) {
        if (closed) {
            path = createDirectory(prefix);
            closed = false;
        }
    }

    /**
     * Kills the processes still working in the directory, checks that the test left nothing in it, and
     * removes it, whatever the outcome.
     */
    @Override
    public void afterEach(final ExtensionContext context) {
        try {
            killStrays();
            assertEquals(List.of(), entries(), "the test left files behind");
        } finally {
            close();
        }
    }

    /**
     * Kills the processes the test started or left working in the directory, stops its threads, closes what
     * it tracked, and removes the directory with everything in it. A second call does nothing.
     *
     * @throws UncheckedIOException if the directory cannot be removed.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
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
        processes.clear();
        killStrays();
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
        for (final AutoCloseable closeable : closeables) {
            try {
                closeable.close();
            } catch (final Exception e) {
                // A thread of a failed test may still be inside a futex call on this mapping; the mapping then
                // goes with the JVM. The file is removed below all the same.
            }
        }
        closeables.clear();
        logs.clear();
        try {
            deleteTree(path);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot remove the test directory " + path, e);
        }
    }

    /**
     * Removes {@code root} and everything under it, following no symbolic link; nothing if it is gone.
     */
    public static void deleteTree(final Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> entries = Files.walk(root)) {
            for (final Path entry : entries.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(entry);
            }
        }
    }
}
