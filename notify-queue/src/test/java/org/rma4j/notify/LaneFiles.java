package org.rma4j.notify;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;

import org.rma4j.shm.Align;
import org.rma4j.shm.FileHeader;
import org.rma4j.shm.MappedFile;
import org.rma4j.shm.Membarrier;
import org.rma4j.test.ShmTestDirectory;

/**
 * Lane files (a {@link FileHeader} then notification lanes at {@link #LANES_OFFSET}) in a test's {@link ShmTestDirectory},
 * which holds the mappings, threads and child JVMs of the test and removes them in {@link #close()} (called
 * from {@code @AfterEach}, so also after a failure).
 */
final class LaneFiles implements AutoCloseable {
    /** Where the lanes start in a lanes file: after the file header's 128-byte region. */
    static final long LANES_OFFSET = Align.PAD;
    /** "RMA4JNTQ" in ASCII: the magic of test lane files. */
    static final long MAGIC = 0x524D41344A4E5451L;
    /** Layout version of test lane files. */
    static final int VERSION = 1;

    private final ShmTestDirectory shm = new ShmTestDirectory("rma4j-notify-test-");

    Path path(final String name) {
        return shm.path(name);
    }

    /**
     * Creates a file of notification lanes ({@link NotifyLanes#format}) and publishes the file header.
     *
     * @return the creator's mapping.
     */
    MemorySegment createLanes(final String name, final int lanes, final int laneCapacity) {
        return createLanesPolled(name, lanes, laneCapacity, NotifyLanesLayout.pollModeFor(lanes));
    }

    /**
     * {@link #createLanes(String, int, int)} in a given fence mode.
     */
    MemorySegment createLanes(final String name, final int lanes, final int laneCapacity, final int fenceMode) {
        return createLanes(name, lanes, laneCapacity, fenceMode, NotifyLanesLayout.pollModeFor(lanes));
    }

    /**
     * {@link #createLanes(String, int, int)} in a given fence mode and poll mode.
     */
    MemorySegment createLanes(final String name, final int lanes, final int laneCapacity, final int fenceMode,
        final int pollMode) {
        final MappedFile file = shm
            .track(MappedFile.create(path(name), LANES_OFFSET + NotifyLanesLayout.lengthFor(lanes, laneCapacity)));
        NotifyLanes.format(file.segment(), LANES_OFFSET, lanes, laneCapacity, fenceMode, pollMode);
        FileHeader.publish(file.segment(), MAGIC, VERSION);
        return file.segment();
    }

    /**
     * {@link #createLanes(String, int, int)} in a given poll mode ({@link NotifyLanesLayout#POLL_SUMMARY} or
     * {@link NotifyLanesLayout#POLL_STAMPS}).
     */
    MemorySegment createLanesPolled(final String name, final int lanes, final int laneCapacity, final int pollMode) {
        return createLanes(name, lanes, laneCapacity,
            Membarrier.isGlobalExpeditedSupported()
                ? NotifyLanesLayout.FENCE_ASYMMETRIC
                : NotifyLanesLayout.FENCE_SYMMETRIC,
            pollMode);
    }

    /**
     * @return the mapping of a new zero-filled file of {@code sizeBytes} holding no lanes.
     */
    MemorySegment createRaw(final String name, final long sizeBytes) {
        return shm.track(MappedFile.create(path(name), sizeBytes)).segment();
    }

    /**
     * @return a mapping of its own of the lanes file {@code name}, as another process would have.
     */
    MemorySegment open(final String name) {
        final MappedFile file = shm.track(MappedFile.open(path(name)));
        FileHeader.check(file.segment(), file.path(), MAGIC, VERSION);
        return file.segment();
    }

    <T> Future<T> submit(final Callable<T> task) {
        return shm.submit(task);
    }

    /**
     * Starts a JVM running {@link LaneChild} with {@code args} (see {@link ShmTestDirectory#startJvm}).
     */
    Process startChild(final String... args) throws IOException {
        return shm.startJvm(LaneChild.class, args);
    }

    /**
     * @return the output of the child started {@code index}-th, for failure messages.
     */
    String log(final int index) {
        return shm.log(index);
    }

    /**
     * Kills the child JVMs still running, stops the threads, unmaps the files and removes the directory.
     */
    @Override
    public void close() throws IOException {
        shm.close();
    }
}
