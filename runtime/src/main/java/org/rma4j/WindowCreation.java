package org.rma4j;

import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.rma4j.internal.CreationRecordLayout;
import org.rma4j.internal.WindowLayout;
import org.rma4j.notify.NotifyLanes;
import org.rma4j.notify.NotifyLanesLayout;
import org.rma4j.shm.FileHeader;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.MappedFile;
import org.rma4j.shm.MappingLiveness;
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
    /** Test hook: the rank whose mapping of the next window fails, or -1. */
    static volatile int failOpenAtRank = -1;

    /**
     * Entries of each rank's notification lanes together that the default lane capacity aims at (2,048 entries,
     * 128 KiB): the capacity is this divided by the ranks, a power of two between {@link #NOTIFY_CAPACITY_MIN}
     * and {@link #NOTIFY_CAPACITY_MAX}.
     */
    static final int NOTIFY_ENTRIES_PER_RANK = 2048;
    /** Smallest default lane capacity. */
    static final int NOTIFY_CAPACITY_MIN = 64;
    /** Largest default lane capacity: 64 KiB of entries per origin. */
    static final int NOTIFY_CAPACITY_MAX = 1024;

    private static final Set<String> ORDERINGS = Set.of("rar", "raw", "war", "waw");

    private WindowCreation() {
    }

    static Window allocateShared(final RmaJob job, final long sizeBytes, final int dispUnit, final Info info) {
        return create(job, WindowFlavor.SHARED, "allocateShared", sizeBytes, dispUnit, info, null);
    }

    /**
     * Creates a window of any flavor; {@code base} is the exposed memory of flavor CREATE. The three phases
     * of the protocol above, each followed by its barrier; a failed barrier unmaps what this rank mapped.
     */
    static Window create(final RmaJob job, final WindowFlavor flavor, final String call, final long sizeBytes,
        final int dispUnit, final Info info, final MemorySegment base) {
        final Attempt attempt = new Attempt(job, flavor, call);
        attempt.propose(sizeBytes, dispUnit, info, base);
        createBarrier(job);
        attempt.gather();
        attempt.createFileAtRankZero();
        barrierOrDiscard(job, attempt);
        attempt.open();
        barrierOrDiscard(job, attempt);
        attempt.findFailedOpen();
        return attempt.result();
    }

    private static void barrierOrDiscard(final RmaJob job, final Attempt attempt) {
        try {
            createBarrier(job);
        } catch (final RuntimeException e) {
            attempt.discard();
            throw e;
        }
    }

    /**
     * One rank's part in one creation: what it proposed, what every rank proposed, and what it created and
     * mapped; each method is one phase (or the outcome) of the protocol.
     */
    private static final class Attempt {
        private final RmaJob job;
        private final WindowFlavor flavor;
        private final String call;
        private final int ranks;
        private final int rank;
        private final MemorySegment own;
        private RmaException ownError;
        private Info effective;
        private SharedAllocator.Location location;
        private long[] sizes;
        private int[] dispUnits;
        private int[] memorySequences;
        private long[] memoryOffsets;
        private boolean noncontig;
        private int badRank = -1;
        private int badCode;
        private int notifyCapacity;
        private int number;
        private String name;
        private MappedFile file;
        private RuntimeException createProblem;
        private int createStatus;
        private boolean created;
        private RuntimeException openProblem;
        private Window window;
        private int failedOpen = -1;

        Attempt(final RmaJob job, final WindowFlavor flavor, final String call) {
            this.job = job;
            this.flavor = flavor;
            this.call = call;
            this.ranks = job.size();
            this.rank = job.rank();
            this.own = job.control().scratch(rank);
        }

        /** Phase 1: checks this rank's arguments and writes its record. */
        void propose(final long sizeBytes, final int dispUnit, final Info info, final MemorySegment base) {
            try {
                effective = validate(call, sizeBytes, dispUnit, info == null ? Info.create() : info, ranks);
                MappingBudget.check(call, flavor == WindowFlavor.CREATE ? ranks : 1);
                if (flavor == WindowFlavor.CREATE && sizeBytes > 0) {
                    location = job.allocator().locate(base);
                    if (location == null) {
                        throw new RmaException(ErrorClass.BASE,
                            call + " base " + base + " is not memory from"
                                + " allocMem: only memory in a shared mapping can be exposed to other processes"
                                + (base.isNative() ? "" : " (a Java heap array never can)"));
                    }
                }
            } catch (final RmaException e) {
                ownError = e;
            }
            Words.putInt(own, CreationRecordLayout.MEMORY_SEQUENCE_OFFSET, location == null ? -1 : location.sequence());
            Words.putLong(own, CreationRecordLayout.MEMORY_OFFSET_OFFSET, location == null ? 0 : location.fileOffset());
            Words.putInt(own, CreationRecordLayout.NOTIFY_CAPACITY_OFFSET,
                effective == null
                    ? notifyCapacityDefault(ranks)
                    : Integer.parseInt(effective.get(RmaJob.NOTIFY_CAPACITY_INFO_KEY).orElseThrow()));
            Words.putLong(own, CreationRecordLayout.SIZE_OFFSET, sizeBytes);
            Words.putInt(own, CreationRecordLayout.DISP_UNIT_OFFSET, dispUnit);
            Words.putInt(own, CreationRecordLayout.STATUS_OFFSET, ownError == null ? 0 : ownError.errorClass().code());
            Words.putInt(own, CreationRecordLayout.FLAGS_OFFSET,
                effective != null && effective.flag(Info.ALLOC_SHARED_NONCONTIG)
                    ? CreationRecordLayout.FLAG_NONCONTIG
                    : 0);
            Words.putInt(own, CreationRecordLayout.CREATE_STATUS_OFFSET, 0);
        }

        /** After barrier 1: reads every rank's record. */
        void gather() {
            sizes = new long[ranks];
            dispUnits = new int[ranks];
            memorySequences = new int[ranks];
            memoryOffsets = new long[ranks];
            for (int r = 0; r < ranks; r++) {
                final MemorySegment slot = job.control().scratch(r);
                sizes[r] = Words.getLong(slot, CreationRecordLayout.SIZE_OFFSET);
                dispUnits[r] = Words.getInt(slot, CreationRecordLayout.DISP_UNIT_OFFSET);
                memorySequences[r] = Words.getInt(slot, CreationRecordLayout.MEMORY_SEQUENCE_OFFSET);
                memoryOffsets[r] = Words.getLong(slot, CreationRecordLayout.MEMORY_OFFSET_OFFSET);
                noncontig |= (Words.getInt(slot, CreationRecordLayout.FLAGS_OFFSET)
                    & CreationRecordLayout.FLAG_NONCONTIG) != 0;
                final int status = Words.getInt(slot, CreationRecordLayout.STATUS_OFFSET);
                if (status != 0 && badRank < 0) {
                    badRank = r;
                    badCode = status;
                }
            }
            notifyCapacity = Words.getInt(job.control().scratch(0), CreationRecordLayout.NOTIFY_CAPACITY_OFFSET);
            number = job.windowSequence();
            name = job.nextWindowName();
        }

        /**
         * @return the sizes the window file places: the ranks' sizes for flavors whose data is in the file,
         *         zeros for CREATE and DYNAMIC.
         */
        private long[] placedSizes() {
            return flavor == WindowFlavor.SHARED || flavor == WindowFlavor.ALLOCATE ? sizes : new long[ranks];
        }

        /** Phase 2: rank 0 creates and publishes the window file if every rank's arguments were good. */
        void createFileAtRankZero() {
            if (rank != 0 || badRank >= 0) {
                return;
            }
            try {
                file = createFile(job, name, flavor, placedSizes(), dispUnits, notifyCapacity, noncontig);
            } catch (final ShmSpaceException e) {
                createProblem = e;
                Words.putLong(own, CreationRecordLayout.CREATE_ASKED_BYTES_OFFSET, e.requestedBytes());
                Words.putLong(own, CreationRecordLayout.CREATE_FREE_BYTES_OFFSET, e.usableBytes());
                Words.putInt(own, CreationRecordLayout.CREATE_STATUS_OFFSET, ErrorClass.NO_MEM.code());
            } catch (final RuntimeException e) {
                createProblem = e;
                Words.putInt(own, CreationRecordLayout.CREATE_STATUS_OFFSET, ErrorClass.RMA_SHARED.code());
            }
        }

        /** Phase 3, after barrier 2: maps and checks the file and the window; writes the open status. */
        void open() {
            createStatus = Words.getInt(job.control().scratch(0), CreationRecordLayout.CREATE_STATUS_OFFSET);
            created = badRank < 0 && createStatus == 0;
            if (!created) {
                return;
            }
            try {
                if (rank != 0) {
                    file = MappedFile.open(job.directory().file(name));
                    WindowLayout.checkHeader(file.segment(), file.path(), flavor.code(),
                        noncontig ? WindowLayout.FLAG_NONCONTIG : 0, notifyCapacity, placedSizes(), dispUnits);
                }
                if (failOpenAtRank == rank) {
                    failOpenAtRank = -1;
                    throw new RmaException(ErrorClass.RMA_SHARED, "mapping failed at rank " + rank + " (test hook)");
                }
                window = WindowCreation.open(job, call, number, flavor, file, sizes, dispUnits, memorySequences,
                    memoryOffsets, location, effective);
            } catch (final RuntimeException e) {
                openProblem = e;
            }
            Words.putIntVolatile(own, CreationRecordLayout.OPEN_STATUS_OFFSET, openProblem == null ? 0 : 1);
        }

        /** After barrier 3: finds a rank that could not map the window; rank 0 unlinks the file. */
        void findFailedOpen() {
            if (created) {
                for (int r = 0; r < ranks && failedOpen < 0; r++) {
                    if (Words.getIntVolatile(job.control().scratch(r), CreationRecordLayout.OPEN_STATUS_OFFSET) != 0) {
                        failedOpen = r;
                    }
                }
            }
            if (rank == 0 && file != null) {
                file.unlink();
            }
        }

        /**
         * @return the window, remembered by the job, if every rank succeeded.
         * @throws RmaException this rank's own error, or the error naming the rank that failed.
         */
        Window result() {
            if (ownError != null) {
                throw ownError;
            }
            if (badRank >= 0) {
                final ErrorClass bad = ErrorClass.ofCode(badCode);
                throw new RmaException(bad,
                    call + " failed: rank " + badRank + " passed an invalid argument (" + bad.mpiName() + ")");
            }
            if (!created) {
                throw createFailure();
            }
            if (openProblem != null) {
                discard();
                throw new RmaException(ErrorClass.RMA_SHARED, call + " failed: rank " + rank + " cannot map the"
                    + " window (every rank throws): " + openProblem.getMessage(), openProblem);
            }
            if (failedOpen >= 0) {
                discard();
                throw new RmaException(ErrorClass.RMA_SHARED,
                    call + " failed: rank " + failedOpen + " could not" + " map the window (every rank throws)");
            }
            job.remember(window);
            return window;
        }

        private RmaException createFailure() {
            if (createStatus == ErrorClass.NO_MEM.code()) {
                final MemorySegment rankZero = job.control().scratch(0);
                return SharedFileErrors.noSpace(call + " failed: rank 0 could not create the window file",
                    job.directory().path(), Words.getLong(rankZero, CreationRecordLayout.CREATE_ASKED_BYTES_OFFSET),
                    Words.getLong(rankZero, CreationRecordLayout.CREATE_FREE_BYTES_OFFSET), createProblem);
            }
            return new RmaException(ErrorClass.RMA_SHARED, call + " failed: rank 0 could not create the window"
                + " file" + (createProblem != null ? ": " + createProblem.getMessage() : ""), createProblem);
        }

        /** Unmaps what this rank mapped. */
        void discard() {
            WindowCreation.discard(window, file);
        }
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
    private static Window open(final RmaJob job, final String call, final int number, final WindowFlavor flavor,
        final MappedFile file, final long[] sizes, final int[] dispUnits, final int[] memorySequences,
        final long[] memoryOffsets, final SharedAllocator.Location location, final Info effective) {
        final int ranks = sizes.length;
        final int rank = job.rank();
        final long[] dataOffsets = new long[ranks];
        for (int r = 0; r < ranks; r++) {
            dataOffsets[r] = Words.getLong(file.segment(),
                WindowLayout.rankEntryOffset(r) + WindowLayout.ENTRY_DATA_OFFSET);
        }
        final TargetMemory memory;
        final MemorySegment local;
        switch (flavor) {
            case DYNAMIC -> {
                memory = new DynamicMemory(job.directory(), file.segment(), ranks);
                local = MemorySegment.NULL;
            }
            case CREATE -> {
                final TargetMemory.Fixed fixed = mapCreateMemory(job, call, sizes, dispUnits, memorySequences,
                    memoryOffsets, location);
                memory = fixed;
                local = fixed.part(rank);
            }
            default -> {
                final MemorySegment[] mappings = new MemorySegment[ranks];
                Arrays.fill(mappings, file.segment());
                MappingBudget.add(1);
                final TargetMemory.Fixed fixed = new TargetMemory.Fixed(mappings, dataOffsets, sizes, dispUnits,
                    () -> MappingBudget.release(1));
                memory = fixed;
                local = fixed.part(rank);
            }
        }
        try {
            return assemble(job, number, file, flavor, memory, local, sizes, dispUnits, effective,
                Words.getInt(file.segment(), WindowLayout.NOTIFY_CAPACITY_OFFSET));
        } catch (final RuntimeException e) {
            memory.close();
            throw e;
        }
    }

    /**
     * Maps the memory of a CREATE window: this rank's own from its allocation, the others' from their
     * allocation files.
     */
    private static TargetMemory.Fixed mapCreateMemory(final RmaJob job, final String call, final long[] sizes,
        final int[] dispUnits, final int[] memorySequences, final long[] memoryOffsets,
        final SharedAllocator.Location location) {
        final int ranks = sizes.length;
        final int rank = job.rank();
        final MemorySegment[] mappings = new MemorySegment[ranks];
        final long[] starts = new long[ranks];
        final List<MappedFile> mapped = new ArrayList<>();
        try {
            for (int r = 0; r < ranks; r++) {
                if (sizes[r] == 0) {
                    mappings[r] = MemorySegment.NULL;
                } else if (r == rank) {
                    mappings[r] = location.mapping();
                    starts[r] = location.fileOffset();
                } else {
                    final MappedFile other = openMemory(job, call, r, memorySequences[r], memoryOffsets[r], sizes[r]);
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
        return new TargetMemory.Fixed(mappings, starts, sizes, dispUnits, () -> {
            mapped.forEach(MappedFile::close);
            MappingBudget.release(1 + mapped.size());
        });
    }

    /**
     * Wires the parts of a window over its mapped file and target memory: the shared {@link WindowState},
     * the waits' liveness checks, and the parts along the MPI sections the {@link Window} facade delegates to.
     */
    private static Window assemble(final RmaJob job, final int number, final MappedFile file, final WindowFlavor flavor,
        final TargetMemory memory, final MemorySegment localSegment, final long[] sizes, final int[] dispUnits,
        final Info info, final int notifyCapacity) {
        final WindowState state = new WindowState(job, number, sizes);
        final int rank = job.rank();
        final MemorySegment mapping = file.segment();
        // Waits in the window file also check that the file is still there (not truncated under the job).
        final MappingLiveness fileCheck = MappingLiveness.of(Liveness.NONE, file, WindowLayout.MAGIC,
            WindowLayout.VERSION);
        final Liveness collective = fileCheck.and(job.control().liveness(rank, true));
        final WaitPublication blocked = new WaitPublication(job.control(), rank, number, state.counters());
        final Epochs epochs = new Epochs(sizes.length,
            !"false".equals(info.get(RmaJob.EPOCH_CHECKS_INFO_KEY).orElse("true")));
        final Notifications notifications = new Notifications(state, mapping, rank, sizes.length, notifyCapacity,
            job.control(), job.waitStrategy(), collective);
        final TargetAccess access = new TargetAccess(state, flavor, memory, dispUnits, epochs);
        final ActiveTarget active = new ActiveTarget(state, mapping, epochs, blocked, fileCheck, collective);
        final PassiveTarget passive = new PassiveTarget(state, mapping, epochs, active, blocked, fileCheck,
            info.flag(Info.NO_LOCKS));
        final NotifiedAccess notified = new NotifiedAccess(state, memory, notifications);
        final WindowLifecycle lifecycle = new WindowLifecycle(state, file, memory, epochs, active, notified);
        return new Window(state, info, localSegment, access, passive, active, notified, lifecycle);
    }

    /**
     * Maps the allocation file that holds rank {@code r}'s memory of a CREATE window (the caller unmaps
     * what it mapped so far when this throws).
     *
     * @throws RmaException RMA_SHARED if the file cannot be mapped or is too small for the memory.
     */
    private static MappedFile openMemory(final RmaJob job, final String call, final int r, final int sequence,
        final long offset, final long size) {
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
            problem = new RmaException(ErrorClass.RMA_SHARED,
                call + " failed: cannot map the memory of rank " + r + ": " + e.getMessage(), e);
        }
        throw problem;
    }

    private static MappedFile createFile(final RmaJob job, final String name, final WindowFlavor flavor,
        final long[] sizes, final int[] dispUnits, final int notifyCapacity, final boolean noncontig) {
        final long length = WindowLayout.placeSegments(sizes, notifyCapacity, noncontig, new long[sizes.length]);
        final MappedFile file = MappedFile.create(job.directory().file(name), length);
        writeHeader(file.segment(), flavor, sizes, dispUnits, notifyCapacity, noncontig);
        FileHeader.publish(file.segment(), WindowLayout.MAGIC, WindowLayout.VERSION);
        return file;
    }

    /**
     * Writes the header, the rank table and the empty notification lanes of a window file (everything but
     * the file header, which publishes it), as {@link WindowLayout#checkHeader} expects them.
     */
    static void writeHeader(final MemorySegment segment, final WindowFlavor flavor, final long[] sizes,
        final int[] dispUnits, final int notifyCapacity, final boolean noncontig) {
        final int ranks = sizes.length;
        final long[] dataOffsets = new long[ranks];
        WindowLayout.placeSegments(sizes, notifyCapacity, noncontig, dataOffsets);
        Words.putInt(segment, WindowLayout.RANKS_OFFSET, ranks);
        Words.putInt(segment, WindowLayout.FLAVOR_OFFSET, flavor.code());
        Words.putInt(segment, WindowLayout.FLAGS_OFFSET, noncontig ? WindowLayout.FLAG_NONCONTIG : 0);
        Words.putLong(segment, WindowLayout.BARRIER_SECTION_OFFSET, WindowLayout.barrierOffset(ranks));
        Words.putLong(segment, WindowLayout.LOCK_SECTION_OFFSET, WindowLayout.lockTableOffset(ranks));
        Words.putLong(segment, WindowLayout.SYNC_SECTION_OFFSET, WindowLayout.syncTableOffset(ranks));
        Words.putLong(segment, WindowLayout.DATA_SECTION_OFFSET, WindowLayout.dataSectionOffset(ranks, notifyCapacity));
        Words.putInt(segment, WindowLayout.NOTIFY_CAPACITY_OFFSET, notifyCapacity);
        Words.putLong(segment, WindowLayout.NOTIFY_SECTION_OFFSET, WindowLayout.notifyLanesOffset(ranks));
        for (int r = 0; r < ranks; r++) {
            // NOTE: the fence mode (membarrier or not) is recorded in each region, so every rank uses the creator's.
            NotifyLanes.format(segment, WindowLayout.notifyLanesOffset(ranks, notifyCapacity, r), ranks,
                notifyCapacity);
        }
        Words.putLong(segment, WindowLayout.POST_SECTION_OFFSET, WindowLayout.postMatrixOffset(ranks));
        Words.putLong(segment, WindowLayout.COMPLETE_SECTION_OFFSET, WindowLayout.completeMatrixOffset(ranks));
        for (int r = 0; r < ranks; r++) {
            final long entry = WindowLayout.rankEntryOffset(r);
            Words.putLong(segment, entry + WindowLayout.ENTRY_DATA_OFFSET, dataOffsets[r]);
            Words.putLong(segment, entry + WindowLayout.ENTRY_SIZE_OFFSET, sizes[r]);
            Words.putInt(segment, entry + WindowLayout.ENTRY_DISP_UNIT_OFFSET, dispUnits[r]);
        }
    }

    /**
     * @return the lane capacity of a window of {@code ranks} whose info does not set it: deep lanes for few ranks
     *         (a stream of small notifications keeps flowing while its consumer is descheduled), about 128 KiB of
     *         lanes per rank as the ranks grow, never below {@link #NOTIFY_CAPACITY_MIN}.
     */
    static int notifyCapacityDefault(final int ranks) {
        final int share = Integer.highestOneBit(Math.max(1, NOTIFY_ENTRIES_PER_RANK / Math.max(1, ranks)));
        return Math.max(NOTIFY_CAPACITY_MIN, Math.min(NOTIFY_CAPACITY_MAX, share));
    }

    /**
     * Validates this rank's arguments and returns the hints in effect: the predefined keys with their
     * values or defaults, then the caller's other keys.
     */
    static Info validate(final String call, final long sizeBytes, final int dispUnit, final Info info,
        final int ranks) {
        if (sizeBytes < 0) {
            throw new RmaException(ErrorClass.SIZE, call + " size=" + sizeBytes + " is negative");
        }
        if (sizeBytes > RmaJob.MAX_WINDOW_BYTES) {
            throw new RmaException(ErrorClass.SIZE,
                call + " size=" + sizeBytes + " exceeds the limit of " + RmaJob.MAX_WINDOW_BYTES + " bytes per rank");
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
            .orElse(Integer.toString(notifyCapacityDefault(ranks))).trim();
        final int capacity;
        try {
            capacity = Integer.parseInt(capacityValue);
        } catch (final NumberFormatException e) {
            throw new RmaException(ErrorClass.INFO_VALUE,
                "info " + RmaJob.NOTIFY_CAPACITY_INFO_KEY + "=" + capacityValue + " is not a number");
        }
        if (capacity < NotifyLanesLayout.MIN_LANE_CAPACITY || capacity > NotifyLanesLayout.MAX_LANE_CAPACITY
            || Integer.bitCount(capacity) != 1) {
            throw new RmaException(ErrorClass.INFO_VALUE,
                "info " + RmaJob.NOTIFY_CAPACITY_INFO_KEY + "=" + capacityValue + " is not a power of two in "
                    + NotifyLanesLayout.MIN_LANE_CAPACITY + ".." + NotifyLanesLayout.MAX_LANE_CAPACITY
                    + " (notifications per origin)");
        }
        effective.set(RmaJob.NOTIFY_CAPACITY_INFO_KEY, Integer.toString(capacity));
        final String ops = effective.get(Info.ACCUMULATE_OPS).orElseThrow();
        if (!ops.equals("same_op") && !ops.equals("same_op_no_op")) {
            throw new RmaException(ErrorClass.INFO_VALUE,
                "info accumulate_ops=" + ops + " is not same_op or same_op_no_op");
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
