package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.internal.AttachChunkLayout;
import org.rma4j.internal.WindowLayout;
import org.rma4j.shm.JobDirectory;
import org.rma4j.test.ShmTestDirectory;

/**
 * The attach table of a dynamic window without a job around it: the owner's {@link AttachedRegions} over a
 * window-file block and its chunk files, read by an origin's {@link AttachView}. Covers chunk growth, the
 * change-log catch-up, the rescan after more changes than the log holds, slot reuse, and readers that look
 * regions up while the owner attaches and detaches others.
 */
class AttachTableTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    private final Arena arena = Arena.ofShared();
    private JobDirectory directory;
    private MemorySegment windowFile;
    private AttachedRegions owner;
    private AttachView view;

    @BeforeEach
    void setUp() {
        directory = JobDirectory.create(base.path());
        windowFile = arena.allocate(WindowLayout.ATTACH_BLOCK_LENGTH, 128);
        owner = new AttachedRegions(directory, windowFile, 0, "win-7", 2);
        view = new AttachView(directory, windowFile, 0, "win-7", 2);
    }

    @AfterEach
    void tearDown() {
        view.close();
        owner.close();
        arena.close();
        directory.delete();
    }

    @Test
    void shouldFindEveryRegionAcrossGrowingChunksAndAfterARescan() throws Exception {
        // 300 regions: chunks of 64, 128 and 256 slots; the view catches up once, with a rescan.
        final int regions = 300;
        for (int i = 0; i < regions; i++) {
            owner.attach(region(i), location(i));
        }
        assertEquals(regions, owner.size());
        assertTrue(Files.exists(directory.file(AttachChunkLayout.fileName("win-7", 2, 2))), "chunk 2 exists");
        for (int i = 0; i < regions; i++) {
            assertRegion(i, view.find("get", address(i) + 5));
        }
        assertNull(view.find("get", address(0) - 1), "below every region");
    }

    @Test
    void shouldCatchUpThroughTheLogAndReuseFreedSlots() {
        for (int i = 0; i < 10; i++) {
            owner.attach(region(i), location(i));
        }
        assertRegion(9, view.find("get", address(9)));
        // A few changes: the view re-reads the logged slots only.
        owner.detach(region(3));
        owner.detach(region(4));
        owner.attach(region(40), location(40));
        assertNotRegion(3, view.find("get", address(3)));
        assertRegion(40, view.find("get", address(40)));
        assertRegion(5, view.find("get", address(5)));
        // Exactly as many changes as the log holds, then one more than it holds.
        for (final int changes : new int[] {WindowLayout.ATTACH_LOG_CAPACITY - 1, WindowLayout.ATTACH_LOG_CAPACITY,
            WindowLayout.ATTACH_LOG_CAPACITY + 1}) {
            for (int c = 0; c < changes; c++) {
                final int i = 100 + c % 2;
                if (c % 2 == 0) {
                    owner.attach(region(i), location(i));
                } else {
                    owner.detach(region(i - 1));
                }
            }
            final boolean attached = changes % 2 == 1;
            if (attached) {
                assertRegion(100, view.find("get", address(100)));
                owner.detach(region(100));
            }
            assertNotRegion(100, view.find("get", address(100)));
            assertRegion(9, view.find("get", address(9)));
        }
        assertEquals(9, owner.size());
    }

    @Test
    void shouldRefuseOverlapsAndUnknownDetachesWithoutChangingTheTable() {
        owner.attach(region(1), location(1));
        final RmaException overlap = assertThrows(RmaException.class,
            () -> owner.attach(MemorySegment.ofAddress(address(1) + 8).reinterpret(4), location(1)));
        assertEquals(ErrorClass.RMA_ATTACH, overlap.errorClass());
        assertTrue(overlap.getMessage().contains("overlaps the attached region [0x" + Long.toHexString(address(1))),
            overlap.getMessage());
        final RmaException below = assertThrows(RmaException.class,
            () -> owner.attach(MemorySegment.ofAddress(address(1) - 4).reinterpret(8), location(1)));
        assertEquals(ErrorClass.RMA_ATTACH, below.errorClass());
        final RmaException unknown = assertThrows(RmaException.class, () -> owner.detach(region(2)));
        assertEquals(ErrorClass.RMA_ATTACH, unknown.errorClass());
        assertEquals(1, owner.size());
        assertRegion(1, view.find("get", address(1)));
    }

    /**
     * Readers look up stable regions while the owner attaches and detaches thousands of others (log
     * catch-ups and rescans that race with them): every lookup of a stable region finds it, whole.
     */
    @Test
    void shouldNeverMissAStableRegionWhileTheOwnerChurns() throws Exception {
        final int stable = 16;
        for (int i = 0; i < stable; i++) {
            owner.attach(region(i), location(i));
        }
        final AtomicBoolean done = new AtomicBoolean();
        final AtomicLong lookups = new AtomicLong();
        final List<Future<Void>> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            readers.add(base.submit(() -> {
                while (!done.get() || lookups.get() < stable) {
                    for (int i = 0; i < stable; i++) {
                        assertRegion(i, view.find("get", address(i) + 3));
                        lookups.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        for (int c = 0; c < 20_000; c++) {
            final int i = 1_000 + c % 500;
            if ((c / 500) % 2 == 0) {
                owner.attach(region(i), location(i));
            } else {
                owner.detach(region(i));
            }
        }
        done.set(true);
        for (final Future<Void> reader : readers) {
            reader.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        assertEquals(stable, owner.size());
    }

    /** Region i: 64 bytes at a fake address 128 * (i + 1) apart from a base, in fake file "mem-2-i". */
    private static long address(final int i) {
        return 0x10_0000L + 128L * (i + 1);
    }

    private static MemorySegment region(final int i) {
        return MemorySegment.ofAddress(address(i)).reinterpret(64);
    }

    private static SharedAllocator.Location location(final int i) {
        return new SharedAllocator.Location("mem-2-" + i, MemorySegment.NULL, 4096L * i);
    }

    private static void assertRegion(final int i, final AttachView.Region region) {
        assertNotNull(region, "region " + i);
        assertEquals(new AttachView.Region(address(i), 64, "mem-2-" + i, 4096L * i), region, "region " + i);
    }

    private static void assertNotRegion(final int i, final AttachView.Region region) {
        assertTrue(region == null || region.address() != address(i), () -> "region " + i + " is still found");
    }
}
