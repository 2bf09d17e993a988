package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rma4j.AccumulateScenarios.expect;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The programs of the exposure contract tests ({@link ExposureContractTest}): {@code create} and
 * {@code attach} over any memory in a shared mapping of the job (MPI allows a window over any memory,
 * MPI-3.1 section 11.2.1): another window's segment, another rank's part of a shared window, a slice of an
 * {@code allocMem} region; and the refusal of memory no other process can map, naming its address.
 */
final class ExposureScenarios {
    private ExposureScenarios() {
    }

    /**
     * Every rank creates windows over memory of an {@code allocateShared} window (its own part, and its
     * right neighbour's part through shared_query), of an {@code allocate} window and over a slice of an
     * allocMem region, puts into each from its left neighbour and finds the bytes where the memory lives;
     * a dynamic window takes the same kinds of memory through attach.
     */
    static void createOverSharedMappings(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int left = (me + n - 1) % n;
        final int right = (me + 1) % n;
        final MemorySegment allocation = job.allocMem(256);
        try (Window shared = job.allocateShared(64, 8); Window allocated = job.allocate(48, 8)) {
            shared.segment().fill((byte)0);
            allocated.segment().fill((byte)0);
            job.barrier();
            final MemorySegment rightsPart = shared.sharedQuery(right).segment();
            final MemorySegment slice = allocation.asSlice(24, 40);
            try (Window overOwn = job.create(shared.segment().asSlice(16, 32), 8, null);
                Window overRights = job.create(rightsPart.asSlice(8, 16), 8, null);
                Window overAllocated = job.create(allocated.segment(), 8, null);
                Window overSlice = job.create(slice, 8, null)) {
                assertEquals(shared.segment().address() + 16, overOwn.segment().address(), "MPI_WIN_BASE is the base");
                assertEquals(32, overOwn.size());
                overOwn.fence(0);
                overRights.fence(0);
                overAllocated.fence(0);
                overSlice.fence(0);
                overOwn.put(new long[] {100 + me}, 0, 1, right, 1);
                overRights.put(new long[] {200 + me}, 0, 1, right, 1);
                overAllocated.put(new long[] {300 + me, 301 + me}, 0, 2, right, 4);
                overSlice.put(new long[] {400 + me}, 0, 1, right, 4);
                overOwn.fence(0);
                overRights.fence(0);
                overAllocated.fence(0);
                overSlice.fence(0);
                // overOwn of rank r is its shared part from byte 16: the left neighbour's put is at byte 24.
                assertEquals(100 + left, shared.segment().get(ValueLayout.JAVA_LONG, 24));
                // overRights of rank r is rank r+1's shared part from byte 8, so the left neighbour's put
                // into it (word 1) is at byte 16 of this rank's right neighbour's part.
                assertEquals(200 + left, rightsPart.get(ValueLayout.JAVA_LONG, 16));
                assertEquals(300 + left, allocated.segment().get(ValueLayout.JAVA_LONG, 32));
                assertEquals(301 + left, allocated.segment().get(ValueLayout.JAVA_LONG, 40));
                assertEquals(400 + left, allocation.get(ValueLayout.JAVA_LONG, 24 + 32));
                final long[] back = new long[1];
                overSlice.get(back, 0, 1, right, 4);
                assertEquals(400 + me, back[0], "get through the slice window");
                overSlice.fence(0);
            }
            try (Window dynamic = job.createDynamic(null); Window addresses = job.allocateShared(16, 8)) {
                dynamic.attach(allocated.segment().asSlice(8, 16));
                dynamic.attach(slice);
                addresses.segment().set(ValueLayout.JAVA_LONG, 0, Rma.address(allocated.segment()) + 8);
                addresses.segment().set(ValueLayout.JAVA_LONG, 8, Rma.address(slice));
                job.barrier();
                final MemorySegment rights = addresses.sharedQuery(right).segment();
                dynamic.lockAll();
                dynamic.accumulate(MemorySegment.ofArray(new long[] {5}), 1, Datatype.LONG, right,
                    rights.get(ValueLayout.JAVA_LONG, 0) + 8, 1, Datatype.LONG, Op.SUM);
                dynamic.put(new long[] {500 + me}, 0, 1, right, rights.get(ValueLayout.JAVA_LONG, 8));
                dynamic.unlockAll();
                job.barrier();
                assertEquals(5, allocated.segment().get(ValueLayout.JAVA_LONG, 16),
                    "accumulate into attached window memory");
                assertEquals(500 + left, slice.get(ValueLayout.JAVA_LONG, 0));
                job.barrier();
                dynamic.detach(allocated.segment().asSlice(8, 16));
                dynamic.detach(slice);
            }
            job.barrier();
        }
        job.freeMem(allocation);
    }

    /**
     * Memory no other process can map is refused, naming its address: a Java array and a private arena
     * (BASE for create at every rank, RMA_ATTACH for attach); and the bytes of a window file outside its
     * ranks' memory (its header), and a segment that runs past the end of an allocation.
     */
    static void refuseUnmappableMemory(final RmaJob job) {
        final MemorySegment allocation = job.allocMem(64);
        try (Arena arena = Arena.ofConfined();
            Window shared = job.allocateShared(64, 8);
            Window dynamic = job.createDynamic(null)) {
            final MemorySegment heap = MemorySegment.ofArray(new long[8]);
            final MemorySegment arenaMemory = arena.allocate(64, 8);
            final MemorySegment header = MemorySegment.ofAddress(shared.segment().address() - 4096).reinterpret(64);
            final MemorySegment pastTheEnd = MemorySegment.ofAddress(allocation.address() + 32).reinterpret(64);
            for (final MemorySegment memory : List.of(heap, arenaMemory, header, pastTheEnd)) {
                final String address = "[0x" + Long.toHexString(memory.address()) + ", +" + memory.byteSize() + ")";
                expect(ErrorClass.BASE, () -> job.create(memory, 8, null), "create base " + address,
                    "is not in a shared mapping of the job");
                expect(ErrorClass.RMA_ATTACH, () -> dynamic.attach(memory), "attach of " + address,
                    "no other process can map it");
            }
            expect(ErrorClass.BASE, () -> job.create(heap, 8, null), "a Java heap array never can");
            // Every rank passed the same bad memory: the job goes on.
            try (Window good = job.create(allocation, 8, null)) {
                assertEquals(64, good.size());
            }
        }
        job.freeMem(allocation);
    }

    /**
     * An allocate or allocateShared window keeps its file in the job directory while it lives (ranks that
     * create over its memory later map it from there) and removes it when freed; a create or dynamic
     * window's file is removed at once, as before.
     */
    static void windowFilesLiveWithTheirWindows(final RmaJob job) {
        job.barrier();
        final List<String> before = windowFiles(job);
        final Window shared = job.allocateShared(64, 8);
        final Window allocated = job.allocate(64, 8);
        final Window dynamic = job.createDynamic(null);
        job.barrier();
        final List<String> during = windowFiles(job);
        assertEquals(before.size() + 2, during.size(), () -> "window files while the windows live: " + during);
        job.barrier();
        dynamic.free();
        allocated.free();
        shared.free();
        job.barrier();
        assertEquals(before, windowFiles(job), "window files after the windows were freed");
        assertFalse(during.isEmpty());
        assertTrue(during.stream().allMatch(name -> name.startsWith("win-")), during::toString);
    }

    private static List<String> windowFiles(final RmaJob job) {
        try (Stream<Path> entries = Files.list(job.directory().path())) {
            return entries.map(path -> path.getFileName().toString()).filter(name -> name.startsWith("win-")).sorted()
                .toList();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
