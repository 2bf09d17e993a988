package org.rma4j;

import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.TreeMap;
import org.rma4j.shm.JobDirectory;
import org.rma4j.shm.MappedFile;
import org.rma4j.shm.ShmSpaceException;

/**
 * The shared memory of one rank that other ranks can map, and its allocator (MPI_ALLOC_MEM /
 * MPI_FREE_MEM, MPI-3.1 section 8.2): every allocation is a file {@code mem-<rank>-<seq>} of the job
 * directory, mapped by the allocating rank and, when exposed through {@link RmaJob#create} or
 * {@link Window#attach}, by the ranks that access it. The file stays linked until {@link #free} or the
 * end of the job, because a dynamic window may expose it to a rank that maps it later. The data sections
 * of this rank's live {@code allocate} and {@code allocateShared} windows are exposable too
 * ({@link #expose}): their files stay linked while the window lives, so that {@code create} and
 * {@code attach} can put a window over another window's memory (MPI allows windows over any memory).
 * {@link #locate} finds the file and offset of any piece of such memory; memory outside all of them (a
 * Java array, a private arena) no other process can map.
 *
 * <p>Thread-safe.
 */
final class SharedAllocator {
    /**
     * Where an exposed piece of memory lives: the job file that holds it, its mapping here (the whole
     * file) and the offset in the file.
     */
    record Location(String fileName, MemorySegment mapping, long fileOffset) {
    }

    private final JobDirectory directory;
    private final int rank;
    private final TreeMap<Long, Allocation> byAddress = new TreeMap<>();
    /** The window files with exposable data, by mapping address. */
    private final TreeMap<Long, Exposed> windows = new TreeMap<>();
    private int sequence;

    private record Allocation(int sequence, MappedFile file) {
    }

    /** A window file whose bytes from {@code dataStart} to its end are the ranks' window memory. */
    private record Exposed(String fileName, MemorySegment mapping, long dataStart) {
    }

    SharedAllocator(final JobDirectory directory, final int rank) {
        this.directory = directory;
        this.rank = rank;
    }

    static String fileName(final int rank, final int sequence) {
        return "mem-" + rank + "-" + sequence;
    }

    /**
     * @return a new zero-filled segment of {@code sizeBytes} in a shared file, all of whose storage is
     *         reserved.
     * @throws RmaException NO_MEM if the job's file system has too little free space, OTHER if the file
     *                      cannot be created for another reason.
     */
    synchronized MemorySegment allocate(final long sizeBytes) {
        MappingBudget.acquire("allocMem", 1);
        final int seq = sequence++;
        // Whole 8-byte words, so an atomic update of the last element never reads past the file.
        final long fileBytes = Math.max((sizeBytes + 7) & ~7L, 8);
        final MappedFile file;
        try {
            file = MappedFile.create(directory.file(fileName(rank, seq)), fileBytes);
        } catch (final ShmSpaceException e) {
            MappingBudget.release(1);
            throw SharedFileErrors.noSpace("allocMem size=" + sizeBytes + " at rank " + rank, e);
        } catch (final UncheckedIOException e) {
            MappingBudget.release(1);
            throw new RmaException(ErrorClass.OTHER,
                "allocMem size=" + sizeBytes + " at rank " + rank + ": " + e.getMessage(), e);
        } catch (final RuntimeException e) {
            MappingBudget.release(1);
            throw e;
        }
        final MemorySegment segment = file.segment().asSlice(0, sizeBytes);
        byAddress.put(file.segment().address(), new Allocation(seq, file));
        return segment;
    }

    /**
     * Unmaps and removes the allocation that starts at {@code base}.
     *
     * @throws RmaException BASE if base is not the start of a live allocation of this rank.
     */
    synchronized void free(final MemorySegment base) {
        final Allocation allocation = byAddress.get(base.address());
        if (allocation == null || !base.isNative()) {
            throw new RmaException(ErrorClass.BASE,
                "freeMem of " + base + ": not the start of memory allocated with" + " allocMem by rank " + rank);
        }
        byAddress.remove(base.address());
        allocation.file.unlink();
        allocation.file.close();
        MappingBudget.release(1);
    }

    /**
     * Makes the data of a window file, from {@code dataStart} to its end, exposable through {@link #locate}
     * until {@link #withdraw}.
     */
    synchronized void expose(final String fileName, final MemorySegment mapping, final long dataStart) {
        windows.put(mapping.address(), new Exposed(fileName, mapping, dataStart));
    }

    /**
     * Ends {@link #expose} of the window file mapped at {@code mapping}.
     */
    synchronized void withdraw(final MemorySegment mapping) {
        windows.remove(mapping.address());
    }

    /**
     * @return where {@code segment} lives: in an allocation of this rank or in the data of one of its live
     *         windows ({@link #expose}); null if it is not entirely inside one of them.
     */
    synchronized Location locate(final MemorySegment segment) {
        if (!segment.isNative()) {
            return null;
        }
        final Map.Entry<Long, Allocation> entry = byAddress.floorEntry(segment.address());
        if (entry != null) {
            final MemorySegment whole = entry.getValue().file.segment();
            final long offset = segment.address() - whole.address();
            if (offset + segment.byteSize() <= whole.byteSize()) {
                return new Location(fileName(rank, entry.getValue().sequence), whole, offset);
            }
        }
        final Map.Entry<Long, Exposed> window = windows.floorEntry(segment.address());
        if (window != null) {
            final MemorySegment whole = window.getValue().mapping;
            final long offset = segment.address() - whole.address();
            if (offset >= window.getValue().dataStart && offset + segment.byteSize() <= whole.byteSize()) {
                return new Location(window.getValue().fileName, whole, offset);
            }
        }
        return null;
    }

    /**
     * Unmaps and removes every allocation (end of the job).
     */
    synchronized void close() {
        for (final Allocation allocation : byAddress.values()) {
            allocation.file.unlink();
            allocation.file.close();
        }
        MappingBudget.release(byAddress.size());
        byAddress.clear();
    }
}
