package org.rma4j;

import static org.rma4j.internal.WindowLayout.ATTACH_CHANGES_OFFSET;
import static org.rma4j.internal.WindowLayout.ATTACH_CHUNKS_OFFSET;
import static org.rma4j.internal.WindowLayout.ATTACH_LOG_CAPACITY;
import static org.rma4j.internal.WindowLayout.attachLogEntryOffset;

import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import org.rma4j.internal.AttachChunkLayout;
import org.rma4j.shm.FileHeader;
import org.rma4j.shm.JobDirectory;
import org.rma4j.shm.MappedFile;
import org.rma4j.shm.ShmFormatException;
import org.rma4j.shm.Words;

/**
 * One origin's view of the regions one target has attached to a dynamic window: a sorted map from
 * address to region, brought up to date from the target's attach table ({@link AttachedRegions},
 * {@link org.rma4j.internal.WindowLayout}) when the target's change count moved.
 *
 * <p>Cost of a lookup: one acquire load of the change count and an O(log n) floor search in the map.
 * After k attaches and detaches of the target, the next lookup re-reads the k slots the change log
 * names (O(k log n)), or, after more than the log holds, every slot (O(n log n)).
 *
 * <p>Thread-safe: lookups run concurrently (a concurrent skip list); catching up takes this view's lock.
 * A lookup races only with changes that MPI requires to be synchronized with it (an access needs its
 * region attached before the access's synchronization, section 11.2.4); such a race finds the region or
 * not, never a torn one ({@link AttachChunkLayout#read}).
 */
final class AttachView {
    /** A region attached by the target: where it is in the target's process and in which file. */
    record Region(long address, long length, String fileName, long fileOffset) {
    }

    private final JobDirectory directory;
    private final MemorySegment windowFile;
    private final long block;
    private final String windowName;
    private final int target;
    /** The regions by address; replaced as a whole by a rescan, so a lookup never sees it half built. */
    private volatile ConcurrentSkipListMap<Long, Region> byAddress = new ConcurrentSkipListMap<>();
    /** The region this view holds for each slot; guarded by this. */
    private final Map<Long, Region> bySlot = new HashMap<>();
    /** This process's mappings of the target's chunk files; guarded by this. */
    private final List<MappedFile> chunks = new ArrayList<>();
    private volatile long applied;

    AttachView(final JobDirectory directory, final MemorySegment windowFile, final long block, final String windowName,
        final int target) {
        this.directory = directory;
        this.windowFile = windowFile;
        this.block = block;
        this.windowName = windowName;
        this.target = target;
    }

    /**
     * @return the region that starts at or below {@code address} (the only one that can hold it), or null.
     */
    Region find(final String call, final long address) {
        if (Words.getLongAcquire(windowFile, block + ATTACH_CHANGES_OFFSET) != applied) {
            catchUp(call);
        }
        final Map.Entry<Long, Region> entry = byAddress.floorEntry(address);
        return entry == null ? null : entry.getValue();
    }

    /**
     * Applies the target's changes since the last catch-up: the logged slots, or every slot if the log
     * has been overwritten meanwhile.
     */
    private synchronized void catchUp(final String call) {
        final long changes = Words.getLongAcquire(windowFile, block + ATTACH_CHANGES_OFFSET);
        final long from = applied;
        if (changes == from) {
            return;
        }
        if (changes - from < ATTACH_LOG_CAPACITY) {
            final long[] slots = new long[(int)(changes - from)];
            for (int i = 0; i < slots.length; i++) {
                slots[i] = Integer
                    .toUnsignedLong(Words.getIntAcquire(windowFile, attachLogEntryOffset(block, from + i)));
            }
            // NOTE: a log entry is rewritten only by change (its number + capacity), which the target starts
            // after publishing that many changes; the acquire loads above order this load after them.
            if (Words.getLongAcquire(windowFile, block + ATTACH_CHANGES_OFFSET) - from < ATTACH_LOG_CAPACITY) {
                for (final long slot : slots) {
                    refresh(call, slot);
                }
                applied = changes;
                return;
            }
        }
        rescan(call, changes);
    }

    /**
     * Rebuilds the view from every slot of the target's chunks; {@code changes} was read before.
     */
    private void rescan(final String call, final long changes) {
        final ConcurrentSkipListMap<Long, Region> rebuilt = new ConcurrentSkipListMap<>();
        bySlot.clear();
        mapChunks(call);
        final long slots = AttachChunkLayout.firstSlot(chunks.size());
        for (long slot = 0; slot < slots; slot++) {
            final Region region = read(slot);
            if (region != null) {
                bySlot.put(slot, region);
                rebuilt.put(region.address(), region);
            }
        }
        byAddress = rebuilt;
        applied = changes;
    }

    /**
     * Re-reads one slot and replaces what this view held for it.
     */
    private void refresh(final String call, final long slot) {
        final int chunk = AttachChunkLayout.chunkOf(slot);
        if (chunk >= chunks.size()) {
            mapChunks(call);
        }
        if (chunk >= chunks.size()) {
            return;
        }
        final Region region = read(slot);
        final Region old = bySlot.get(slot);
        if (region == null ? old == null : region.equals(old)) {
            return;
        }
        // NOTE: the new region goes in before the old one leaves, so a lookup of a region that stays at its
        // address (or of any other region) never misses it meanwhile.
        if (region != null) {
            bySlot.put(slot, region);
            byAddress.put(region.address(), region);
        } else {
            bySlot.remove(slot);
        }
        if (old != null && (region == null || old.address() != region.address())) {
            byAddress.remove(old.address(), old);
        }
    }

    /**
     * @return the region in {@code slot} now, or null if it is free (its chunk is mapped).
     */
    private Region read(final long slot) {
        final AttachChunkLayout.Slot read = AttachChunkLayout
            .read(chunks.get(AttachChunkLayout.chunkOf(slot)).segment(), AttachChunkLayout.slotOffset(slot));
        return read == null ? null : new Region(read.address(), read.length(), read.fileName(), read.fileOffset());
    }

    /**
     * Maps the chunk files the target has published and this view has not mapped yet.
     *
     * @throws RmaException RMA_SHARED if one cannot be mapped or is not a chunk file.
     */
    private void mapChunks(final String call) {
        final int published = Words.getIntAcquire(windowFile, block + ATTACH_CHUNKS_OFFSET);
        while (chunks.size() < Math.min(published, AttachChunkLayout.MAX_CHUNKS)) {
            final int chunk = chunks.size();
            final String name = AttachChunkLayout.fileName(windowName, target, chunk);
            MappingBudget.acquire(call, 1);
            MappedFile file = null;
            try {
                file = MappedFile.open(directory.file(name));
                FileHeader.check(file.segment(), file.path(), AttachChunkLayout.MAGIC, AttachChunkLayout.VERSION);
                if (file.segment().byteSize() != AttachChunkLayout.fileLength(chunk)) {
                    throw new ShmFormatException(file.path(), "size " + file.segment().byteSize() + " is not the "
                        + AttachChunkLayout.fileLength(chunk) + " bytes of chunk " + chunk);
                }
            } catch (final UncheckedIOException | ShmFormatException e) {
                if (file != null) {
                    file.close();
                }
                MappingBudget.release(1);
                throw new RmaException(ErrorClass.RMA_SHARED,
                    call + ": cannot map the attach table of rank " + target + ": " + e.getMessage(), e);
            }
            chunks.add(file);
        }
    }

    /**
     * Unmaps the chunk files this view mapped.
     */
    synchronized void close() {
        chunks.forEach(MappedFile::close);
        MappingBudget.release(chunks.size());
        chunks.clear();
        byAddress.clear();
        bySlot.clear();
    }
}
