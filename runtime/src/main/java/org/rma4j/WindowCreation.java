package org.rma4j;

import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import org.rma4j.internal.WindowLayout;
import org.rma4j.notify.NotifyRing;
import org.rma4j.shm.FileHeader;
import org.rma4j.shm.MappedFile;
import org.rma4j.shm.ShmFormatException;
import org.rma4j.shm.ShmSpaceException;
import org.rma4j.shm.Words;

/**
 * The collective creation of a window file (MPI-3.1 section 11.2).
 *
 * <p>Protocol, over the job's scratch slots and barrier:
 * <ol>
 *   <li>every rank validates its own arguments and writes size, disp unit, flags and a status to
 *   its slot; barrier 1;</li>
 *   <li>every rank reads every slot; rank 0, if all statuses are good, creates and publishes the
 *   window file and records the outcome in its slot's create status; barrier 2;</li>
 *   <li>every rank maps and checks the file (and, for flavor CREATE, maps the other ranks' memory)
 *   and writes the outcome to its slot's open status; barrier 3; every rank reads every outcome;
 *   rank 0 unlinks the file (every rank holds a mapping, so nothing is left in the job directory even
 *   if the job is killed later).</li>
 * </ol>
 * The window exists only if every rank succeeded: a bad argument or a failure to create or map at any
 * rank makes every rank throw (the offending rank with its own message, the others naming that rank),
 * after all barriers and with everything it mapped unmapped, so the job stays usable. The barriers
 * are collective calls of kind {@link CollectiveCalls.Kind#CREATE}.
 *
 * <p>The open status is written only between barriers 2 and 3, so a rank that already returned and
 * starts the next creation cannot overwrite it before a slower rank read it after barrier 3: it writes
 * it again only after the next barrier 2, which the slower rank must have reached.
 */
final class WindowCreation {
    private static final int SLOT_SIZE = 0;
    private static final int SLOT_DISP_UNIT = 8;
    private static final int SLOT_STATUS = 12;
    private static final int SLOT_FLAGS = 16;
    private static final int SLOT_CREATE_STATUS = 20;
    private static final int SLOT_MEMORY_SEQUENCE = 24;
    private static final int SLOT_MEMORY_OFFSET = 32;
    private static final int SLOT_NOTIFY_CAPACITY = 40;
    /** Written by rank 0 when the window file did not fit: its size and the free bytes of the file system. */
    private static final int SLOT_CREATE_ASKED_BYTES = 48;
    private static final int SLOT_CREATE_FREE_BYTES = 56;
    private static final int SLOT_OPEN_STATUS = 64;

    /** Test hook: the rank whose mapping of the next window fails, or -1. */
    static volatile int failOpenAtRank = -1;

    /** Entries of each notification ring when the info gives none. */
    static final int NOTIFY_CAPACITY_DEFAULT = 256;

    private static final Set<String> ORDERINGS = Set.of("rar", "raw", "war", "waw");

    private WindowCreation() {
    }

    static Window allocateShared(final RmaJob job, final long sizeBytes, final int dispUnit, final Info info) {
        return create(job, WindowFlavor.SHARED, "allocateShared", sizeBytes, dispUnit, info, null);
    }

    /**
     * Creates a window of any flavor; {@code base} is the exposed memory of flavor CREATE.
     */
    static Window create(
        final RmaJob job, final WindowFlavor flavor, final String call, final long sizeBytes, final int dispUnit,
        final Info info, final MemorySegment base) {
        final int ranks = job.size();
        final int rank = job.rank();
        final MemorySegment own = job.control().scratch(rank);

        RmaException ownError = null;
        Info effective = null;
        SharedAllocator.Location location = null;
        try {
            effective = validate(call, sizeBytes, dispUnit, info == null ? Info.create() : info);
            MappingBudget.check(call, flavor == WindowFlavor.CREATE ? ranks : 1);
            if (flavor == WindowFlavor.CREATE && sizeBytes > 0) {
                location = job.allocator().locate(base);
                if (location == null) {
                    throw new RmaException(ErrorClass.BASE, call + " base " + base + " is not memory from allocMem:"
                        + " only memory in a shared mapping can be exposed to other processes"
                        + (base.isNative() ? "" : " (a Java heap array never can)"));
                }
            }
        } catch (final RmaException e) {
            ownError = e;
        }
        Words.putInt(own, SLOT_MEMORY_SEQUENCE, location == null ? -1 : location.sequence());
        Words.putLong(own, SLOT_MEMORY_OFFSET, location == null ? 0 : location.fileOffset());
        Words.putInt(own, SLOT_NOTIFY_CAPACITY, effective == null ? NOTIFY_CAPACITY_DEFAULT
            : Integer.parseInt(effective.get(RmaJob.NOTIFY_CAPACITY_INFO_KEY).orElseThrow()));
        Words.putLong(own, SLOT_SIZE, sizeBytes);
        Words.putInt(own, SLOT_DISP_UNIT, dispUnit);
        Words.putInt(own, SLOT_STATUS, ownError == null ? 0 : ownError.errorClass().ordinal() + 1);
        Words.putInt(own, SLOT_FLAGS, effective != null && effective.flag(Info.ALLOC_SHARED_NONCONTIG) ? 1 : 0);
        Words.putInt(own, SLOT_CREATE_STATUS, 0);
        createBarrier(job);

        final long[] sizes = new long[ranks];
        final int[] dispUnits = new int[ranks];
        final int[] memorySequences = new int[ranks];
        final long[] memoryOffsets = new long[ranks];
        boolean noncontig = false;
        int badRank = -1;
        int badClass = 0;
        for (int r = 0; r < ranks; r++) {
            final MemorySegment slot = job.control().scratch(r);
            sizes[r] = Words.getLong(slot, SLOT_SIZE);
            dispUnits[r] = Words.getInt(slot, SLOT_DISP_UNIT);
            memorySequences[r] = Words.getInt(slot, SLOT_MEMORY_SEQUENCE);
            memoryOffsets[r] = Words.getLong(slot, SLOT_MEMORY_OFFSET);
            noncontig |= Words.getInt(slot, SLOT_FLAGS) != 0;
            final int status = Words.getInt(slot, SLOT_STATUS);
            if (status != 0 && badRank < 0) {
                badRank = r;
                badClass = status - 1;
            }
        }
        final int notifyCapacity = Words.getInt(job.control().scratch(0), SLOT_NOTIFY_CAPACITY);
        final int number = job.windowSequence();
        final String name = job.nextWindowName();
        MappedFile file = null;
        RuntimeException createProblem = null;
        if (rank == 0 && badRank < 0) {
            try {
                file = createFile(job, name, flavor, flavor == WindowFlavor.SHARED || flavor == WindowFlavor.ALLOCATE
                    ? sizes : new long[ranks], dispUnits, notifyCapacity, noncontig);
            } catch (final ShmSpaceException e) {
                createProblem = e;
                Words.putLong(own, SLOT_CREATE_ASKED_BYTES, e.requestedBytes());
                Words.putLong(own, SLOT_CREATE_FREE_BYTES, e.usableBytes());
                Words.putInt(own, SLOT_CREATE_STATUS, ErrorClass.NO_MEM.ordinal() + 1);
            } catch (final RuntimeException e) {
                createProblem = e;
                Words.putInt(own, SLOT_CREATE_STATUS, ErrorClass.RMA_SHARED.ordinal() + 1);
            }
        }
        try {
            createBarrier(job);
        } catch (final RuntimeException e) {
            discard(null, file);
            throw e;
        }

        final int createStatus = Words.getInt(job.control().scratch(0), SLOT_CREATE_STATUS);
        final boolean created = badRank < 0 && createStatus == 0;
        RuntimeException openProblem = null;
        Window window = null;
        if (created) {
            try {
                if (rank != 0) {
                    file = MappedFile.open(job.directory().file(name));
                    FileHeader.check(file.segment(), file.path(), WindowLayout.MAGIC, WindowLayout.VERSION);
                }
                if (failOpenAtRank == rank) {
                    failOpenAtRank = -1;
                    throw new RmaException(ErrorClass.RMA_SHARED, "mapping failed at rank " + rank + " (test hook)");
                }
                window = open(job, call, number, flavor, file, sizes, dispUnits, memorySequences, memoryOffsets,
                    location, effective);
            } catch (final RuntimeException e) {
                openProblem = e;
            }
            Words.putIntVolatile(own, SLOT_OPEN_STATUS, openProblem == null ? 0 : 1);
        }
        try {
            createBarrier(job);
        } catch (final RuntimeException e) {
            discard(window, file);
            throw e;
        }
        int failedOpen = -1;
        if (created) {
            for (int r = 0; r < ranks && failedOpen < 0; r++) {
                if (Words.getIntVolatile(job.control().scratch(r), SLOT_OPEN_STATUS) != 0) {
                    failedOpen = r;
                }
            }
        }
        if (rank == 0 && file != null) {
            file.unlink();
        }

        if (ownError != null) {
            throw ownError;
        }
        if (badRank >= 0) {
            throw new RmaException(ErrorClass.values()[badClass], call + " failed: rank " + badRank
                + " passed an invalid argument (" + ErrorClass.values()[badClass].mpiName() + ")");
        }
        if (!created) {
            if (createStatus == ErrorClass.NO_MEM.ordinal() + 1) {
                final MemorySegment rankZero = job.control().scratch(0);
                throw SharedFileErrors.noSpace(call + " failed: rank 0 could not create the window file",
                    job.directory().path(), Words.getLong(rankZero, SLOT_CREATE_ASKED_BYTES),
                    Words.getLong(rankZero, SLOT_CREATE_FREE_BYTES), createProblem);
            }
            throw new RmaException(ErrorClass.RMA_SHARED, call + " failed: rank 0 could not create the window file"
                + (createProblem != null ? ": " + createProblem.getMessage() : ""), createProblem);
        }
        if (openProblem != null) {
            discard(window, file);
            throw new RmaException(ErrorClass.RMA_SHARED, call + " failed: rank " + rank + " cannot map the window"
                + " (every rank throws): " + openProblem.getMessage(), openProblem);
        }
        if (failedOpen >= 0) {
            discard(window, file);
            throw new RmaException(ErrorClass.RMA_SHARED, call + " failed: rank " + failedOpen + " could not map the"
                + " window (every rank throws)");
        }
        job.remember(window);
        return window;
    }

    /**
     * Unmaps what a failed creation mapped at this rank.
     */
    private static void discard(final Window window, final MappedFile file) {
        if (window != null) {
            window.release();
        } else if (file != null) {
            file.close();
        }
    }

    private static void createBarrier(final RmaJob job) {
        job.collective(CollectiveCalls.Kind.CREATE, 0, job.barrierWait());
    }

    /**
     * Maps this rank's view of the window: the other ranks' memory of flavor CREATE, the window object.
     */
    private static Window open(
        final RmaJob job, final String call, final int number, final WindowFlavor flavor, final MappedFile file,
        final long[] sizes, final int[] dispUnits, final int[] memorySequences, final long[] memoryOffsets,
        final SharedAllocator.Location location, final Info effective) {
        final int ranks = sizes.length;
        final int rank = job.rank();
        final long[] dataOffsets = new long[ranks];
        for (int r = 0; r < ranks; r++) {
            dataOffsets[r] = Words.getLong(file.segment(), WindowLayout.rankEntryOffset(r) + WindowLayout.ENTRY_DATA_OFFSET);
        }
        final TargetMemory memory;
        final MemorySegment local;
        switch (flavor) {
            case DYNAMIC -> {
                memory = new DynamicMemory(job.directory(), file.segment(), ranks);
                local = MemorySegment.NULL;
            }
            case CREATE -> {
                final MemorySegment[] mappings = new MemorySegment[ranks];
                final long[] starts = new long[ranks];
                final java.util.List<MappedFile> mapped = new java.util.ArrayList<>();
                try {
                    for (int r = 0; r < ranks; r++) {
                        if (sizes[r] == 0) {
                            mappings[r] = MemorySegment.NULL;
                        } else if (r == rank) {
                            mappings[r] = location.mapping();
                            starts[r] = location.fileOffset();
                        } else {
                            final MappedFile other = openMemory(job, call, r, memorySequences[r],
                                memoryOffsets[r], sizes[r]);
                            mapped.add(other);
                            mappings[r] = other.segment();
                            starts[r] = memoryOffsets[r];
                        }
                    }
                } catch (final RuntimeException e) {
                    mapped.forEach(MappedFile::close);
                    throw e;
                }
                MappingBudget.add(1 + mapped.size());
                final TargetMemory.Fixed fixed = new TargetMemory.Fixed(mappings, starts, sizes, dispUnits, () -> {
                    mapped.forEach(MappedFile::close);
                    MappingBudget.release(1 + mapped.size());
                });
                memory = fixed;
                local = fixed.part(rank);
            }
            default -> {
                final MemorySegment[] mappings = new MemorySegment[ranks];
                java.util.Arrays.fill(mappings, file.segment());
                MappingBudget.add(1);
                final TargetMemory.Fixed fixed = new TargetMemory.Fixed(mappings, dataOffsets, sizes, dispUnits,
                    () -> MappingBudget.release(1));
                memory = fixed;
                local = fixed.part(rank);
            }
        }
        try {
            return new Window(job, number, file, flavor, memory, local, sizes, dispUnits, effective,
                Words.getInt(file.segment(), WindowLayout.NOTIFY_CAPACITY_OFFSET));
        } catch (final RuntimeException e) {
            memory.close();
            throw e;
        }
    }

    /**
     * Maps the allocation file that holds rank {@code r}'s memory of a CREATE window (the caller unmaps
     * what it mapped so far when this throws).
     *
     * @throws RmaException RMA_SHARED if the file cannot be mapped or is too small for the memory.
     */
    private static MappedFile openMemory(
        final RmaJob job, final String call, final int r, final int sequence, final long offset, final long size) {
        final String name = SharedAllocator.fileName(r, sequence);
        RuntimeException problem;
        try {
            final MappedFile other = MappedFile.open(job.directory().file(name));
            final long fileBytes = other.segment().byteSize();
            if (offset >= 0 && offset <= fileBytes - size) {
                return other;
            }
            other.close();
            problem = new RmaException(ErrorClass.RMA_SHARED, call + " failed: the " + size + " bytes of rank " + r
                + " at offset " + offset + " do not fit in " + name + " of " + fileBytes + " bytes");
        } catch (final UncheckedIOException | ShmFormatException e) {
            problem = new RmaException(ErrorClass.RMA_SHARED, call + " failed: cannot map the memory of rank " + r
                + ": " + e.getMessage(), e);
        }
        throw problem;
    }

    private static MappedFile createFile(
        final RmaJob job, final String name, final WindowFlavor flavor, final long[] sizes, final int[] dispUnits,
        final int notifyCapacity, final boolean noncontig) {
        final int ranks = sizes.length;
        final long[] dataOffsets = new long[ranks];
        final long length = WindowLayout.placeSegments(sizes, notifyCapacity, noncontig, dataOffsets);
        final MappedFile file = MappedFile.create(job.directory().file(name), length);
        final MemorySegment segment = file.segment();
        Words.putInt(segment, WindowLayout.RANKS_OFFSET, ranks);
        Words.putInt(segment, WindowLayout.FLAVOR_OFFSET, flavor.ordinal());
        Words.putInt(segment, WindowLayout.FLAGS_OFFSET, noncontig ? WindowLayout.FLAG_NONCONTIG : 0);
        Words.putLong(segment, WindowLayout.BARRIER_SECTION_OFFSET, WindowLayout.barrierOffset(ranks));
        Words.putLong(segment, WindowLayout.LOCK_SECTION_OFFSET, WindowLayout.lockTableOffset(ranks));
        Words.putLong(segment, WindowLayout.SYNC_SECTION_OFFSET, WindowLayout.syncTableOffset(ranks));
        Words.putLong(segment, WindowLayout.DATA_SECTION_OFFSET, WindowLayout.dataSectionOffset(ranks, notifyCapacity));
        Words.putInt(segment, WindowLayout.NOTIFY_CAPACITY_OFFSET, notifyCapacity);
        Words.putLong(segment, WindowLayout.NOTIFY_SECTION_OFFSET, WindowLayout.notifyRingsOffset(ranks));
        for (int r = 0; r < ranks; r++) {
            NotifyRing.format(segment, WindowLayout.notifyRingOffset(ranks, notifyCapacity, r), notifyCapacity);
        }
        Words.putLong(segment, WindowLayout.POST_SECTION_OFFSET, WindowLayout.postMatrixOffset(ranks));
        Words.putLong(segment, WindowLayout.COMPLETE_SECTION_OFFSET, WindowLayout.completeMatrixOffset(ranks));
        for (int r = 0; r < ranks; r++) {
            final long entry = WindowLayout.rankEntryOffset(r);
            Words.putLong(segment, entry + WindowLayout.ENTRY_DATA_OFFSET, dataOffsets[r]);
            Words.putLong(segment, entry + WindowLayout.ENTRY_SIZE_OFFSET, sizes[r]);
            Words.putInt(segment, entry + WindowLayout.ENTRY_DISP_UNIT_OFFSET, dispUnits[r]);
        }
        FileHeader.publish(segment, WindowLayout.MAGIC, WindowLayout.VERSION);
        return file;
    }

    /**
     * Validates this rank's arguments and returns the hints in effect: the predefined keys with their
     * values or defaults, then the caller's other keys.
     */
    static Info validate(final String call, final long sizeBytes, final int dispUnit, final Info info) {
        if (sizeBytes < 0) {
            throw new RmaException(ErrorClass.SIZE, call + " size=" + sizeBytes + " is negative");
        }
        if (sizeBytes > RmaJob.MAX_WINDOW_BYTES) {
            throw new RmaException(ErrorClass.SIZE, call + " size=" + sizeBytes + " exceeds the limit of "
                + RmaJob.MAX_WINDOW_BYTES + " bytes per rank");
        }
        if (dispUnit <= 0) {
            throw new RmaException(ErrorClass.DISP, call + " disp_unit=" + dispUnit + " must be positive");
        }
        final Info effective = Info.create();
        for (final String key : Info.DEFAULTS.keySet().stream().sorted().toList()) {
            effective.set(key, info.get(key).orElse(Info.DEFAULTS.get(key)).trim());
        }
        for (final String key : info.keys()) {
            if (!Info.DEFAULTS.containsKey(key)) {
                effective.set(key, info.get(key).orElseThrow());
            }
        }
        for (final String key : new String[] {Info.NO_LOCKS, Info.SAME_SIZE, Info.ALLOC_SHARED_NONCONTIG}) {
            effective.flag(key);
        }
        final String capacityValue = info.get(RmaJob.NOTIFY_CAPACITY_INFO_KEY)
            .orElse(Integer.toString(NOTIFY_CAPACITY_DEFAULT)).trim();
        final int capacity;
        try {
            capacity = Integer.parseInt(capacityValue);
        } catch (final NumberFormatException e) {
            throw new RmaException(ErrorClass.INFO_VALUE, "info " + RmaJob.NOTIFY_CAPACITY_INFO_KEY + "="
                + capacityValue + " is not a number");
        }
        if (capacity < 2 || capacity > 1 << 20 || Integer.bitCount(capacity) != 1) {
            throw new RmaException(ErrorClass.INFO_VALUE, "info " + RmaJob.NOTIFY_CAPACITY_INFO_KEY + "="
                + capacityValue + " is not a power of two in 2..1048576");
        }
        effective.set(RmaJob.NOTIFY_CAPACITY_INFO_KEY, Integer.toString(capacity));
        final String ops = effective.get(Info.ACCUMULATE_OPS).orElseThrow();
        if (!ops.equals("same_op") && !ops.equals("same_op_no_op")) {
            throw new RmaException(ErrorClass.INFO_VALUE, "info accumulate_ops=" + ops
                + " is not same_op or same_op_no_op");
        }
        final String ordering = effective.get(Info.ACCUMULATE_ORDERING).orElseThrow().toLowerCase(Locale.ROOT);
        if (!ordering.equals("none")) {
            final String[] parts = ordering.split(",");
            if (!Arrays.stream(parts).map(String::trim).allMatch(ORDERINGS::contains)) {
                throw new RmaException(ErrorClass.INFO_VALUE, "info accumulate_ordering=" + ordering
                    + " is not none or a comma-separated subset of rar,raw,war,waw");
            }
        }
        return effective;
    }
}
