package org.rma4j;

import static org.rma4j.internal.WindowLayout.ATTACH_SLOTS;
import static org.rma4j.internal.WindowLayout.ENTRY_ADDRESS_OFFSET;
import static org.rma4j.internal.WindowLayout.ENTRY_FILE_OFFSET_OFFSET;
import static org.rma4j.internal.WindowLayout.ENTRY_LENGTH_OFFSET;
import static org.rma4j.internal.WindowLayout.ENTRY_SEQUENCE_OFFSET;
import static org.rma4j.internal.WindowLayout.ENTRY_STATE_OFFSET;
import static org.rma4j.internal.WindowLayout.attachBlockOffset;
import static org.rma4j.internal.WindowLayout.attachEntryOffset;
import static org.rma4j.internal.WindowLayout.attachTableOffset;

import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntUnaryOperator;
import org.rma4j.shm.JobDirectory;
import org.rma4j.shm.MappedFile;
import org.rma4j.shm.ShmFormatException;
import org.rma4j.shm.Words;

/**
 * Target memory of a dynamic window (MPI_WIN_CREATE_DYNAMIC, MPI-3.1 section 11.2.4): each rank
 * publishes the regions it attaches in its block of the window file's attach table, and an origin
 * resolves a displacement among the target's attached regions.
 *
 * <p>Addressing: as in MPI, the target displacement of a dynamic window is an address in the
 * target's process ({@link Rma#address(MemorySegment)}, the analogue of MPI_GET_ADDRESS, applied by
 * the target to the memory it attached) with a displacement unit of 1. The origin maps the target's
 * allocation file once and reaches the same bytes at its own address.
 *
 * <p>An entry is published with a release store of its state after its fields, and read with an
 * acquire load of the state. Thread-safe.
 */
final class DynamicMemory extends TargetMemory {
    private static final int FREE = 0;
    private static final int ATTACHED = 1;

    private final JobDirectory directory;
    /** The job rank of each window rank: allocation files are named by the job rank of their owner. */
    private final IntUnaryOperator jobRanks;
    private final MemorySegment table;
    private final long attachTable;
    private final ConcurrentHashMap<String, MappedFile> mapped = new ConcurrentHashMap<>();

    DynamicMemory(final JobDirectory directory, final MemorySegment windowFile, final int ranks,
        final IntUnaryOperator jobRanks) {
        this.directory = directory;
        this.jobRanks = jobRanks;
        this.table = windowFile;
        this.attachTable = attachTableOffset(ranks);
        MappingBudget.add(1); // the window file, checked by the creation
    }

    /**
     * Publishes {@code segment}, found at {@code location} of this rank's allocations, as attached.
     *
     * @throws RmaException RMA_ATTACH if it overlaps an attached region or every slot is taken.
     */
    void attach(final int rank, final MemorySegment segment, final SharedAllocator.Location location) {
        final long block = attachBlockOffset(attachTable, rank);
        int free = -1;
        for (int slot = 0; slot < ATTACH_SLOTS; slot++) {
            final long entry = attachEntryOffset(block, slot);
            if (Words.getIntAcquire(table, entry + ENTRY_STATE_OFFSET) == ATTACHED) {
                final long address = Words.getLong(table, entry + ENTRY_ADDRESS_OFFSET);
                final long length = Words.getLong(table, entry + ENTRY_LENGTH_OFFSET);
                if (segment.address() < address + length && address < segment.address() + segment.byteSize()) {
                    throw new RmaException(ErrorClass.RMA_ATTACH, "attach of " + describe(segment)
                        + " overlaps the attached region " + describe(address, length));
                }
            } else if (free < 0) {
                free = slot;
            }
        }
        if (free < 0) {
            throw new RmaException(ErrorClass.RMA_ATTACH, "attach of " + describe(segment) + ": all " + ATTACH_SLOTS
                + " attach slots of rank " + rank + " are in use (detach a region first)");
        }
        final long entry = attachEntryOffset(block, free);
        Words.putLong(table, entry + ENTRY_ADDRESS_OFFSET, segment.address());
        Words.putLong(table, entry + ENTRY_LENGTH_OFFSET, segment.byteSize());
        Words.putLong(table, entry + ENTRY_FILE_OFFSET_OFFSET, location.fileOffset());
        Words.putInt(table, entry + ENTRY_SEQUENCE_OFFSET, location.sequence());
        Words.putIntRelease(table, entry + ENTRY_STATE_OFFSET, ATTACHED);
    }

    /**
     * Withdraws the region attached at exactly {@code segment}'s address.
     *
     * @throws RmaException RMA_ATTACH if no region starts there.
     */
    void detach(final int rank, final MemorySegment segment) {
        final long block = attachBlockOffset(attachTable, rank);
        for (int slot = 0; slot < ATTACH_SLOTS; slot++) {
            final long entry = attachEntryOffset(block, slot);
            if (Words.getIntAcquire(table, entry + ENTRY_STATE_OFFSET) == ATTACHED
                && Words.getLong(table, entry + ENTRY_ADDRESS_OFFSET) == segment.address()) {
                Words.putIntRelease(table, entry + ENTRY_STATE_OFFSET, FREE);
                return;
            }
        }
        throw new RmaException(ErrorClass.RMA_ATTACH,
            "detach of " + describe(segment) + ": no region attached by rank " + rank + " starts at that address");
    }

    @Override
    MemorySegment resolve(final String call, final int target, final long targetDisp, final long lengthBytes) {
        final Place place = resolveInMapping(call, target, targetDisp, lengthBytes);
        return place.mapping().asSlice(place.offset(), lengthBytes);
    }

    @Override
    Place resolveInMapping(final String call, final int target, final long targetDisp, final long lengthBytes) {
        if (lengthBytes < 0) {
            throw new RmaException(ErrorClass.COUNT, call + " length=" + lengthBytes + " is negative");
        }
        final long block = attachBlockOffset(attachTable, target);
        for (int slot = 0; slot < ATTACH_SLOTS; slot++) {
            final long entry = attachEntryOffset(block, slot);
            if (Words.getIntAcquire(table, entry + ENTRY_STATE_OFFSET) != ATTACHED) {
                continue;
            }
            final long address = Words.getLong(table, entry + ENTRY_ADDRESS_OFFSET);
            final long length = Words.getLong(table, entry + ENTRY_LENGTH_OFFSET);
            if (targetDisp >= address && lengthBytes <= length && targetDisp - address <= length - lengthBytes) {
                final int sequence = Words.getInt(table, entry + ENTRY_SEQUENCE_OFFSET);
                final long fileOffset = Words.getLong(table, entry + ENTRY_FILE_OFFSET_OFFSET);
                final MemorySegment region = regionFile(call, target, sequence);
                if (fileOffset < 0 || fileOffset > region.byteSize() - length) {
                    throw new RmaException(ErrorClass.RMA_SHARED,
                        call + ": the region " + describe(address, length) + " attached by rank " + target
                            + " at offset " + fileOffset + " of "
                            + SharedAllocator.fileName(jobRanks.applyAsInt(target), sequence) + " does not fit in its "
                            + region.byteSize() + " bytes");
                }
                return new Place(region, fileOffset + (targetDisp - address));
            }
        }
        throw new RmaException(ErrorClass.RMA_RANGE,
            call + " target_disp=0x" + Long.toHexString(targetDisp) + " + length=" + lengthBytes
                + " is not inside a region attached by rank " + target + " to the dynamic window");
    }

    /**
     * @return this process's mapping of allocation {@code sequence} of {@code target}, mapped at first use.
     * @throws RmaException RMA_SHARED if the file cannot be mapped.
     */
    private MemorySegment regionFile(final String call, final int target, final int sequence) {
        final String name = SharedAllocator.fileName(jobRanks.applyAsInt(target), sequence);
        try {
            return mapped.computeIfAbsent(name, n -> {
                MappingBudget.acquire(call, 1);
                try {
                    return MappedFile.open(directory.file(n));
                } catch (final RuntimeException e) {
                    MappingBudget.release(1);
                    throw e;
                }
            }).segment();
        } catch (final UncheckedIOException | ShmFormatException e) {
            throw new RmaException(ErrorClass.RMA_SHARED,
                call + ": cannot map the memory attached by rank " + target + ": " + e.getMessage(), e);
        }
    }

    @Override
    void close() {
        mapped.values().forEach(MappedFile::close);
        // the window file and every region mapped here
        MappingBudget.release(1 + mapped.size());
        mapped.clear();
    }

    private static String describe(final MemorySegment segment) {
        return describe(segment.address(), segment.byteSize());
    }

    private static String describe(final long address, final long length) {
        return "[0x" + Long.toHexString(address) + ", +" + length + ")";
    }
}
