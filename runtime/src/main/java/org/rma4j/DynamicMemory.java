package org.rma4j;

import static org.rma4j.internal.WindowLayout.attachBlockOffset;
import static org.rma4j.internal.WindowLayout.attachTableOffset;

import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;
import org.rma4j.internal.SharedNames;
import org.rma4j.shm.JobDirectory;
import org.rma4j.shm.MappedFile;
import org.rma4j.shm.ShmFormatException;

/**
 * Target memory of a dynamic window (MPI_WIN_CREATE_DYNAMIC, MPI-3.1 section 11.2.4): each rank
 * publishes the regions it attaches in its part of the window's attach table ({@link AttachedRegions}),
 * and an origin resolves a displacement among the target's attached regions ({@link AttachView}).
 *
 * <p>Addressing: as in MPI, the target displacement of a dynamic window is an address in the
 * target's process ({@link Rma#address(MemorySegment)}, the analogue of MPI_GET_ADDRESS, applied by
 * the target to the memory it attached) with a displacement unit of 1. The origin maps the file that
 * holds the region (an {@code allocMem} file, or the file of the window whose memory was attached) once
 * and reaches the same bytes at its own address.
 *
 * <p>Cost: attach and detach O(log n), a lookup O(log n) in the n regions the target has attached (see
 * {@link AttachView} for catching up with changes). Thread-safe.
 */
final class DynamicMemory extends TargetMemory {
    private final JobDirectory directory;
    private final AttachedRegions own;
    private final AttachView[] views;
    private final ConcurrentHashMap<String, MappedFile> mapped = new ConcurrentHashMap<>();

    /**
     * @param windowName the name of the window file, which names the attach chunk files.
     */
    DynamicMemory(final JobDirectory directory, final MemorySegment windowFile, final String windowName,
        final int ranks, final int rank) {
        this.directory = directory;
        final long table = attachTableOffset(ranks);
        this.own = new AttachedRegions(directory, windowFile, attachBlockOffset(table, rank), windowName, rank);
        this.views = new AttachView[ranks];
        for (int target = 0; target < ranks; target++) {
            views[target] = new AttachView(directory, windowFile, attachBlockOffset(table, target), windowName, target);
        }
        MappingBudget.add(1); // the window file, checked by the creation
    }

    /**
     * Publishes {@code segment}, found at {@code location} of this rank's shared memory, as attached.
     *
     * @throws RmaException RMA_ATTACH if it overlaps an attached region.
     */
    void attach(final MemorySegment segment, final SharedAllocator.Location location) {
        own.attach(segment, location);
    }

    /**
     * Withdraws the region attached at exactly {@code segment}'s address.
     *
     * @throws RmaException RMA_ATTACH if no region starts there.
     */
    void detach(final MemorySegment segment) {
        own.detach(segment);
    }

    /**
     * @return the regions this rank has attached now.
     */
    int attached() {
        return own.size();
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
        final AttachView.Region region = views[target].find(call, targetDisp);
        if (region == null || lengthBytes > region.length()
            || targetDisp - region.address() > region.length() - lengthBytes) {
            throw new RmaException(ErrorClass.RMA_RANGE,
                call + " target_disp=0x" + Long.toHexString(targetDisp) + " + length=" + lengthBytes
                    + " is not inside a region attached by rank " + target + " to the dynamic window");
        }
        final MemorySegment file = regionFile(call, target, region.fileName());
        final long length = region.length();
        if (region.fileOffset() < 0 || region.fileOffset() > file.byteSize() - length) {
            throw new RmaException(ErrorClass.RMA_SHARED,
                call + ": the region " + AttachedRegions.describe(region.address(), length) + " attached by rank "
                    + target + " at offset " + region.fileOffset() + " of " + region.fileName()
                    + " does not fit in its " + file.byteSize() + " bytes");
        }
        return new Place(file, region.fileOffset() + (targetDisp - region.address()));
    }

    /**
     * @return this process's mapping of the job file {@code name} that holds a region of {@code target},
     *         mapped at first use.
     * @throws RmaException RMA_SHARED if the file cannot be mapped.
     */
    private MemorySegment regionFile(final String call, final int target, final String name) {
        if (!SharedNames.isJobFileName(name)) {
            throw new RmaException(ErrorClass.RMA_SHARED,
                call + ": the attach table of rank " + target + " names '" + name + "', not a file of the job");
        }
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
        own.close();
        for (final AttachView view : views) {
            view.close();
        }
        mapped.values().forEach(MappedFile::close);
        // the window file and every region file mapped here
        MappingBudget.release(1 + mapped.size());
        mapped.clear();
    }
}
