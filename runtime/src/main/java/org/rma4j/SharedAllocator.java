package org.rma4j;

import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.TreeMap;
import org.rma4j.shm.JobDirectory;
import org.rma4j.shm.MappedFile;
import org.rma4j.shm.ShmSpaceException;

/**
 * The shared-memory allocator of one rank (MPI_ALLOC_MEM / MPI_FREE_MEM, MPI-3.1 section 8.2): every
 * allocation is a file {@code mem-<rank>-<seq>} of the job directory, mapped by the allocating rank
 * and, when exposed through {@link RmaJob#create} or {@link Window#attach}, by the ranks that access
 * it. The file stays linked until {@link #free} or the end of the job, because a dynamic window may
 * expose it to a rank that maps it later.
 *
 * <p>Thread-safe.
 */
final class SharedAllocator {
    /**
     * Where an exposed piece of memory lives: the allocation file, its mapping here and the offset in it.
     */
    record Location(int rank, int sequence, MemorySegment mapping, long fileOffset) {
    }

    private final JobDirectory directory;
    private final int rank;
    private final TreeMap<Long, Allocation> byAddress = new TreeMap<>();
    private int sequence;

    private record Allocation(int sequence, MappedFile file) {
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
     * @return where {@code segment} lives, or null if it is not inside an allocation of this rank.
     */
    synchronized Location locate(final MemorySegment segment) {
        if (!segment.isNative()) {
            return null;
        }
        final Map.Entry<Long, Allocation> entry = byAddress.floorEntry(segment.address());
        if (entry == null) {
            return null;
        }
        final MemorySegment whole = entry.getValue().file.segment();
        final long offset = segment.address() - whole.address();
        if (offset + segment.byteSize() > whole.byteSize()) {
            return null;
        }
        return new Location(rank, entry.getValue().sequence, whole, offset);
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
