package org.rma4j.notify;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
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

import org.rma4j.shm.Align;
import org.rma4j.shm.FileHeader;
import org.rma4j.shm.MappedFile;
import org.rma4j.shm.Membarrier;

/**
 * Per-test fixture: a fresh private directory under /dev/shm, ring files in it (a {@link FileHeader} then
 * a ring at {@link #RING_OFFSET}), the mappings, threads and child JVMs a test made, and their removal in
 * {@link #close()} (called from {@code @AfterEach}, so also after a failure). Threads are daemons, so a
 * thread a failed test left blocked cannot keep the test JVM alive.
 */
final class RingFiles implements AutoCloseable {
    /** Where the ring starts in a ring file: after the file header's 128-byte region. */
    static final long RING_OFFSET = Align.PAD;
    /** "RMA4JNTQ" in ASCII: the magic of test ring files. */
    static final long MAGIC = 0x524D41344A4E5451L;

    /** Bound of every wait for an event in a test; hang protection, never a measured duration. */
    static final long EVENT_TIMEOUT_SECONDS = 120;

    private final Path dir;
    private final List<MappedFile> mappings = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    private final List<Path> logs = new ArrayList<>();
    private final ExecutorService executor;

    RingFiles() throws IOException {
        dir = Files.createTempDirectory(Path.of("/dev/shm"), "rma4j-notify-test-");
        executor = Executors.newCachedThreadPool(runnable -> {
            final Thread thread = new Thread(runnable, "notify-test-worker");
            thread.setDaemon(true);
            return thread;
        });
    }

    Path path(final String name) {
        return dir.resolve(name);
    }

    /**
     * Creates a ring file of {@code capacity} entries, formats the ring and publishes the file header.
     *
     * @return the creator's mapping.
     */
    synchronized MemorySegment createRing(final String name, final int capacity) {
        final MappedFile file = MappedFile.create(path(name), RING_OFFSET + NotifyRingLayout.lengthFor(capacity));
        mappings.add(file);
        NotifyRing.format(file.segment(), RING_OFFSET, capacity);
        FileHeader.publish(file.segment(), MAGIC, 1);
        return file.segment();
    }

    /**
     * Creates a file of notification lanes ({@link NotifyLanes#format}) and publishes the file header.
     *
     * @return the creator's mapping.
     */
    synchronized MemorySegment createLanes(final String name, final int lanes, final int laneCapacity) {
        return createLanes(name, lanes, laneCapacity, Membarrier.isGlobalExpeditedSupported()
            ? NotifyLanesLayout.FENCE_ASYMMETRIC : NotifyLanesLayout.FENCE_SYMMETRIC);
    }

    /**
     * {@link #createLanes(String, int, int)} in a given fence mode.
     */
    synchronized MemorySegment createLanes(
        final String name, final int lanes, final int laneCapacity, final int fenceMode) {
        final MappedFile file = MappedFile.create(path(name),
            RING_OFFSET + NotifyLanesLayout.lengthFor(lanes, laneCapacity));
        mappings.add(file);
        NotifyLanes.format(file.segment(), RING_OFFSET, lanes, laneCapacity, fenceMode);
        FileHeader.publish(file.segment(), MAGIC, 1);
        return file.segment();
    }

    /**
     * @return the mapping of a new zero-filled file of {@code sizeBytes} holding no ring.
     */
    synchronized MemorySegment createRaw(final String name, final long sizeBytes) {
        final MappedFile file = MappedFile.create(path(name), sizeBytes);
        mappings.add(file);
        return file.segment();
    }

    /**
     * @return a mapping of its own of the ring file {@code name}, as another process would have.
     */
    synchronized MemorySegment open(final String name) {
        final MappedFile file = MappedFile.open(path(name));
        mappings.add(file);
        FileHeader.check(file.segment(), file.path(), MAGIC, 1);
        return file.segment();
    }

    <T> Future<T> submit(final Callable<T> task) {
        return executor.submit(task);
    }

    /**
     * Starts a JVM running {@link RingChild} with {@code args}, the test class path and native access; its
     * output goes to a log file (see {@link #log}).
     */
    synchronized Process startChild(final String... args) throws IOException {
        final String java = ProcessHandle.current().info().command()
            .orElseThrow(() -> new IllegalStateException("cannot find the java command of this JVM"));
        final List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), RingChild.class.getName()));
        command.addAll(List.of(args));
        final Path log = dir.resolve("child-" + logs.size() + ".log");
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        processes.add(process);
        logs.add(log);
        return process;
    }

    /**
     * @return the output of the child started {@code index}-th, for failure messages.
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
    static void awaitCondition(final BooleanSupplier condition, final String what) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(EVENT_TIMEOUT_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("gave up waiting for " + what);
            }
            Thread.sleep(1);
        }
    }

    /**
     * Kills the child JVMs still running, stops the threads, unmaps the files and removes the directory.
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
        for (final MappedFile mapping : mappings) {
            try {
                mapping.close();
            } catch (final RuntimeException e) {
                // A thread of a failed test may still be in a futex call on this mapping; the mapping then
                // goes with the JVM. The file is removed below all the same.
            }
        }
        deleteTree(dir);
    }

    private static void deleteTree(final Path root) throws IOException {
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
