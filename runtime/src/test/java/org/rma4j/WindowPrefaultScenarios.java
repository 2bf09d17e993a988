package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Programs run at both ranks of a job (see {@link WindowPrefaultTest}): which pages of a new window a rank
 * has in its page tables before it touches any, read from {@code /proc/self/pagemap} (bit 63 of a page's
 * entry: present).
 */
final class WindowPrefaultScenarios {
    private static final long PAGE = 4096;
    /** Each rank's part: 64 pages. */
    private static final long PART = 64 * PAGE;

    private WindowPrefaultScenarios() {
    }

    /** Default limit: every page of the window, its own part and the other rank's, is mapped at creation. */
    static void everyPageOfANewWindowIsMapped(final RmaJob job) {
        final Window allocated = job.allocate(PART, 1);
        assertEquals(PART / PAGE, presentPages(allocated.segment()), "own part of an allocate window");
        final Window shared = job.allocateShared(PART, 1);
        for (int r = 0; r < job.size(); r++) {
            assertEquals(PART / PAGE, presentPages(shared.sharedQuery(r).segment()),
                "part of rank " + r + " of an allocateShared window");
        }
        job.barrier();
        shared.free();
        allocated.free();
    }

    /** {@code -Drma4j.window.populate.max=0}: the other rank's part is not mapped until it is touched. */
    static void noPageIsMappedWithALimitOfZero(final RmaJob job) {
        final Window shared = job.allocateShared(PART, 1);
        final int other = 1 - job.rank();
        assertEquals(0, presentPages(shared.sharedQuery(other).segment()), "part of rank " + other);
        job.barrier();
        shared.free();
    }

    /**
     * @return how many of the pages of {@code range} (page-aligned) this process has mapped.
     */
    private static long presentPages(final MemorySegment range) {
        final long pages = range.byteSize() / PAGE;
        final ByteBuffer entries = ByteBuffer.allocate((int)(pages * Long.BYTES)).order(ByteOrder.nativeOrder());
        try (FileChannel pagemap = FileChannel.open(Path.of("/proc/self/pagemap"), StandardOpenOption.READ)) {
            long position = range.address() / PAGE * Long.BYTES;
            while (entries.hasRemaining()) {
                final int read = pagemap.read(entries, position);
                if (read < 0) {
                    throw new IOException("pagemap ended before page " + position / Long.BYTES);
                }
                position += read;
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        long present = 0;
        for (int page = 0; page < pages; page++) {
            present += entries.getLong(page * Long.BYTES) >>> 63;
        }
        return present;
    }
}
