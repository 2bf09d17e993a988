package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.rma4j.internal.AtomicElements;
import org.rma4j.internal.LockWord;
import org.rma4j.internal.WindowLayout;
import org.rma4j.shm.DisseminationBarrier;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.MappedFile;
import org.rma4j.shm.MappingLiveness;
import org.rma4j.shm.WaitState;
import org.rma4j.shm.PeerFailedException;
import org.rma4j.shm.WaitTimeoutException;
import org.rma4j.shm.Words;

/**
 * A window: memory that every rank of a job exposes to the others' one-sided operations
 * (MPI_Win, MPI-3.1 chapter 11).
 *
 * <h2>Completion</h2>
 * An rma4j origin performs every operation itself, at the call, with loads and stores on its mapping
 * of the target's memory: when {@link #put} or {@link #get} returns, the operation is complete at the
 * origin and at the target. The standard allows this (section 11.5: an operation may complete at any
 * time before the synchronization call that completes it). The synchronization calls add the
 * ordering: {@link #flush}, {@link #flushAll}, {@link #flushLocal}, {@link #flushLocalAll} and
 * {@link #sync} are full memory fences; {@link #fence}, {@link #unlock}, {@link #unlockAll} and lock
 * acquisition also fence, so a store made before any of them is seen by a load or get made after the
 * matching call at another rank (an rma4j guarantee, stronger than section 11.7's Example 11.7
 * requires in the unified model).
 *
 * <h2>Memory model</h2>
 * Always {@link MemoryModel#UNIFIED}: the machine is cache-coherent, so public and private copies
 * are the same memory and a store is eventually seen by other ranks without further calls (section
 * 11.4). To poll window memory for a value written by another rank, read it with an acquire load
 * (a plain read loop may be hoisted by the JIT).
 *
 * <h2>Threads</h2>
 * A window handle belongs to its rank. Synchronization calls on one window must not run
 * concurrently in two threads of the rank; communication calls inside an open epoch may.
 */
public final class Window implements AutoCloseable {
    private final RmaJob job;
    private final MappedFile file;
    private final MemorySegment mapping;
    private final WindowFlavor flavor;
    private final int rank;
    private final TargetMemory memory;
    private final long[] sizes;
    private final int[] dispUnits;
    private final Info info;
    private final long lockTable;
    private final DisseminationBarrier fenceBarrier;
    private final Liveness lockLiveness;
    /** The lock or PSCW wait in progress, published as this rank's wait state on its slow path. */
    private final WaitPublication blocked;
    private final WindowCounters counters;
    private final Epochs epochs;
    private final Pscw pscw;
    private final Notifications notifications;
    private final boolean noLocks;
    private final MemorySegment localSegment;
    private final int number;
    private final List<NotifyRequest> requests = new ArrayList<>();
    private final Runnable fenceWait;
    /** The group and the call of the PSCW wait in progress, for the liveness check of {@link #pscw}. */
    private int[] pscwWaitedOn = new int[0];
    private boolean pscwPosts;
    private final Liveness pscwPeers;
    private String pscwWait = "";
    private boolean freed;

    /** Checks that the window file is still backed; names a SIGBUS of a wait after a truncation. */
    private final MappingLiveness fileCheck;

    Window(
        final RmaJob job, final int number, final MappedFile file, final WindowFlavor flavor, final TargetMemory memory,
        final MemorySegment localSegment, final long[] sizes, final int[] dispUnits, final Info info,
        final int notifyCapacity) {
        this.job = job;
        this.number = number;
        this.file = file;
        this.mapping = file.segment();
        this.flavor = flavor;
        this.rank = job.rank();
        this.memory = memory;
        this.sizes = sizes;
        this.dispUnits = dispUnits;
        this.info = info;
        final int ranks = sizes.length;
        this.lockTable = WindowLayout.lockTableOffset(ranks);
        // Waits in the window file also check that the file is still there (not truncated under the job).
        this.fileCheck = MappingLiveness.of(Liveness.NONE, file, WindowLayout.MAGIC, WindowLayout.VERSION);
        final Liveness collective = fileCheck.and(job.control().liveness(rank, true));
        this.fenceBarrier = new DisseminationBarrier(mapping, WindowLayout.barrierOffset(ranks), ranks, rank,
            job.waitStrategy(), job.calls().whileWaiting(collective));
        this.fenceWait = () -> {
            try {
                fenceBarrier.await();
            } catch (final InternalError e) {
                throw fileCheck.explain(e);
            }
        };
        this.counters = new WindowCounters(number, rank, ranks);
        this.blocked = new WaitPublication(job.control(), rank, number, counters);
        final Liveness lockPeers = fileCheck.and(job.control().liveness(rank, false));
        this.lockLiveness = () -> {
            blocked.publish();
            lockPeers.check();
        };
        this.epochs = new Epochs(ranks, !"false".equals(info.get(RmaJob.EPOCH_CHECKS_INFO_KEY).orElse("true")));
        this.noLocks = info.flag(Info.NO_LOCKS);
        this.pscwPeers = collective;
        this.pscw = new Pscw(mapping, rank, ranks, job.waitStrategy(), this::checkPscwPeers);
        this.notifications = new Notifications(this, mapping, rank, ranks, notifyCapacity, job.control(),
            job.waitStrategy(), collective);
        this.localSegment = localSegment;
    }

    // ---------------------------------------------------------------- attributes (section 11.2.6)

    /**
     * @return this rank's memory in the window (MPI_WIN_BASE with MPI_WIN_SIZE bytes).
     */
    public MemorySegment segment() {
        checkOpen("segment");
        return localSegment;
    }

    /**
     * @return this rank's size in bytes (MPI_WIN_SIZE).
     */
    public long size() {
        return sizes[rank];
    }

    /**
     * @return this rank's displacement unit (MPI_WIN_DISP_UNIT).
     */
    public int dispUnit() {
        return dispUnits[rank];
    }

    /**
     * @return MPI_WIN_CREATE_FLAVOR.
     */
    public WindowFlavor flavor() {
        return flavor;
    }

    /**
     * @return MPI_WIN_MODEL: always UNIFIED.
     */
    public MemoryModel model() {
        return MemoryModel.UNIFIED;
    }

    /**
     * @return a copy of the hints in effect, predefined keys with their values (MPI_WIN_GET_INFO).
     */
    public Info getInfo() {
        return info.dup();
    }

    /**
     * @return the rank of the calling process in the window's group.
     */
    public int rank() {
        return rank;
    }

    /**
     * @return the size of the window's group.
     */
    public int ranks() {
        return sizes.length;
    }

    /**
     * The part of a shared window that belongs to {@code target}, for direct loads and stores
     * (MPI_WIN_SHARED_QUERY). {@link Rma#PROC_NULL} selects the lowest rank with a non-zero size.
     *
     * @throws RmaException RMA_FLAVOR if the window is not of flavor SHARED, RANK for a bad rank.
     */
    public SharedRegion sharedQuery(final int target) {
        checkOpen("sharedQuery");
        if (flavor != WindowFlavor.SHARED) {
            throw new RmaException(ErrorClass.RMA_FLAVOR, "sharedQuery on a window of flavor " + flavor
                + "; only allocateShared windows may be queried");
        }
        int owner = target;
        if (target == Rma.PROC_NULL) {
            owner = 0;
            while (owner < sizes.length - 1 && sizes[owner] == 0) {
                owner++;
            }
        } else {
            checkRank(target, "sharedQuery");
        }
        return new SharedRegion(owner, ((TargetMemory.Fixed)memory).part(owner), sizes[owner], dispUnits[owner]);
    }

    // ---------------------------------------------------------------- dynamic windows (section 11.2.4)

    /**
     * MPI_WIN_ATTACH: exposes {@code memory} in this dynamic window. Local (not collective). Other ranks
     * reach it with target displacements that are addresses in this process ({@link Rma#address}),
     * which this rank communicates to them (with a put, say).
     *
     * @throws RmaException RMA_FLAVOR if the window is not dynamic; RMA_ATTACH if the memory is not
     *                      from {@link RmaJob#allocMem} (memory outside a shared mapping cannot be
     *                      reached by other processes), overlaps an attached region, or every attach
     *                      slot is taken.
     */
    public void attach(final MemorySegment memory) {
        checkOpen("attach");
        final DynamicMemory dynamic = dynamic("attach");
        Objects.requireNonNull(memory, "memory");
        final SharedAllocator.Location location = job.allocator().locate(memory);
        if (location == null) {
            throw new RmaException(ErrorClass.RMA_ATTACH, "attach of " + memory + ": not memory from allocMem;"
                + " only memory in a shared mapping can be exposed to other processes");
        }
        dynamic.attach(rank, memory, location);
    }

    /**
     * MPI_WIN_DETACH: withdraws the region attached at {@code memory}'s address. Local.
     *
     * @throws RmaException RMA_FLAVOR if the window is not dynamic, RMA_ATTACH if no region starts there.
     */
    public void detach(final MemorySegment memory) {
        checkOpen("detach");
        dynamic("detach").detach(rank, Objects.requireNonNull(memory, "memory"));
    }

    private DynamicMemory dynamic(final String call) {
        if (!(memory instanceof DynamicMemory dynamic)) {
            throw new RmaException(ErrorClass.RMA_FLAVOR, call + " on a window of flavor " + flavor
                + "; only createDynamic windows take attached memory");
        }
        return dynamic;
    }

    // ---------------------------------------------------------------- communication (section 11.3)

    /**
     * Copies {@code origin} into target's window at {@code targetDisp * dispUnit(target)}
     * (MPI_PUT of contiguous bytes). Complete at origin and target on return.
     *
     * @throws RmaException WIN, RANK, RMA_SYNC, DISP or RMA_RANGE on misuse.
     */
    public void put(final MemorySegment origin, final int target, final long targetDisp) {
        Objects.requireNonNull(origin, "origin");
        final MemorySegment destination = targetSlice("put", target, targetDisp, origin.byteSize());
        if (destination != null) {
            MemorySegment.copy(origin, 0, destination, 0, origin.byteSize());
        }
    }

    /**
     * Copies from target's window at {@code targetDisp * dispUnit(target)} into {@code destination}
     * (MPI_GET of contiguous bytes). Complete on return.
     *
     * @throws RmaException WIN, RANK, RMA_SYNC, DISP or RMA_RANGE on misuse.
     */
    public void get(final MemorySegment destination, final int target, final long targetDisp) {
        Objects.requireNonNull(destination, "destination");
        final MemorySegment source = targetSlice("get", target, targetDisp, destination.byteSize());
        if (source != null) {
            MemorySegment.copy(source, 0, destination, 0, destination.byteSize());
        }
    }

    /**
     * MPI_PUT with datatypes: {@code originCount} instances of {@code originType} read from
     * {@code origin} are stored as {@code targetCount} instances of {@code targetType} at target's
     * {@code targetDisp * dispUnit}. The two must match in basic type and element count. Complete at
     * origin and target on return.
     *
     * @throws RmaException TYPE for a null type or a signature mismatch, COUNT for a negative count or
     *                      an origin buffer too small, and WIN, RANK, RMA_SYNC, DISP, RMA_RANGE as
     *                      {@link #put(MemorySegment, int, long)}.
     */
    public void put(
        final MemorySegment origin, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType) {
        final MemorySegment memory = typedTarget("put", origin, originCount, originType, target, targetDisp, targetCount,
            targetType);
        if (memory == null) {
            return;
        }
        final int bytes = originType.basic().bytes();
        TypeCursor.zip(new TypeCursor(0, originCount, originType), new TypeCursor(0, targetCount, targetType),
            (originOffset, targetOffset, elements) ->
                MemorySegment.copy(origin, originOffset, memory, targetOffset, elements * bytes));
    }

    /**
     * MPI_GET with datatypes: {@code targetCount} instances of {@code targetType} at target's
     * {@code targetDisp * dispUnit} are read into {@code destination} as {@code originCount} instances
     * of {@code originType}. Complete on return.
     *
     * @throws RmaException as {@link #put(MemorySegment, long, Datatype, int, long, long, Datatype)}.
     */
    public void get(
        final MemorySegment destination, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType) {
        final MemorySegment memory = typedTarget("get", destination, originCount, originType, target, targetDisp,
            targetCount, targetType);
        if (memory == null) {
            return;
        }
        final int bytes = originType.basic().bytes();
        TypeCursor.zip(new TypeCursor(0, originCount, originType), new TypeCursor(0, targetCount, targetType),
            (originOffset, targetOffset, elements) ->
                MemorySegment.copy(memory, targetOffset, destination, originOffset, elements * bytes));
    }

    /** Puts {@code length} bytes of {@code origin} from {@code offset}; see {@link #put(MemorySegment, int, long)}. */
    public void put(final byte[] origin, final int offset, final int length, final int target, final long targetDisp) {
        put(Checks.slice(MemorySegment.ofArray(origin), offset, length, Byte.BYTES), target, targetDisp);
    }

    /** Puts {@code length} ints of {@code origin} from {@code offset}; see {@link #put(MemorySegment, int, long)}. */
    public void put(final int[] origin, final int offset, final int length, final int target, final long targetDisp) {
        put(Checks.slice(MemorySegment.ofArray(origin), offset, length, Integer.BYTES), target, targetDisp);
    }

    /** Puts {@code length} longs of {@code origin} from {@code offset}; see {@link #put(MemorySegment, int, long)}. */
    public void put(final long[] origin, final int offset, final int length, final int target, final long targetDisp) {
        put(Checks.slice(MemorySegment.ofArray(origin), offset, length, Long.BYTES), target, targetDisp);
    }

    /** Puts {@code length} doubles of {@code origin} from {@code offset}; see {@link #put(MemorySegment, int, long)}. */
    public void put(final double[] origin, final int offset, final int length, final int target, final long targetDisp) {
        put(Checks.slice(MemorySegment.ofArray(origin), offset, length, Double.BYTES), target, targetDisp);
    }

    /** Gets {@code length} bytes into {@code destination} from {@code offset}; see {@link #get(MemorySegment, int, long)}. */
    public void get(final byte[] destination, final int offset, final int length, final int target, final long targetDisp) {
        get(Checks.slice(MemorySegment.ofArray(destination), offset, length, Byte.BYTES), target, targetDisp);
    }

    /** Gets {@code length} ints into {@code destination} from {@code offset}; see {@link #get(MemorySegment, int, long)}. */
    public void get(final int[] destination, final int offset, final int length, final int target, final long targetDisp) {
        get(Checks.slice(MemorySegment.ofArray(destination), offset, length, Integer.BYTES), target, targetDisp);
    }

    /** Gets {@code length} longs into {@code destination} from {@code offset}; see {@link #get(MemorySegment, int, long)}. */
    public void get(final long[] destination, final int offset, final int length, final int target, final long targetDisp) {
        get(Checks.slice(MemorySegment.ofArray(destination), offset, length, Long.BYTES), target, targetDisp);
    }

    /** Gets {@code length} doubles into {@code destination} from {@code offset}; see {@link #get(MemorySegment, int, long)}. */
    public void get(final double[] destination, final int offset, final int length, final int target, final long targetDisp) {
        get(Checks.slice(MemorySegment.ofArray(destination), offset, length, Double.BYTES), target, targetDisp);
    }

    // ---------------------------------------------------------------- accumulate family (section 11.3.4)

    /**
     * MPI_ACCUMULATE: combines {@code originCount} x {@code originType} from {@code origin} into the
     * target's {@code targetCount} x {@code targetType} at {@code targetDisp} with {@code op},
     * element by element. Each basic element is updated atomically against every other accumulate on
     * it from any rank (section 11.7.1), with no lock of the window; REPLACE makes it an atomic put.
     * Complete at origin and target on return, so accumulates from one origin to one location are
     * ordered as issued under every {@code accumulate_ordering}.
     *
     * @throws RmaException OP for an op the target's type does not accept, DISP for a target element
     *                      not aligned to its size, and the errors of typed {@link #put(MemorySegment,
     *                      long, Datatype, int, long, long, Datatype) put}.
     */
    public void accumulate(
        final MemorySegment origin, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        Checks.checkOp("accumulate", op, targetType);
        Checks.checkNotNoOp("accumulate", op);
        final TargetMemory.Place place = typedPlace("accumulate", origin, originCount, originType, target, targetDisp,
            targetCount, targetType);
        if (place == null) {
            return;
        }
        final Datatype.Basic basic = targetType.basic();
        Checks.checkAligned("accumulate", target, place.address(), basic);
        final MemorySegment mapping = place.mapping();
        TypeCursor.zip(new TypeCursor(0, originCount, originType), new TypeCursor(place.offset(), targetCount, targetType),
            (originOffset, targetOffset, elements) ->
                AtomicElements.accumulate(op, basic, origin, originOffset, mapping, targetOffset, elements));
    }

    /**
     * MPI_GET_ACCUMULATE: like {@link #accumulate} and returns each target element's value before the
     * update in {@code result} ({@code resultCount} x {@code resultType}, matching the target). The
     * read and the update are one atomic step per element. With {@link Op#NO_OP} the origin is ignored
     * (it may be null with count 0): an atomic read.
     *
     * @throws RmaException as {@link #accumulate}; TYPE if result and target do not match.
     */
    public void getAccumulate(
        final MemorySegment origin, final long originCount, final Datatype originType, final MemorySegment result,
        final long resultCount, final Datatype resultType, final int target, final long targetDisp,
        final long targetCount, final Datatype targetType, final Op op) {
        Checks.checkOp("getAccumulate", op, targetType);
        Objects.requireNonNull(result, "result");
        Checks.checkTypes("getAccumulate", resultCount, resultType, targetCount, targetType);
        Checks.checkBuffer("getAccumulate", "result", result, resultCount, resultType);
        final TargetMemory.Place place;
        if (op == Op.NO_OP) {
            place = targetPlace("getAccumulate", target, targetDisp, targetType.span(targetCount));
        } else {
            place = typedPlace("getAccumulate", origin, originCount, originType, target, targetDisp, targetCount,
                targetType);
        }
        if (place == null) {
            return;
        }
        final Datatype.Basic basic = targetType.basic();
        Checks.checkAligned("getAccumulate", target, place.address(), basic);
        final MemorySegment mapping = place.mapping();
        final TypeCursor targetCursor = new TypeCursor(place.offset(), targetCount, targetType);
        if (op == Op.NO_OP) {
            TypeCursor.zip(new TypeCursor(0, resultCount, resultType), targetCursor,
                (resultOffset, targetOffset, elements) ->
                    AtomicElements.getAccumulate(op, basic, null, 0, result, resultOffset, mapping, targetOffset, elements));
        } else {
            TypeCursor.zip(new TypeCursor(0, originCount, originType), new TypeCursor(0, resultCount, resultType),
                targetCursor, (originOffset, resultOffset, targetOffset, elements) ->
                    AtomicElements.getAccumulate(op, basic, origin, originOffset, result, resultOffset, mapping,
                        targetOffset, elements));
        }
    }

    /**
     * MPI_FETCH_AND_OP: one element of basic {@code type}: {@code result} receives the target's value,
     * which is atomically replaced by {@code op(value, origin)}. With NO_OP the origin is ignored.
     *
     * @throws RmaException TYPE if type is not basic, OP for an op the type does not accept, DISP if
     *                      the target element is not aligned, and the errors of {@link #put}.
     */
    public void fetchAndOp(
        final MemorySegment origin, final MemorySegment result, final Datatype type, final int target,
        final long targetDisp, final Op op) {
        Checks.checkBasic("fetchAndOp", type);
        Checks.checkOp("fetchAndOp", op, type);
        Checks.checkBuffer("fetchAndOp", "result", result, 1, type);
        if (op != Op.NO_OP) {
            Checks.checkBuffer("fetchAndOp", "origin", origin, 1, type);
        }
        final TargetMemory.Place place = targetPlace("fetchAndOp", target, targetDisp, type.size());
        if (place != null) {
            Checks.checkAligned("fetchAndOp", target, place.address(), type.basic());
            final long operand = op == Op.NO_OP ? 0 : AtomicElements.read(type.basic(), origin, 0);
            AtomicElements.write(type.basic(), result, 0,
                AtomicElements.getAndApply(op, type.basic(), place.mapping(), place.offset(), operand));
        }
    }

    /**
     * {@link #fetchAndOp(MemorySegment, MemorySegment, Datatype, int, long, Op)} on a long.
     *
     * @return the target's previous value.
     */
    public long fetchAndOp(final long operand, final int target, final long targetDisp, final Op op) {
        return fetchAndOpBits("fetchAndOp", Datatype.LONG, operand, target, targetDisp, op);
    }

    /**
     * {@link #fetchAndOp(MemorySegment, MemorySegment, Datatype, int, long, Op)} on an int.
     *
     * @return the target's previous value.
     */
    public int fetchAndOp(final int operand, final int target, final long targetDisp, final Op op) {
        return (int)fetchAndOpBits("fetchAndOp", Datatype.INT, operand, target, targetDisp, op);
    }

    /**
     * {@link #fetchAndOp(MemorySegment, MemorySegment, Datatype, int, long, Op)} on a double.
     *
     * @return the target's previous value.
     */
    public double fetchAndOp(final double operand, final int target, final long targetDisp, final Op op) {
        return Double.longBitsToDouble(fetchAndOpBits("fetchAndOp", Datatype.DOUBLE,
            Double.doubleToRawLongBits(operand), target, targetDisp, op));
    }

    /**
     * MPI_COMPARE_AND_SWAP: one element of basic integer {@code type}: if the target's value equals
     * {@code compare}, it is replaced by {@code origin}; {@code result} receives the value before, in
     * one atomic step.
     *
     * @throws RmaException TYPE if type is not a basic integer type, DISP if the target is not aligned,
     *                      and the errors of {@link #put}.
     */
    public void compareAndSwap(
        final MemorySegment origin, final MemorySegment compare, final MemorySegment result, final Datatype type,
        final int target, final long targetDisp) {
        Checks.checkCompareAndSwapType(type);
        Checks.checkBuffer("compareAndSwap", "origin", origin, 1, type);
        Checks.checkBuffer("compareAndSwap", "compare", compare, 1, type);
        Checks.checkBuffer("compareAndSwap", "result", result, 1, type);
        final TargetMemory.Place place = targetPlace("compareAndSwap", target, targetDisp, type.size());
        if (place != null) {
            Checks.checkAligned("compareAndSwap", target, place.address(), type.basic());
            final Datatype.Basic basic = type.basic();
            AtomicElements.write(basic, result, 0, AtomicElements.compareAndSwap(basic, place.mapping(), place.offset(),
                AtomicElements.read(basic, compare, 0), AtomicElements.read(basic, origin, 0)));
        }
    }

    /**
     * {@link #compareAndSwap(MemorySegment, MemorySegment, MemorySegment, Datatype, int, long)} on a
     * long.
     *
     * @return the target's previous value (equal to compare when the swap happened).
     */
    public long compareAndSwap(final long compare, final long value, final int target, final long targetDisp) {
        return compareAndSwapBits(Datatype.LONG, compare, value, target, targetDisp);
    }

    /**
     * {@link #compareAndSwap(MemorySegment, MemorySegment, MemorySegment, Datatype, int, long)} on an int.
     *
     * @return the target's previous value (equal to compare when the swap happened).
     */
    public int compareAndSwap(final int compare, final int value, final int target, final long targetDisp) {
        return (int)compareAndSwapBits(Datatype.INT, compare, value, target, targetDisp);
    }

    // ---------------------------------------------------------------- request-based operations (section 11.3.5)

    /**
     * MPI_RPUT: {@link #put(MemorySegment, long, Datatype, int, long, long, Datatype)} returning a
     * request. Valid in passive-target epochs only. The operation is complete when the call returns,
     * so the request is complete at once.
     *
     * @throws RmaException RMA_SYNC outside a passive-target epoch to target.
     */
    public RmaRequest rput(
        final MemorySegment origin, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType) {
        checkRequestEpoch("rput", target);
        put(origin, originCount, originType, target, targetDisp, targetCount, targetType);
        return RmaRequest.completed("rput");
    }

    /**
     * MPI_RGET: {@link #get(MemorySegment, long, Datatype, int, long, long, Datatype)} returning a
     * request; passive-target epochs only.
     */
    public RmaRequest rget(
        final MemorySegment destination, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType) {
        checkRequestEpoch("rget", target);
        get(destination, originCount, originType, target, targetDisp, targetCount, targetType);
        return RmaRequest.completed("rget");
    }

    /**
     * MPI_RACCUMULATE: {@link #accumulate} returning a request; passive-target epochs only.
     */
    public RmaRequest raccumulate(
        final MemorySegment origin, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        checkRequestEpoch("raccumulate", target);
        accumulate(origin, originCount, originType, target, targetDisp, targetCount, targetType, op);
        return RmaRequest.completed("raccumulate");
    }

    /**
     * MPI_RGET_ACCUMULATE: {@link #getAccumulate} returning a request; passive-target epochs only.
     */
    public RmaRequest rgetAccumulate(
        final MemorySegment origin, final long originCount, final Datatype originType, final MemorySegment result,
        final long resultCount, final Datatype resultType, final int target, final long targetDisp,
        final long targetCount, final Datatype targetType, final Op op) {
        checkRequestEpoch("rgetAccumulate", target);
        getAccumulate(origin, originCount, originType, result, resultCount, resultType, target, targetDisp,
            targetCount, targetType, op);
        return RmaRequest.completed("rgetAccumulate");
    }

    // ---------------------------------------------------------------- notified access (Belli and Hoefler, section III)

    /**
     * Notified put: {@link #put(MemorySegment, int, long) put} of {@code origin} that also hands
     * {@code target} a notification with {@code tag}, matched by its {@link NotifyRequest}s. The data is
     * copied into the target window at the call and the notification published after it (release), so it
     * is in the window when a request of the target matches it, and it takes effect in program order with
     * this origin's other operations to the same target (a later put, accumulate or notified access to the
     * same place is never overwritten by it).
     * Allowed in any epoch and outside all epochs (a notified access is its own epoch, section III); a
     * zero-length put only notifies.
     *
     * @throws RmaException TAG for a negative tag, and WIN, RANK, DISP, RMA_RANGE as {@link #put}.
     */
    public void putNotify(final MemorySegment origin, final int target, final long targetDisp, final int tag) {
        Objects.requireNonNull(origin, "origin");
        checkTag("putNotify", tag);
        final long length = origin.byteSize();
        final TargetMemory.Place destination = notifiedPlace("putNotify", target, targetDisp, length);
        if (destination == null) {
            return;
        }
        // NOTE: the data goes into the target window at the call, before the notification is published
        // (release), so it takes effect in program order with this origin's other operations to the target.
        MemorySegment.copy(origin, 0, destination.mapping(), destination.offset(), length);
        notifications.notify("putNotify", target, tag, targetDisp, (int)length, Notifications.KIND_PUT, null);
    }

    /** {@link #putNotify(MemorySegment, int, long, int)} of {@code length} longs of {@code origin} from {@code offset}. */
    public void putNotify(
        final long[] origin, final int offset, final int length, final int target, final long targetDisp, final int tag) {
        putNotify(Checks.slice(MemorySegment.ofArray(origin), offset, length, Long.BYTES), target, targetDisp, tag);
    }

    /** {@link #putNotify(MemorySegment, int, long, int)} of {@code length} doubles of {@code origin} from {@code offset}. */
    public void putNotify(
        final double[] origin, final int offset, final int length, final int target, final long targetDisp, final int tag) {
        putNotify(Checks.slice(MemorySegment.ofArray(origin), offset, length, Double.BYTES), target, targetDisp, tag);
    }

    /**
     * Notified put with datatypes: {@link #put(MemorySegment, long, Datatype, int, long, long, Datatype)}
     * followed by a notification with {@code tag} (never inline).
     */
    public void putNotify(
        final MemorySegment origin, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final int tag) {
        checkTag("putNotify", tag);
        Objects.requireNonNull(origin, "origin");
        Checks.checkTypes("putNotify", originCount, originType, targetCount, targetType);
        Checks.checkBuffer("putNotify", "origin", origin, originCount, originType);
        final MemorySegment destination = notifiedSlice("putNotify", target, targetDisp, targetType.span(targetCount));
        if (destination == null) {
            return;
        }
        final int bytes = originType.basic().bytes();
        TypeCursor.zip(new TypeCursor(0, originCount, originType), new TypeCursor(0, targetCount, targetType),
            (originOffset, targetOffset, elements) ->
                MemorySegment.copy(origin, originOffset, destination, targetOffset, elements * bytes));
        notifications.notify("putNotify", target, tag, targetDisp,
            (int)Math.min(targetCount * targetType.size(), Integer.MAX_VALUE), Notifications.KIND_PUT, null);
    }

    /**
     * Notified get: {@link #get(MemorySegment, int, long) get} into {@code destination}, then a
     * notification with {@code tag} to {@code target}, which tells it that the data has been read.
     *
     * @throws RmaException as {@link #putNotify(MemorySegment, int, long, int)}.
     */
    public void getNotify(final MemorySegment destination, final int target, final long targetDisp, final int tag) {
        Objects.requireNonNull(destination, "destination");
        checkTag("getNotify", tag);
        final long length = destination.byteSize();
        final MemorySegment source = notifiedSlice("getNotify", target, targetDisp, length);
        if (source == null) {
            return;
        }
        MemorySegment.copy(source, 0, destination, 0, length);
        notifications.notify("getNotify", target, tag, targetDisp, (int)Math.min(length, Integer.MAX_VALUE),
            Notifications.KIND_GET, null);
    }

    /**
     * Notified accumulate: {@link #accumulate} of {@code count} elements of {@code type} (contiguous on
     * both sides), then a notification with {@code tag}.
     *
     * @throws RmaException as {@link #accumulate} and TAG.
     */
    public void accumulateNotify(
        final MemorySegment origin, final long count, final Datatype type, final int target, final long targetDisp,
        final Op op, final int tag) {
        checkTag("accumulateNotify", tag);
        Checks.checkOp("accumulateNotify", op, type);
        Checks.checkNotNoOp("accumulateNotify", op);
        Objects.requireNonNull(origin, "origin");
        Checks.checkTypes("accumulateNotify", count, type, count, type);
        Checks.checkBuffer("accumulateNotify", "origin", origin, count, type);
        final TargetMemory.Place place = notifiedPlace("accumulateNotify", target, targetDisp, type.span(count));
        if (place == null) {
            return;
        }
        final Datatype.Basic basic = type.basic();
        Checks.checkAligned("accumulateNotify", target, place.address(), basic);
        final MemorySegment mapping = place.mapping();
        TypeCursor.zip(new TypeCursor(0, count, type), new TypeCursor(place.offset(), count, type),
            (originOffset, targetOffset, elements) ->
                AtomicElements.accumulate(op, basic, origin, originOffset, mapping, targetOffset, elements));
        notifications.notify("accumulateNotify", target, tag, targetDisp,
            (int)Math.min(count * type.size(), Integer.MAX_VALUE), Notifications.KIND_ACCUMULATE, null);
    }

    /**
     * Notified fetch-and-op on a long: {@link #fetchAndOp(long, int, long, Op)}, then a notification.
     *
     * @return the target's previous value.
     */
    public long fetchAndOpNotify(final long operand, final int target, final long targetDisp, final Op op, final int tag) {
        checkTag("fetchAndOpNotify", tag);
        Checks.checkOp("fetchAndOpNotify", op, Datatype.LONG);
        final TargetMemory.Place place = notifiedPlace("fetchAndOpNotify", target, targetDisp, Long.BYTES);
        if (place == null) {
            return 0;
        }
        Checks.checkAligned("fetchAndOpNotify", target, place.address(), Datatype.Basic.LONG);
        final long previous = AtomicElements.getAndApply(op, Datatype.Basic.LONG, place.mapping(), place.offset(),
            operand);
        notifications.notify("fetchAndOpNotify", target, tag, targetDisp, Long.BYTES, Notifications.KIND_ACCUMULATE,
            null);
        return previous;
    }

    /**
     * MPI_NOTIFY_INIT: a persistent request that completes after {@code expectedCount} notified
     * accesses to this rank's part of the window from {@code source} ({@link Rma#ANY_SOURCE}: any) with
     * {@code tag} ({@link Rma#ANY_TAG}: any).
     *
     * @throws RmaException RANK for a bad source, TAG for a bad tag, COUNT for a negative count.
     */
    public NotifyRequest notifyInit(final int source, final int tag, final int expectedCount) {
        checkOpen("notifyInit");
        if (source != Rma.ANY_SOURCE) {
            checkRank(source, "notifyInit source");
        }
        if (tag != Rma.ANY_TAG) {
            checkTag("notifyInit", tag);
        }
        if (expectedCount < 0) {
            throw new RmaException(ErrorClass.COUNT, "notifyInit expected_count=" + expectedCount + " is negative");
        }
        final NotifyRequest request = new NotifyRequest(notifications, source, tag, expectedCount);
        requests.removeIf(made -> made.state() == NotifyRequest.State.FREED);
        requests.add(request);
        return request;
    }

    /**
     * @return notifications that arrived at this rank and wait for a matching request.
     */
    public int unexpectedNotifications() {
        checkOpen("unexpectedNotifications");
        return notifications.unexpectedCount();
    }

    private MemorySegment notifiedSlice(final String call, final int target, final long targetDisp, final long length) {
        final TargetMemory.Place place = notifiedPlace(call, target, targetDisp, length);
        return place == null ? null : place.mapping().asSlice(place.offset(), length);
    }

    /**
     * Checks a notified access (no epoch needed) and returns its place, or null for PROC_NULL.
     */
    private TargetMemory.Place notifiedPlace(final String call, final int target, final long targetDisp, final long length) {
        checkOpen(call);
        if (target == Rma.PROC_NULL) {
            return null;
        }
        checkRank(target, call);
        if (targetDisp < 0) {
            throw new RmaException(ErrorClass.DISP, call + " target_disp=" + targetDisp + " is negative");
        }
        if (length > Integer.MAX_VALUE) {
            throw new RmaException(ErrorClass.COUNT, call + " length=" + length + " exceeds " + Integer.MAX_VALUE
                + " bytes, the most one notification describes");
        }
        return counters.counted(call, target, length, memory.resolveInMapping(call, target, targetDisp, length));
    }

    private static void checkTag(final String call, final int tag) {
        if (tag < 0) {
            throw new RmaException(ErrorClass.TAG, call + " tag=" + tag + " is negative");
        }
    }

    // ---------------------------------------------------------------- active target: fence (section 11.5.1)

    /**
     * MPI_WIN_FENCE: a barrier over the window's group with full fences on both sides. Ends the fence
     * epoch it closes and, unless {@link Rma#MODE_NOSUCCEED} is asserted, opens the next.
     *
     * @param assertions 0 or a combination of MODE_NOSTORE, MODE_NOPUT, MODE_NOPRECEDE, MODE_NOSUCCEED.
     * @throws RmaException ASSERT for other bits, RMA_SYNC inside a passive-target epoch.
     */
    public void fence(final int assertions) {
        checkOpen("fence");
        Checks.checkAssertions("fence", assertions, Rma.MODE_NOSTORE | Rma.MODE_NOPUT | Rma.MODE_NOPRECEDE | Rma.MODE_NOSUCCEED);
        epochs.beforeFence(assertions);
        final var fenceEvent = WindowCounters.begin(WindowCounters.FENCE);
        job.collective(CollectiveCalls.Kind.FENCE, number + 1, fenceWait);
        counters.end(fenceEvent, -1, -1, "fence");
        epochs.afterFence(assertions);
    }

    // ---------------------------------------------------------------- general active target (section 11.5.2)

    /**
     * MPI_WIN_POST: starts an exposure epoch of this rank's window to the origins in {@code group}
     * and lets their matching {@link #start} proceed. Does not block.
     *
     * @param assertions 0 or a combination of MODE_NOCHECK (every matching start also asserts it and
     *                   runs after this post: no post message is sent), MODE_NOSTORE, MODE_NOPUT.
     * @throws RmaException ASSERT, GROUP / RANK for a member outside the window, RMA_SYNC if an exposure
     *                      epoch is open or a fence epoch with RMA calls is.
     */
    public void post(final Group group, final int assertions) {
        checkOpen("post");
        Checks.checkAssertions("post", assertions, Rma.MODE_NOCHECK | Rma.MODE_NOSTORE | Rma.MODE_NOPUT);
        checkGroup("post", group);
        epochs.checkPost();
        final int lockWord = Words.getIntVolatile(mapping, WindowLayout.lockWordOffset(lockTable, rank));
        if (lockWord != 0) {
            throw new RmaException(ErrorClass.RMA_CONFLICT, "post while this rank's window is locked ("
                + LockWord.describe(lockWord) + "); a window may not be locked and exposed concurrently (11.5.3)");
        }
        pscw.setExposed(true);
        if ((assertions & Rma.MODE_NOCHECK) == 0) {
            pscw.post(group);
        }
        epochs.posted(group);
    }

    /**
     * MPI_WIN_START: starts an access epoch to the targets in {@code group}, blocking until each has
     * posted (the standard allows start to block). RMA calls in the epoch may reach only those targets.
     *
     * @param assertions 0 or MODE_NOCHECK (the matching posts were made with MODE_NOCHECK and have
     *                   completed: start does not wait).
     * @throws RmaException ASSERT, GROUP / RANK, RMA_SYNC if an access epoch is open.
     */
    public void start(final Group group, final int assertions) {
        checkOpen("start");
        Checks.checkAssertions("start", assertions, Rma.MODE_NOCHECK);
        checkGroup("start", group);
        epochs.checkStart();
        if ((assertions & Rma.MODE_NOCHECK) == 0) {
            pscwWaitedOn = group.members();
            pscwPosts = true;
            pscwWait = "start on window " + number + " for the posts of " + group;
            blocked.begin(WaitState.Call.START, -1);
            try {
                pscw.awaitPosts(group);
            } catch (final InternalError e) {
                throw fileCheck.explain(e);
            } catch (final WaitTimeoutException e) {
                throw new WaitTimeoutException("start: the posts of " + group, e.waitedNs());
            } catch (final PeerFailedException e) {
                throw job.recordFailure(job.named(e, "start on window " + number + " for the posts of " + group));
            } finally {
                blocked.end();
            }
        }
        epochs.started(group);
    }

    /**
     * MPI_WIN_COMPLETE: ends the access epoch of {@link #start}; every RMA call of the epoch is
     * complete (at origin and, in rma4j, at target) and the targets' {@link #await} may return.
     *
     * @throws RmaException RMA_SYNC without a matching start.
     */
    public void complete() {
        checkOpen("complete");
        final Group group = epochs.checkComplete();
        pscw.complete(group);
        epochs.completed();
    }

    /**
     * MPI_WIN_WAIT (named {@code await} because {@code Object.wait()} is final): blocks until every
     * origin of the matching {@link #post} has called {@link #complete}, then ends the exposure epoch;
     * their RMA calls are visible in this rank's window afterwards.
     *
     * @throws RmaException RMA_SYNC without a matching post.
     */
    public void await() {
        checkOpen("wait");
        final Group group = epochs.checkWait("wait");
        pscwWaitedOn = group.members();
        pscwPosts = false;
        pscwWait = "wait on window " + number + " for the completes of " + group;
        blocked.begin(WaitState.Call.WAIT, -1);
        try {
            pscw.awaitCompletes(group);
        } catch (final WaitTimeoutException e) {
            throw new WaitTimeoutException("wait: the completes of " + group, e.waitedNs());
        } catch (final InternalError e) {
            throw fileCheck.explain(e);
        } catch (final PeerFailedException e) {
            throw job.recordFailure(job.named(e, "wait on window " + number + " for the completes of " + group));
        } finally {
            blocked.end();
        }
        pscw.setExposed(false);
        epochs.waited();
    }

    /**
     * MPI_WIN_TEST: the nonblocking {@link #await}: returns true and ends the exposure epoch if every
     * origin has completed, false otherwise (the epoch stays open).
     *
     * @throws RmaException RMA_SYNC without a matching post.
     */
    public boolean test() {
        checkOpen("test");
        final Group group = epochs.checkWait("test");
        if (!pscw.testCompletes(group)) {
            return false;
        }
        pscw.setExposed(false);
        epochs.waited();
        return true;
    }

    // ---------------------------------------------------------------- passive target (section 11.5.3)

    /**
     * MPI_WIN_LOCK: starts a passive-target access epoch to {@code target}, blocking until the lock is
     * held. The target takes no part. {@link Rma#MODE_NOCHECK} skips the acquisition (the caller
     * asserts that no conflicting lock is held or will be requested).
     *
     * @throws RmaException LOCKTYPE, RANK, ASSERT, or RMA_SYNC if an epoch conflicts.
     */
    public void lock(final LockType lockType, final int target, final int assertions) {
        checkOpen("lock");
        if (lockType == null) {
            throw new RmaException(ErrorClass.LOCKTYPE, "lock type is null; use LockType.SHARED or LockType.EXCLUSIVE");
        }
        if (target == Rma.PROC_NULL) {
            return;
        }
        checkRank(target, "lock");
        Checks.checkAssertions("lock", assertions, Rma.MODE_NOCHECK);
        checkLocksAllowed("lock");
        epochs.checkLock(target);
        epochs.beforePassive("lock");
        final long word = WindowLayout.lockWordOffset(lockTable, target);
        final boolean nocheck = (assertions & Rma.MODE_NOCHECK) != 0;
        if (lockType == LockType.EXCLUSIVE) {
            if (!nocheck) {
                acquire(() -> LockWord.acquireExclusive(mapping, word, rank, job.waitStrategy(), lockLiveness),
                    LockType.EXCLUSIVE, target, word);
                checkNotExposed("lock", target, () -> LockWord.releaseExclusive(mapping, word, rank));
            }
            epochs.locked(target, Epochs.EXCLUSIVE | (nocheck ? Epochs.NOCHECK : 0));
        } else {
            if (!nocheck) {
                acquire(() -> LockWord.acquireShared(mapping, word, job.waitStrategy(), lockLiveness),
                    LockType.SHARED, target, word);
                checkNotExposed("lock", target, () -> LockWord.releaseShared(mapping, word));
            }
            epochs.locked(target, Epochs.SHARED | (nocheck ? Epochs.NOCHECK : 0));
        }
        if (nocheck) {
            // NOTE: only without an acquisition: the acquiring CAS is itself a two-way barrier (volatile
            // read and write), so no access of the epoch moves before it.
            VarHandle.fullFence();
        }
    }

    /** {@link #lock(LockType, int, int)} with no assertions. */
    public void lock(final LockType lockType, final int target) {
        lock(lockType, target, 0);
    }

    /**
     * MPI_WIN_UNLOCK: completes every operation to {@code target} and ends the epoch.
     *
     * @throws RmaException RMA_SYNC without a matching lock.
     */
    public void unlock(final int target) {
        checkOpen("unlock");
        if (target == Rma.PROC_NULL) {
            return;
        }
        checkRank(target, "unlock");
        final int mode = epochs.checkUnlock(target);
        release(target, mode);
        epochs.unlocked(target);
    }

    /**
     * MPI_WIN_LOCK_ALL: a shared lock on every target, held until {@link #unlockAll()}.
     *
     * @throws RmaException ASSERT for bits other than MODE_NOCHECK, RMA_SYNC if an epoch conflicts.
     */
    public void lockAll(final int assertions) {
        checkOpen("lockAll");
        Checks.checkAssertions("lockAll", assertions, Rma.MODE_NOCHECK);
        checkLocksAllowed("lockAll");
        epochs.checkLockAll();
        epochs.beforePassive("lockAll");
        final boolean nocheck = (assertions & Rma.MODE_NOCHECK) != 0;
        if (!nocheck) {
            for (int target = 0; target < sizes.length; target++) {
                final long word = WindowLayout.lockWordOffset(lockTable, target);
                final int acquired = target;
                try {
                    acquire(() -> LockWord.acquireShared(mapping, word, job.waitStrategy(), lockLiveness),
                        null, target, word);
                } catch (final WaitTimeoutException e) {
                    for (int held = 0; held < acquired; held++) {
                        LockWord.releaseShared(mapping, WindowLayout.lockWordOffset(lockTable, held));
                    }
                    throw e;
                }
            }
            for (int target = 0; target < sizes.length; target++) {
                checkNotExposed("lockAll", target, () -> {
                    for (int held = 0; held < sizes.length; held++) {
                        LockWord.releaseShared(mapping, WindowLayout.lockWordOffset(lockTable, held));
                    }
                });
            }
        }
        epochs.lockedAll(Epochs.SHARED | (nocheck ? Epochs.NOCHECK : 0));
        if (nocheck) {
            VarHandle.fullFence(); // as in lock: the acquiring CASes are barriers themselves
        }
    }

    /** {@link #lockAll(int)} with no assertions. */
    public void lockAll() {
        lockAll(0);
    }

    /**
     * MPI_WIN_UNLOCK_ALL: completes every operation and ends the lock_all epoch.
     *
     * @throws RmaException RMA_SYNC without lock_all.
     */
    public void unlockAll() {
        checkOpen("unlockAll");
        final int mode = epochs.checkUnlockAll();
        for (int target = 0; target < sizes.length; target++) {
            release(target, mode);
        }
        epochs.unlockedAll();
    }

    // ---------------------------------------------------------------- flush and sync (section 11.5.4)

    /**
     * MPI_WIN_FLUSH: completes, at origin and target, every operation this rank issued to
     * {@code target}. Operations complete at their call in rma4j, so this is a full memory fence; the
     * epoch stays open (Example 11.18).
     *
     * @throws RmaException RMA_SYNC outside a passive-target epoch to target.
     */
    public void flush(final int target) {
        checkFlush("flush", target);
        VarHandle.fullFence();
    }

    /**
     * MPI_WIN_FLUSH_ALL: {@link #flush} for every target.
     */
    public void flushAll() {
        checkOpen("flushAll");
        epochs.checkAnyPassive("flushAll");
        VarHandle.fullFence();
    }

    /**
     * MPI_WIN_FLUSH_LOCAL: completes this rank's operations to {@code target} locally (origin buffers
     * may be reused). A full fence, like {@link #flush}.
     */
    public void flushLocal(final int target) {
        checkFlush("flushLocal", target);
        VarHandle.fullFence();
    }

    /**
     * MPI_WIN_FLUSH_LOCAL_ALL: {@link #flushLocal} for every target.
     */
    public void flushLocalAll() {
        checkOpen("flushLocalAll");
        epochs.checkAnyPassive("flushLocalAll");
        VarHandle.fullFence();
    }

    /**
     * MPI_WIN_SYNC: synchronizes the public and private copies of this rank's window. They are the
     * same memory (UNIFIED), so this is a full memory fence, which orders this rank's loads and
     * stores on shared memory around it (Example 11.7). Valid in any epoch state.
     */
    public void sync() {
        checkOpen("sync");
        VarHandle.fullFence();
    }

    // ---------------------------------------------------------------- destruction (section 11.2.5)

    /**
     * MPI_WIN_FREE: collective; waits for every rank, then unmaps the window. Afterwards every call on
     * it raises WIN and segments obtained from it are no longer accessible.
     *
     * @throws RmaException RMA_SYNC while this rank holds a lock or lock_all, or a start or post epoch is
     *                      open (nothing changes); OTHER if the ranks' collective calls do not match or
     *                      an earlier call of this rank failed.
     * @throws org.rma4j.shm.PeerFailedException if a rank fails while this one waits.
     */
    public void free() {
        checkOpen("free");
        epochs.checkFree();
        job.collective(CollectiveCalls.Kind.FREE, number + 1, fenceWait);
        freed = true;
        job.forget(this);
        memory.close();
        file.close();
    }

    /**
     * Frees the window ({@link #free()}) if it is not freed yet, unless this rank cannot take part in a
     * collective call any more: then it abandons the job instead (the rank is marked failed, so peers'
     * blocking calls throw {@link org.rma4j.shm.PeerFailedException} naming it, see {@link RmaJob}). That
     * is the case after a failed call of this rank, and when the window is closed in the middle of an
     * exchange, as when an exception escapes a {@code try}-with-resources block: inside a lock, lock_all,
     * start or post epoch, or with a notification request of the window active.
     *
     * @throws RmaException RMA_SYNC when it abandoned the job because of an open epoch or active request,
     *                      naming it; whatever {@link #free()} throws.
     */
    @Override
    public void close() {
        if (freed) {
            return;
        }
        if (job.isClosed()) {
            release();
            return;
        }
        if (job.failure() != null) {
            job.abandon(job.failure());
            return;
        }
        String unfinished = null;
        try {
            epochs.checkFree();
        } catch (final RmaException e) {
            unfinished = e.getMessage();
        }
        for (final NotifyRequest request : requests) {
            if (unfinished == null && request.state() == NotifyRequest.State.ACTIVE) {
                unfinished = "notification request " + request + " is active";
            }
        }
        if (unfinished != null) {
            final RmaException e = new RmaException(ErrorClass.RMA_SYNC, "close of window " + number + " at rank "
                + rank + " in the middle of an exchange (" + unfinished + "): the rank abandons the job instead of"
                + " freeing the window, so that no peer waits for it");
            job.abandon(e);
            throw e;
        }
        free();
    }

    /**
     * @return whether {@link #free()} was called.
     */
    public boolean isFreed() {
        return freed;
    }

    /**
     * Unmaps without the collective barrier, when the job closes with the window still open.
     */
    void release() {
        if (!freed) {
            freed = true;
            memory.close();
            file.close();
        }
    }

    // ---------------------------------------------------------------- checks

    private void release(final int target, final int mode) {
        if ((mode & Epochs.NOCHECK) != 0) {
            VarHandle.fullFence();
            return;
        }
        final long word = WindowLayout.lockWordOffset(lockTable, target);
        if ((mode & Epochs.EXCLUSIVE) != 0) {
            LockWord.releaseExclusive(mapping, word, rank);
        } else {
            LockWord.releaseShared(mapping, word);
        }
    }

    /**
     * Checks an access of {@code lengthBytes} at target's {@code targetDisp} and returns the target
     * memory it reaches, or null for PROC_NULL (no operation).
     */
    private MemorySegment targetSlice(final String call, final int target, final long targetDisp, final long lengthBytes) {
        checkOpen(call);
        if (target == Rma.PROC_NULL) {
            return null;
        }
        checkRank(target, call);
        epochs.checkAccess(target, call);
        if (targetDisp < 0) {
            throw new RmaException(ErrorClass.DISP, call + " target_disp=" + targetDisp + " is negative");
        }
        return counters.counted(call, target, lengthBytes, memory.resolve(call, target, targetDisp, lengthBytes));
    }

    /**
     * Like {@link #targetSlice} for atomic operations: the place of the target bytes in their whole
     * mapping, or null for PROC_NULL.
     */
    private TargetMemory.Place targetPlace(
        final String call, final int target, final long targetDisp, final long lengthBytes) {
        checkOpen(call);
        if (target == Rma.PROC_NULL) {
            return null;
        }
        checkRank(target, call);
        epochs.checkAccess(target, call);
        if (targetDisp < 0) {
            throw new RmaException(ErrorClass.DISP, call + " target_disp=" + targetDisp + " is negative");
        }
        return counters.counted(call, target, lengthBytes, memory.resolveInMapping(call, target, targetDisp, lengthBytes));
    }

    /**
     * Validates a typed atomic access and returns the place of the target memory it spans, or null.
     */
    private TargetMemory.Place typedPlace(
        final String call, final MemorySegment originBuffer, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType) {
        Objects.requireNonNull(originBuffer, "origin buffer");
        Checks.checkTypes(call, originCount, originType, targetCount, targetType);
        Checks.checkBuffer(call, "origin", originBuffer, originCount, originType);
        return targetPlace(call, target, targetDisp, targetType.span(targetCount));
    }

    /**
     * Validates a typed access and returns the target memory it spans, or null for PROC_NULL.
     */
    private MemorySegment typedTarget(
        final String call, final MemorySegment originBuffer, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType) {
        Objects.requireNonNull(originBuffer, "origin buffer");
        Checks.checkTypes(call, originCount, originType, targetCount, targetType);
        Checks.checkBuffer(call, "origin", originBuffer, originCount, originType);
        return targetSlice(call, target, targetDisp, targetType.span(targetCount));
    }



    private long fetchAndOpBits(
        final String call, final Datatype type, final long operand, final int target, final long targetDisp,
        final Op op) {
        Checks.checkOp(call, op, type);
        final TargetMemory.Place place = targetPlace(call, target, targetDisp, type.size());
        if (place == null) {
            return 0;
        }
        Checks.checkAligned(call, target, place.address(), type.basic());
        return AtomicElements.getAndApply(op, type.basic(), place.mapping(), place.offset(), operand);
    }

    private long compareAndSwapBits(
        final Datatype type, final long compare, final long value, final int target, final long targetDisp) {
        final TargetMemory.Place place = targetPlace("compareAndSwap", target, targetDisp, type.size());
        if (place == null) {
            return 0;
        }
        Checks.checkAligned("compareAndSwap", target, place.address(), type.basic());
        return AtomicElements.compareAndSwap(type.basic(), place.mapping(), place.offset(), compare, value);
    }





    private void checkRequestEpoch(final String call, final int target) {
        checkOpen(call);
        if (target != Rma.PROC_NULL) {
            checkRank(target, call);
            epochs.checkPassive(target, call);
        }
    }

    private void checkFlush(final String call, final int target) {
        checkOpen(call);
        if (target == Rma.PROC_NULL) {
            return;
        }
        checkRank(target, call);
        epochs.checkPassive(target, call);
    }

    private void checkLocksAllowed(final String call) {
        if (noLocks) {
            throw new RmaException(ErrorClass.RMA_SYNC, call + " on a window created with info no_locks=true");
        }
    }

    /**
     * @return this window's notification endpoint (package-private: for tests in this package).
     */
    WindowCounters counters() {
        return counters;
    }

    /**
     * The counters of this rank's use of this window (MPI_T performance variables): operations and bytes
     * per target, blocking calls and their time. See {@link WindowStatistics}.
     *
     * @return a snapshot.
     */
    public WindowStatistics statistics() {
        return counters.snapshot();
    }

    Notifications notifications() {
        return notifications;
    }

    /**
     * Liveness check of a PSCW wait: the peers are alive, and none that this rank still waits for sits in
     * a collective call this rank has not made (it would wait there for this rank forever).
     */
    private void checkPscwPeers() {
        pscwPeers.check();
        final int[] pending = pscw.pending(pscwPosts, pscwWaitedOn);
        job.calls().checkNotAwaitedBy(pending, peer -> pscw.pending(pscwPosts, new int[] {peer}).length == 1,
            pscwWait);
        if (pending.length > 0) {
            blocked.publish(pending[0]);
        }
    }

    /**
     * @return the job the window belongs to.
     */
    RmaJob jobOf() {
        return job;
    }

    /**
     * @return the window's number in its job (0 for the first window created).
     */
    int number() {
        return number;
    }

    void checkOpenFor(final String call) {
        checkOpen(call);
    }

    private void checkOpen(final String call) {
        if (freed) {
            throw new RmaException(ErrorClass.WIN, call + " on a freed window");
        }
        job.checkOpen(call);
    }

    /**
     * Runs a lock acquisition; a timeout names the call, the target and the lock word's state.
     *
     * @param type the lock call's type, or null for lockAll.
     */
    private void acquire(final Runnable acquisition, final LockType type, final int target, final long word) {
        blocked.begin(type == null ? WaitState.Call.LOCK_ALL : WaitState.Call.LOCK, target);
        try {
            acquisition.run();
        } catch (final InternalError e) {
            throw fileCheck.explain(e);
        } catch (final PeerFailedException e) {
            throw job.recordFailure(job.named(e, (type == null ? "lockAll" : "lock(" + type + ", " + target + ")")
                + " on window " + number));
        } catch (final WaitTimeoutException e) {
            // NOTE: the description is built here, not by the caller: a string concatenation per lock call
            // showed up in profiles of the uncontended lock + unlock.
            final String what = type == null ? "lockAll: the lock of rank " + target : "lock(" + type + ", " + target + ")";
            throw new WaitTimeoutException(what + " (lock word " + LockWord.describe(Words.getIntVolatile(mapping, word))
                + ")", e.waitedNs());
        } finally {
            blocked.end();
        }
    }

    /**
     * MPI-3.1 section 11.5.3: a window may not be locked and exposed in a post epoch concurrently. A
     * best-effort check after acquisition: a post that races with the lock is not always seen.
     */
    private void checkNotExposed(final String call, final int target, final Runnable release) {
        if (pscw.isExposed(target)) {
            release.run();
            throw new RmaException(ErrorClass.RMA_CONFLICT, call + " of rank " + target + " while it exposes its"
                + " window in a post epoch; a window may not be locked and exposed concurrently (11.5.3)");
        }
    }

    private void checkGroup(final String call, final Group group) {
        if (group == null) {
            throw new RmaException(ErrorClass.GROUP, call + " group is null (use Group.EMPTY)");
        }
        for (final int member : group.members()) {
            if (member >= sizes.length) {
                throw new RmaException(ErrorClass.RANK, call + " group member " + member
                    + " is not a rank of the window (0.." + (sizes.length - 1) + ")");
            }
        }
    }

    private void checkRank(final int target, final String call) {
        if (target < 0 || target >= sizes.length) {
            throw new RmaException(ErrorClass.RANK, call + " target rank " + target + " is outside 0.."
                + (sizes.length - 1));
        }
    }



    @Override
    public String toString() {
        return "Window{" + flavor + ", rank=" + rank + "/" + sizes.length + ", size=" + size() + ", dispUnit="
            + dispUnit() + (freed ? ", freed" : "") + '}';
    }
}
