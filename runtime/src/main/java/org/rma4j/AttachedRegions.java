package org.rma4j;

import static org.rma4j.internal.WindowLayout.ATTACH_CHANGES_OFFSET;
import static org.rma4j.internal.WindowLayout.ATTACH_CHUNKS_OFFSET;
import static org.rma4j.internal.WindowLayout.attachLogEntryOffset;

import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rma4j.internal.AttachChunkLayout;
import org.rma4j.internal.SharedNames;
import org.rma4j.shm.FileHeader;
import org.rma4j.shm.JobDirectory;
import org.rma4j.shm.MappedFile;
import org.rma4j.shm.ShmSpaceException;
import org.rma4j.shm.Words;

/**
 * The regions this rank has attached to one dynamic window (MPI_WIN_ATTACH / MPI_WIN_DETACH, MPI-3.1
 * section 11.2.4): the owner's side of the attach table, which origins read through {@link AttachView}.
 * Each region takes a slot of this rank's chunk files ({@link AttachChunkLayout}), found again by address
 * in a sorted map, and every attach or detach is logged in this rank's attach block of the window file
 * ({@link org.rma4j.internal.WindowLayout}).
 *
 * <p>Cost: attach and detach are O(log n) in the n regions attached (a sorted map for the overlap check
 * and the detach lookup, a stack of free slots), plus, once per doubling of the slots in use, the creation
 * of a chunk file (amortized O(1) per attach). Regions are limited by the job's shared memory (64 bytes
 * of chunk file each) and the mapping budget, not by a fixed table.
 *
 * <p>Thread-safe: the threads of a rank may attach and detach concurrently.
 */
final class AttachedRegions {
    /** An attached region: its slot and its length. */
    private record Attached(long slot, long length) {
    }

    private final JobDirectory directory;
    private final MemorySegment windowFile;
    private final long block;
    private final String windowName;
    private final int rank;
    private final TreeMap<Long, Attached> byAddress = new TreeMap<>();
    private final List<MappedFile> chunks = new ArrayList<>();
    private long[] freeSlots = new long[16];
    private int freeCount;
    private long nextSlot;
    private long changes;

    /**
     * @param block this rank's attach block in the window file.
     */
    AttachedRegions(final JobDirectory directory, final MemorySegment windowFile, final long block,
        final String windowName, final int rank) {
        this.directory = directory;
        this.windowFile = windowFile;
        this.block = block;
        this.windowName = windowName;
        this.rank = rank;
    }

    /**
     * Publishes {@code segment}, found at {@code location} of this rank's shared memory, as attached.
     *
     * @throws RmaException RMA_ATTACH if it overlaps an attached region or the chunks are exhausted;
     *                      NO_MEM if a new chunk file does not fit in the job's file system or the mapping
     *                      budget. Nothing changes then.
     */
    synchronized void attach(final MemorySegment segment, final SharedAllocator.Location location) {
        final long address = segment.address();
        final long length = segment.byteSize();
        final Map.Entry<Long, Attached> below = byAddress.floorEntry(address);
        final Map.Entry<Long, Attached> above = byAddress.ceilingEntry(address);
        if (below != null && (below.getKey() == address || below.getKey() + below.getValue().length > address)) {
            throw overlap(segment, below);
        }
        if (above != null && above.getKey() < address + length) {
            throw overlap(segment, above);
        }
        if (location.fileName().length() > SharedNames.capacity(AttachChunkLayout.FILE_NAME_LENGTH)) {
            throw new RmaException(ErrorClass.RMA_ATTACH,
                "attach of " + describe(address, length) + ": its file " + location.fileName()
                    + " has a name longer than an attach slot holds ("
                    + SharedNames.capacity(AttachChunkLayout.FILE_NAME_LENGTH) + " characters)");
        }
        final long slot = freeCount > 0 ? freeSlots[freeCount - 1] : nextSlot;
        final int chunk = AttachChunkLayout.chunkOf(slot);
        if (chunk == chunks.size()) {
            addChunk(segment, chunk);
        }
        if (freeCount > 0) {
            freeCount--;
        } else {
            nextSlot++;
        }
        AttachChunkLayout.attach(chunks.get(chunk).segment(), AttachChunkLayout.slotOffset(slot), address, length,
            location.fileName(), location.fileOffset());
        log(slot);
        byAddress.put(address, new Attached(slot, length));
    }

    /**
     * Withdraws the region attached at exactly {@code segment}'s address.
     *
     * @throws RmaException RMA_ATTACH if no region starts there.
     */
    synchronized void detach(final MemorySegment segment) {
        final Attached attached = byAddress.remove(segment.address());
        if (attached == null) {
            throw new RmaException(ErrorClass.RMA_ATTACH, "detach of " + describe(segment.address(), segment.byteSize())
                + ": no region attached by rank " + rank + " starts at that address");
        }
        final int chunk = AttachChunkLayout.chunkOf(attached.slot);
        AttachChunkLayout.detach(chunks.get(chunk).segment(), AttachChunkLayout.slotOffset(attached.slot));
        log(attached.slot);
        if (freeCount == freeSlots.length) {
            freeSlots = Arrays.copyOf(freeSlots, freeCount * 2);
        }
        freeSlots[freeCount++] = attached.slot;
    }

    /**
     * @return the regions attached now.
     */
    synchronized int size() {
        return byAddress.size();
    }

    /**
     * Unmaps and removes this rank's chunk files (the window is freed). Idempotent.
     */
    synchronized void close() {
        for (final MappedFile chunk : chunks) {
            chunk.unlink();
            chunk.close();
        }
        MappingBudget.release(chunks.size());
        chunks.clear();
        byAddress.clear();
    }

    /**
     * Records change number {@code changes}: the slot in the log, then the count (release), which an
     * origin reads first.
     */
    private void log(final long slot) {
        Words.putIntRelease(windowFile, attachLogEntryOffset(block, changes), (int)slot);
        changes++;
        Words.putLongRelease(windowFile, block + ATTACH_CHANGES_OFFSET, changes);
    }

    /**
     * Creates, maps and publishes chunk file {@code chunk}.
     */
    private void addChunk(final MemorySegment segment, final int chunk) {
        if (chunk >= AttachChunkLayout.MAX_CHUNKS) {
            throw new RmaException(ErrorClass.RMA_ATTACH,
                "attach of " + describe(segment.address(), segment.byteSize()) + ": rank " + rank + " has "
                    + byAddress.size() + " regions attached, the most" + " one rank may attach to a window ("
                    + AttachChunkLayout.firstSlot(chunk) + " slots)");
        }
        final String name = AttachChunkLayout.fileName(windowName, rank, chunk);
        MappingBudget.acquire("attach", 1);
        final MappedFile file;
        try {
            file = MappedFile.create(directory.file(name), AttachChunkLayout.fileLength(chunk));
        } catch (final ShmSpaceException e) {
            MappingBudget.release(1);
            throw SharedFileErrors.noSpace("attach at rank " + rank + " (attach table chunk " + chunk + ")", e);
        } catch (final UncheckedIOException e) {
            MappingBudget.release(1);
            throw new RmaException(ErrorClass.RMA_ATTACH,
                "attach at rank " + rank + ": cannot create attach table chunk " + name + ": " + e.getMessage(), e);
        }
        Words.putInt(file.segment(), AttachChunkLayout.CHUNK_NUMBER_OFFSET, chunk);
        FileHeader.publish(file.segment(), AttachChunkLayout.MAGIC, AttachChunkLayout.VERSION);
        chunks.add(file);
        // NOTE: the chunk is counted (release) before any slot of it is logged, so an origin that saw the log
        // entry sees the chunk.
        Words.putIntRelease(windowFile, block + ATTACH_CHUNKS_OFFSET, chunks.size());
    }

    private static RmaException overlap(final MemorySegment segment, final Map.Entry<Long, Attached> other) {
        return new RmaException(ErrorClass.RMA_ATTACH, "attach of " + describe(segment.address(), segment.byteSize())
            + " overlaps the attached region " + describe(other.getKey(), other.getValue().length));
    }

    static String describe(final long address, final long length) {
        return "[0x" + Long.toHexString(address) + ", +" + length + ")";
    }
}
