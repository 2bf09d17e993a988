package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.function.Executable;

/**
 * Programs run at both ranks of a job whose base directory is a tmpfs of {@link #TMPFS_BYTES} (see
 * {@link SharedMemorySpaceContractTest}): memory that does not fit is refused at the call with NO_MEM,
 * at every rank for the collective calls, leaves nothing behind, and the job goes on.
 */
final class SharedMemorySpaceScenarios {
    static final long MIB = 1 << 20;
    /** Size of the test's tmpfs. */
    static final long TMPFS_BYTES = 8 * MIB;
    /** Each rank's part of a window that does not fit: the two parts are twice the file system. */
    private static final long TOO_LARGE_PART = TMPFS_BYTES;
    /** What rank 0's filler leaves free before a create: less than any window file (two pages at least). */
    private static final long LEFT_FREE = 4096;
    private static final Pattern ASKED = Pattern.compile("(\\d+) bytes of shared memory asked, (\\d+) bytes free in ");

    private SharedMemorySpaceScenarios() {
    }

    static void allocateSharedLargerThanTheFileSystem(final RmaJob job) {
        assertRefusedAtEveryRank(job, "allocateShared failed", 2 * TOO_LARGE_PART,
            () -> job.allocateShared(TOO_LARGE_PART, 1));
    }

    static void allocateLargerThanTheFileSystem(final RmaJob job) {
        assertRefusedAtEveryRank(job, "allocate failed", 2 * TOO_LARGE_PART, () -> job.allocate(TOO_LARGE_PART, 1));
    }

    /**
     * A create whose window file (header, tables and notification lanes; the memory is the ranks' own) does not
     * fit in what rank 0's filler left.
     */
    static void createWithoutRoomForTheWindowFile(final RmaJob job) {
        final MemorySegment memory = job.allocMem(64);
        final MemorySegment filler = takeAllButLeftFree(job);
        assertRefusedAtEveryRank(job, "create failed", 2 * LEFT_FREE, () -> job.create(memory, 1, Info.create()),
            () -> release(job, filler));
        job.freeMem(memory);
    }

    static void createDynamicWithoutRoomForTheWindowFile(final RmaJob job) {
        final MemorySegment filler = takeAllButLeftFree(job);
        assertRefusedAtEveryRank(job, "createDynamic failed", 2 * LEFT_FREE, () -> job.createDynamic(Info.create()),
            () -> release(job, filler));
    }

    /**
     * @return at rank 0, an allocation that leaves {@link #LEFT_FREE} bytes of the file system free; null at the
     *         other ranks.
     */
    private static MemorySegment takeAllButLeftFree(final RmaJob job) {
        job.barrier();
        final MemorySegment filler = job.rank() == 0 ? job.allocMem(usableBytes(job) - LEFT_FREE) : null;
        job.barrier();
        return filler;
    }

    private static void release(final RmaJob job, final MemorySegment filler) {
        job.barrier(); // every rank has checked the files and the free space with the filler in place
        if (filler != null) {
            job.freeMem(filler);
        }
        job.barrier();
    }

    /**
     * allocMem is local: the ranks take turns, so that each sees the free space the other left.
     */
    static void allocMemLargerThanTheFileSystem(final RmaJob job) {
        for (int turn = 0; turn < job.size(); turn++) {
            job.barrier();
            if (turn == job.rank()) {
                final long free = usableBytes(job);
                final List<Path> files = files(job);
                final RmaException thrown = assertThrows(RmaException.class, () -> job.allocMem(2 * TMPFS_BYTES));
                assertNoSpace(thrown, job, "allocMem size=" + 2 * TMPFS_BYTES + " at rank " + job.rank(), free);
                assertEquals(2 * TMPFS_BYTES, asked(thrown));
                assertEquals(free, usableBytes(job), "the failed allocMem holds no space");
                assertEquals(files, files(job), "the failed allocMem left a file");
                final MemorySegment small = job.allocMem(MIB);
                small.fill((byte)1);
                job.freeMem(small);
            }
        }
        assertJobGoesOn(job);
    }

    /**
     * The space is taken when a window is created, not when it is first stored to: a window that fits in
     * what earlier windows left is refused even though nobody has stored into them yet.
     */
    static void windowAfterEarlierWindowsTookTheSpace(final RmaJob job) {
        try (Window first = job.allocateShared(3 * MIB, 1)) {
            assertRefusedAtEveryRank(job, "allocateShared failed", 2 * MIB, () -> job.allocateShared(MIB, 1));
            first.segment().fill((byte)1);
            first.fence(0);
        }
        try (Window again = job.allocateShared(3 * MIB, 1)) {
            again.segment().fill((byte)2);
            again.fence(0);
        }
    }

    /**
     * Runs a collective creation that does not fit and checks that every rank gets NO_MEM with the numbers
     * and the fix, that the attempt holds no space and left no file, and that the job goes on.
     */
    private static void assertRefusedAtEveryRank(final RmaJob job, final String what, final long leastAsked,
        final Executable creation) {
        assertRefusedAtEveryRank(job, what, leastAsked, creation, () -> {
        });
    }

    /**
     * {@link #assertRefusedAtEveryRank(RmaJob, String, long, Executable)}, running {@code release} (which gives
     * back what made the creation fail) after the checks and before the job goes on.
     */
    private static void assertRefusedAtEveryRank(final RmaJob job, final String what, final long leastAsked,
        final Executable creation, final Runnable release) {
        job.barrier();
        final long free = usableBytes(job);
        final List<Path> files = files(job);

        final RmaException thrown = assertThrows(RmaException.class, creation);

        assertNoSpace(thrown, job, what + ": rank 0 could not create the window file", free);
        assertTrue(asked(thrown) >= leastAsked, thrown::getMessage);
        job.barrier();
        assertEquals(free, usableBytes(job), "the failed creation holds no space");
        assertEquals(files, files(job), "the failed creation left a file");
        release.run();
        assertJobGoesOn(job);
    }

    private static void assertNoSpace(final RmaException thrown, final RmaJob job, final String what, final long free) {
        final String message = thrown.getMessage();
        assertEquals(ErrorClass.NO_MEM, thrown.errorClass(), message);
        assertTrue(message.startsWith("MPI_ERR_NO_MEM: " + what + ": "), message);
        assertTrue(message.contains(
            " bytes of shared memory asked, " + free + " bytes free in " + job.directory().path() + ";"), message);
        assertTrue(message.contains("rmarun --shm-dir") && message.contains("docker run --shm-size"), message);
    }

    private static long asked(final RmaException thrown) {
        final Matcher matcher = ASKED.matcher(thrown.getMessage());
        assertTrue(matcher.find(), thrown::getMessage);
        return Long.parseLong(matcher.group(1));
    }

    /**
     * A window, a put to the other rank and a fence still work after a refused call.
     */
    private static void assertJobGoesOn(final RmaJob job) {
        final int other = (job.rank() + 1) % job.size();
        try (Window window = job.allocateShared(8, 8)) {
            window.fence(0);
            window.put(new long[] {job.rank() + 10L}, 0, 1, other, 0);
            window.fence(0);
            final int left = (job.rank() + job.size() - 1) % job.size();
            assertEquals(left + 10L, window.segment().get(ValueLayout.JAVA_LONG, 0), "the put of rank " + left);
        }
    }

    private static long usableBytes(final RmaJob job) {
        try {
            return Files.getFileStore(job.directory().path()).getUsableSpace();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> files(final RmaJob job) {
        try (Stream<Path> entries = Files.list(job.directory().path())) {
            return entries.sorted().toList();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
