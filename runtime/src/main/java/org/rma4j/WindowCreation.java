package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.rma4j.internal.CreationRecordLayout;
import org.rma4j.internal.SharedNames;
import org.rma4j.internal.WindowLayout;
import org.rma4j.notify.NotifyLanes;
import org.rma4j.notify.NotifyLanesLayout;
import org.rma4j.shm.FileHeader;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.MappedFile;
import org.rma4j.shm.MappingLiveness;
import org.rma4j.shm.ShmSpaceException;
import org.rma4j.shm.Words;

/**
 * The collective creation of a window file (MPI-3.1 section 11.2).
 *
 * <p>Protocol, over the record areas and the barrier of the window's communicator ({@link CommContext}: the
 * control file's scratch slots for the world, the communicator file's slots otherwise); ranks are the
 * communicator's:
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

    static Window allocateShared(final CommContext context, final long sizeBytes, final int dispUnit, final Info info) {
        return create(context, WindowFlavor.SHARED, "allocateShared", sizeBytes, dispUnit, info, null);
    }

    /**
     * Creates a window of any flavor; {@code base} is the exposed memory of flavor CREATE. The three phases
     * of the protocol above, each followed by its barrier; a failed barrier unmaps what this rank mapped.
     */
    static Window create(final CommContext context, final WindowFlavor flavor, final String call, final long sizeBytes,
        final int dispUnit, final Info info, final MemorySegment base) {
        final Attempt attempt = new Attempt(context, flavor, call);
        attempt.propose(sizeBytes, dispUnit, info, base);
        createBarrier(context);
        attempt.gather();
        attempt.createFileAtRankZero();
        barrierOrDiscard(context, attempt);
        attempt.open();
        barrierOrDiscard(context, attempt);
        attempt.findFailedOpen();
        return attempt.result();
    }

    private static void barrierOrDiscard(final CommContext context, final Attempt attempt) {
        try {
            createBarrier(context);
        } catch (final RuntimeException e) {
            // NOTE: no collective call after a failed barrier (the MPI window of a window across nodes stays).
            WindowCreation.discard(attempt.window, attempt.file);
            throw e;
        }
    }

    /**
     * One rank's part in one creation: what it proposed, what every rank proposed, and what it created and
     * mapped; each method is one phase (or the outcome) of the protocol.
     */
    private static final class Attempt {
        private final CommContext context;
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
        private String[] memoryFiles;
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
        /** The creator whose create status ended the creation. */
        private int failedCreator;
        /** This rank's share of a window across nodes, or null. */
        private HybridWindows.Part part;
        /** The rank that creates this rank's node's window file: 0, or the node's first rank across nodes. */
        private int creator;

        Attempt(final CommContext context, final WindowFlavor flavor, final String call) {
            this.context = context;
            this.job = context.job();
            this.flavor = flavor;
            this.call = call;
            this.ranks = context.size();
            this.rank = context.rank();
            this.own = context.record(rank);
        }

        /** Phase 1: checks this rank's arguments and writes its record. */
        void propose(final long sizeBytes, final int dispUnit, final Info info, final MemorySegment base) {
            try {
                HybridWindows.checkFlavor(context, flavor, call);
                effective = validate(call, sizeBytes, dispUnit, info == null ? Info.create() : info, ranks);
                MappingBudget.check(call, flavor == WindowFlavor.CREATE ? ranks : 1);
                if (flavor == WindowFlavor.CREATE && sizeBytes > 0) {
                    location = job.allocator().locate(base);
                    if (location == null) {
                        throw new RmaException(ErrorClass.BASE,
                            call + " base " + AttachedRegions.describe(base.address(), base.byteSize()) + " is not in a"
                                + " shared mapping of the job (allocMem memory, or the memory of an allocate or"
                                + " allocateShared window): no other process can map it"
                                + (base.isNative() ? " (a private arena, say)" : " (a Java heap array never can)"));
                    }
                }
            } catch (final RmaException e) {
                ownError = e;
            }
            SharedNames.put(own, CreationRecordLayout.MEMORY_FILE_NAME_OFFSET,
                CreationRecordLayout.MEMORY_FILE_NAME_LENGTH, location == null ? "" : location.fileName());
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
            Words.putInt(own, CreationRecordLayout.KEY_NUMBER_OFFSET, context.acrossNodes() ? job.takeCommNumber() : 0);
        }

        /** After barrier 1: reads every rank's record. */
        void gather() {
            sizes = new long[ranks];
            dispUnits = new int[ranks];
            memoryFiles = new String[ranks];
            memoryOffsets = new long[ranks];
            for (int r = 0; r < ranks; r++) {
                final MemorySegment slot = context.record(r);
                sizes[r] = Words.getLong(slot, CreationRecordLayout.SIZE_OFFSET);
                dispUnits[r] = Words.getInt(slot, CreationRecordLayout.DISP_UNIT_OFFSET);
                memoryFiles[r] = SharedNames.get(slot, CreationRecordLayout.MEMORY_FILE_NAME_OFFSET,
                    CreationRecordLayout.MEMORY_FILE_NAME_LENGTH);
                memoryOffsets[r] = Words.getLong(slot, CreationRecordLayout.MEMORY_OFFSET_OFFSET);
                noncontig |= (Words.getInt(slot, CreationRecordLayout.FLAGS_OFFSET)
                    & CreationRecordLayout.FLAG_NONCONTIG) != 0;
                final int status = Words.getInt(slot, CreationRecordLayout.STATUS_OFFSET);
                if (status != 0 && badRank < 0) {
                    badRank = r;
                    badCode = status;
                }
            }
            notifyCapacity = Words.getInt(context.record(0), CreationRecordLayout.NOTIFY_CAPACITY_OFFSET);
            number = context.windowSequence();
            name = context.nextWindowName();
            if (context.acrossNodes()) {
                part = new HybridWindows.Part(context,
                    Words.getInt(context.record(0), CreationRecordLayout.KEY_NUMBER_OFFSET));
                creator = part.creator;
            }
        }

        /**
         * @return the sizes the window file places: the ranks' sizes for flavors whose data is in the file,
         *         zeros for CREATE and DYNAMIC.
         */
        private long[] placedSizes() {
            if (flavor != WindowFlavor.SHARED && flavor != WindowFlavor.ALLOCATE) {
                return new long[ranks];
            }
            return part == null ? sizes : part.placed(sizes);
        }

        /**
         * Phase 2: rank 0 (across nodes: each node's first rank) creates and publishes the window file if every
         * rank's arguments were good.
         */
        void createFileAtRankZero() {
            if (rank != creator || badRank >= 0) {
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

        /**
         * Phase 3, after barrier 2: maps and checks the file and the window; across nodes writes where its memory
         * is; writes the open status.
         */
        void open() {
            createStatus = 0;
            for (int r = 0; r < ranks && createStatus == 0; r++) {
                if (r == 0 || part != null && part.creators[r]) {
                    createStatus = Words.getInt(context.record(r), CreationRecordLayout.CREATE_STATUS_OFFSET);
                    failedCreator = r;
                }
            }
            created = badRank < 0 && createStatus == 0;
            if (!created) {
                return;
            }
            WindowMemory.Mapped mapped = null;
            try {
                if (rank != creator) {
                    file = MappedFile.open(job.directory().file(name));
                    WindowLayout.checkHeader(file.segment(), file.path(), flavor.code(),
                        noncontig ? WindowLayout.FLAG_NONCONTIG : 0, notifyCapacity, placedSizes(), dispUnits);
                }
                if (failOpenAtRank == rank) {
                    failOpenAtRank = -1;
                    throw new RmaException(ErrorClass.RMA_SHARED, "mapping failed at rank " + rank + " (test hook)");
                }
                mapped = WindowMemory.map(context, call, flavor, file, sizes, dispUnits, memoryFiles, memoryOffsets,
                    location, part == null ? null : part.local);
            } catch (final RuntimeException e) {
                openProblem = e;
            }
            if (part != null) {
                Words.putLong(own, CreationRecordLayout.BASE_ADDRESS_OFFSET,
                    mapped == null ? 0 : mapped.local().address());
            }
            if (mapped != null) {
                try {
                    window = assemble(context, number, file, flavor, mapped, sizes, dispUnits, effective,
                        Words.getInt(file.segment(), WindowLayout.NOTIFY_CAPACITY_OFFSET), part, rank == creator);
                } catch (final RuntimeException e) {
                    mapped.memory().close();
                    openProblem = e;
                }
            }
            Words.putIntVolatile(own, CreationRecordLayout.OPEN_STATUS_OFFSET, openProblem == null ? 0 : 1);
        }

        /** After barrier 3: finds a rank that could not map the window; rank 0 unlinks the file. */
        void findFailedOpen() {
            if (created) {
                for (int r = 0; r < ranks && failedOpen < 0; r++) {
                    if (Words.getIntVolatile(context.record(r), CreationRecordLayout.OPEN_STATUS_OFFSET) != 0) {
                        failedOpen = r;
                    }
                }
                for (int r = 0; part != null && r < ranks; r++) {
                    part.bases[r] = Words.getLong(context.record(r), CreationRecordLayout.BASE_ADDRESS_OFFSET);
                }
            }
            // The file of a window that holds its ranks' memory stays linked while the window lives, so that
            // create and attach can expose that memory to ranks that map it later (WindowLifecycle unlinks it).
            final boolean holdsMemory = flavor == WindowFlavor.SHARED || flavor == WindowFlavor.ALLOCATE;
            if (rank == creator && file != null && !(holdsMemory && failedOpen < 0 && openProblem == null)) {
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
            job.resources().remember(window);
            context.retain();
            return window;
        }

        private RmaException createFailure() {
            if (createStatus == ErrorClass.NO_MEM.code()) {
                final MemorySegment failing = context.record(failedCreator);
                return SharedFileErrors.noSpace(
                    call + " failed: rank " + failedCreator + " could not create the window file",
                    job.directory().path(), Words.getLong(failing, CreationRecordLayout.CREATE_ASKED_BYTES_OFFSET),
                    Words.getLong(failing, CreationRecordLayout.CREATE_FREE_BYTES_OFFSET), createProblem);
            }
            return new RmaException(
                ErrorClass.RMA_SHARED, call + " failed: rank " + failedCreator + " could not"
                    + " create the window file" + (createProblem != null ? ": " + createProblem.getMessage() : ""),
                createProblem);
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

    private static void createBarrier(final CommContext context) {
        context.collective(CollectiveCalls.Kind.CREATE, 0, context.barrierWait());
    }

    /**
     * Wires the parts of a window over its mapped file and target memory: the shared {@link WindowState},
     * the waits' liveness checks, and the parts along the MPI sections the {@link Window} facade delegates to.
     */
    private static Window assemble(final CommContext context, final int number, final MappedFile file,
        final WindowFlavor flavor, final WindowMemory.Mapped mapped, final long[] sizes, final int[] dispUnits,
        final Info info, final int notifyCapacity, final HybridWindows.Part part, final boolean fileCreator) {
        final TargetMemory memory = mapped.memory();
        final MemorySegment localSegment = mapped.local();
        final RmaJob job = context.job();
        final WindowState state = new WindowState(context, number, sizes);
        final int rank = context.rank();
        final MemorySegment mapping = file.segment();
        // Waits in the window file also check that the file is still there (not truncated under the job).
        final MappingLiveness fileCheck = MappingLiveness.of(Liveness.NONE, file, WindowLayout.MAGIC,
            WindowLayout.VERSION);
        // NOTE: the control file's rows of the communicator's members, numbered as the window's ranks.
        final Liveness collective = fileCheck.and(context.control().liveness(rank, true));
        final WaitPublication blocked = new WaitPublication(context.control(), rank, number, state.counters());
        final Epochs epochs = new Epochs(sizes.length,
            !"false".equals(info.get(RmaJob.EPOCH_CHECKS_INFO_KEY).orElse("true")));
        final Notifications notifications = new Notifications(state, mapping, rank, sizes.length, notifyCapacity,
            context.control(), job.waitStrategy(), collective);
        final ShmTransport shm = new ShmTransport(state, memory, mapping, fileCheck, collective);
        final WindowTransport transport = part == null
            ? shm
            : HybridWindows.transport(part, state, shm, memory, notifications, dispUnits, flavor, collective);
        final WindowErrors errors = new WindowErrors(state);
        final TargetAccess access = new TargetAccess(state, flavor, memory, dispUnits, localSegment, epochs, transport,
            errors);
        final ActiveTarget active = new ActiveTarget(state, mapping, transport, epochs, blocked, fileCheck, collective,
            errors);
        final PassiveTarget passive = new PassiveTarget(state, transport, epochs, blocked, fileCheck,
            info.flag(Info.NO_LOCKS), errors);
        final NotifiedAccess notified = new NotifiedAccess(state, memory, notifications, transport, errors);
        final NotifyCounters notifyCounters = new NotifyCounters(state, transport, file.path(), collective, errors);
        final WindowLifecycle lifecycle = new WindowLifecycle(state, file, memory, transport, epochs, active, notified,
            fileCreator, errors);
        if (flavor == WindowFlavor.SHARED || flavor == WindowFlavor.ALLOCATE) {
            job.allocator().expose(file.path().getFileName().toString(), mapping,
                WindowLayout.dataSectionOffset(sizes.length, notifyCapacity));
        }
        return new Window(state, info, errors, access, passive, active, notified, notifyCounters, lifecycle);
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
