package org.rma4j;

import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.rma4j.internal.SharedNames;
import org.rma4j.internal.WindowLayout;
import org.rma4j.shm.JobDirectory;
import org.rma4j.shm.MappedFile;
import org.rma4j.shm.Pages;
import org.rma4j.shm.ShmFormatException;
import org.rma4j.shm.Words;

/**
 * The memory of a window being created ({@link WindowCreation}, phase 3): every target's memory as this rank
 * maps it ({@link TargetMemory}), by flavor: the window file's data section (allocate, allocateShared), the job
 * files that hold the ranks' memory (create), the attached regions (dynamic). In a window across nodes only
 * the ranks of this rank's node are mapped.
 *
 * <p>What it maps it also prefaults ({@link Pages#populate}): the window file (its header, notification lanes
 * and, for allocate and allocateShared, every local rank's memory) and, for create, the other ranks' memory,
 * so that no rank takes a page fault at its first put into, or first read of, a page of a new window (a
 * notified put of an 8 KiB tile into a fresh window otherwise faults twice at its origin and twice at its
 * target). Up to {@link #POPULATE_MAX_PROP_NAME} bytes per window and rank; a larger window faults its pages in
 * at their first access, as a file mapping does by default. Up to {@link #POPULATE_STORES_MAX_PROP_NAME} bytes it
 * also stores into every page, which a hypervisor with shadow page tables needs before it maps a page for the
 * process's stores.
 */
final class WindowMemory {
    /**
     * System property: the most bytes of one window that a rank prefaults when it maps the window; a window that
     * maps more is not prefaulted at all (0: never prefault).
     */
    static final String POPULATE_MAX_PROP_NAME = "rma4j.window.populate.max";
    /**
     * Default of {@link #POPULATE_MAX_PROP_NAME}: 1 GiB, which took 0.6 s in the first process to map it (tmpfs
     * zeroes a reserved page at its first fault, which the first touches would otherwise pay) and 0.08 s in
     * each other process.
     */
    static final long POPULATE_MAX_DEFAULT = 1L << 30;
    /**
     * System property: the most bytes of one window that a rank also stores into when it prefaults them (one
     * atomic add of zero per page, {@link Pages#populate(MemorySegment, boolean)}); a larger window within
     * {@link #POPULATE_MAX_PROP_NAME} is prefaulted by the system call alone.
     */
    static final String POPULATE_STORES_MAX_PROP_NAME = "rma4j.window.populate.stores.max";
    /**
     * Default of {@link #POPULATE_STORES_MAX_PROP_NAME}: 64 MiB. Under a hypervisor with shadow page tables a
     * store per page costs about 6 µs, which the first access of each page pays otherwise (an allocate window of
     * 16 MiB per rank: creation and free took 74 ms at 2 ranks against 18 ms without the stores, 262 against 42
     * ms at 4 ranks on 2 CPUs, each rank storing into every rank's memory); up to this size that moves out of
     * the first puts, beyond it the creation would take seconds. On a host without such tables a store per page
     * costs a cache miss.
     */
    static final long POPULATE_STORES_MAX_DEFAULT = 64L << 20;

    private WindowMemory() {
    }

    /** What {@link #map} mapped: every target's memory, and this rank's own part of it. */
    record Mapped(TargetMemory memory, MemorySegment local) {
    }

    /**
     * Maps this rank's view of the window's memory: the other ranks' memory of flavor CREATE.
     *
     * @param local per rank whether its memory is on this node (a window across nodes), or null: all.
     */
    static Mapped map(final CommContext context, final String call, final WindowFlavor flavor, final MappedFile file,
        final long[] sizes, final int[] dispUnits, final String[] memoryFiles, final long[] memoryOffsets,
        final SharedAllocator.Location location, final boolean[] local) {
        final RmaJob job = context.job();
        final int ranks = sizes.length;
        final int rank = context.rank();
        final long[] dataOffsets = new long[ranks];
        for (int r = 0; r < ranks; r++) {
            dataOffsets[r] = Words.getLong(file.segment(),
                WindowLayout.rankEntryOffset(r) + WindowLayout.ENTRY_DATA_OFFSET);
        }
        switch (flavor) {
            case DYNAMIC -> {
                populate(List.of(file.segment()));
                return new Mapped(new DynamicMemory(job.directory(), file.segment(),
                    file.path().getFileName().toString(), ranks, rank), MemorySegment.NULL);
            }
            case CREATE -> {
                final TargetMemory.Fixed fixed = mapCreateMemory(context, call, file.segment(), sizes, dispUnits,
                    memoryFiles, memoryOffsets, location, local);
                return new Mapped(fixed, fixed.part(rank));
            }
            default -> {
                final MemorySegment[] mappings = new MemorySegment[ranks];
                for (int r = 0; r < ranks; r++) {
                    mappings[r] = local == null || local[r] ? file.segment() : MemorySegment.NULL;
                }
                MappingBudget.add(1);
                final TargetMemory.Fixed fixed = new TargetMemory.Fixed(mappings, dataOffsets, sizes, dispUnits,
                    () -> MappingBudget.release(1));
                populate(List.of(file.segment()));
                return new Mapped(fixed, fixed.part(rank));
            }
        }
    }

    /**
     * Maps the memory of a CREATE window: this rank's own where it is, the others' from the job files that
     * hold them (allocation files, or the files of the windows whose memory they are).
     */
    private static TargetMemory.Fixed mapCreateMemory(final CommContext context, final String call,
        final MemorySegment windowFile, final long[] sizes, final int[] dispUnits, final String[] memoryFiles,
        final long[] memoryOffsets, final SharedAllocator.Location location, final boolean[] local) {
        final int ranks = sizes.length;
        final int rank = context.rank();
        final MemorySegment[] mappings = new MemorySegment[ranks];
        final long[] starts = new long[ranks];
        final List<MappedFile> mapped = new ArrayList<>();
        final List<MemorySegment> ranges = new ArrayList<>();
        ranges.add(windowFile);
        try {
            for (int r = 0; r < ranks; r++) {
                if (sizes[r] == 0 || local != null && !local[r]) {
                    mappings[r] = MemorySegment.NULL;
                } else if (r == rank) {
                    mappings[r] = location.mapping();
                    starts[r] = location.fileOffset();
                } else {
                    final MappedFile other = openMemory(context.job().directory(), call, r, memoryFiles[r],
                        memoryOffsets[r], sizes[r]);
                    mapped.add(other);
                    mappings[r] = other.segment();
                    starts[r] = memoryOffsets[r];
                    ranges.add(other.segment().asSlice(memoryOffsets[r], sizes[r]));
                }
            }
        } catch (final RuntimeException e) {
            mapped.forEach(MappedFile::close);
            throw e;
        }
        MappingBudget.add(1 + mapped.size());
        populate(ranges);
        return new TargetMemory.Fixed(mappings, starts, sizes, dispUnits, () -> {
            mapped.forEach(MappedFile::close);
            MappingBudget.release(1 + mapped.size());
        });
    }

    /**
     * Prefaults {@code ranges} if together they hold at most {@link #POPULATE_MAX_PROP_NAME} bytes.
     */
    private static void populate(final List<MemorySegment> ranges) {
        final long bytes = ranges.stream().mapToLong(MemorySegment::byteSize).sum();
        if (bytes <= Long.getLong(POPULATE_MAX_PROP_NAME, POPULATE_MAX_DEFAULT)) {
            final boolean stores = bytes <= Long.getLong(POPULATE_STORES_MAX_PROP_NAME, POPULATE_STORES_MAX_DEFAULT);
            ranges.forEach(range -> Pages.populate(range, stores));
        }
    }

    /**
     * Maps the job file that holds rank {@code r}'s memory of a CREATE window (the caller unmaps what it
     * mapped so far when this throws).
     *
     * @throws RmaException RMA_SHARED if the file cannot be mapped or is too small for the memory.
     */
    private static MappedFile openMemory(final JobDirectory directory, final String call, final int r,
        final String name, final long offset, final long size) {
        if (!SharedNames.isJobFileName(name)) {
            throw new RmaException(ErrorClass.RMA_SHARED,
                call + " failed: rank " + r + " named '" + name + "' as its memory, not a file of the job");
        }
        RuntimeException problem;
        try {
            final MappedFile other = MappedFile.open(directory.file(name));
            final long fileBytes = other.segment().byteSize();
            if (offset >= 0 && offset <= fileBytes - size) {
                return other;
            }
            other.close();
            problem = new RmaException(ErrorClass.RMA_SHARED, call + " failed: the " + size + " bytes of rank " + r
                + " at offset " + offset + " do not fit in " + name + " of " + fileBytes + " bytes");
        } catch (final UncheckedIOException | ShmFormatException e) {
            problem = new RmaException(ErrorClass.RMA_SHARED,
                call + " failed: cannot map the memory of rank " + r + ": " + e.getMessage(), e);
        }
        throw problem;
    }

}
