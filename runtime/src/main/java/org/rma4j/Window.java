package org.rma4j;

import java.lang.foreign.MemorySegment;

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
 * <p>
 * <b>Across nodes</b> (a job started by {@code mpirun} over several nodes), "complete on return" below holds
 * for targets on the caller's node. To a target on another node a get, get_accumulate, fetch_and_op and
 * compare_and_swap still return with their data, but a put or accumulate is complete at the target only at the
 * next {@link #flush}, {@link #unlock}, {@link #fence} or {@link #complete} (the standard's rule); its origin
 * buffer may be reused on return if it is heap memory or at most 4 KiB, a larger native buffer after
 * {@link #flushLocal}. A target's peers progress while it is in any rma4j call that waits, and otherwise within
 * about a millisecond (a progress thread). The runtime's README, "Jobs across nodes", has the details.
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
    /**
     * MPI_MAX_OBJECT_NAME: a window name ({@link #setName}) keeps at most this many characters less one, as
     * in C, where the terminating null takes the last.
     */
    public static final int MAX_OBJECT_NAME = 128;

    private final WindowState state;
    private final MemorySegment localSegment;
    /** Target access (section 11.3): checks, address resolution, put / get / accumulate / atomics. */
    private final TargetAccess access;
    /** Passive target (sections 11.5.3, 11.5.4): lock, unlock, flush; owns the lock table. */
    private final PassiveTarget passive;
    /** Active target (sections 11.5.1, 11.5.2): fence, PSCW, and the lock-versus-post rule. */
    private final ActiveTarget active;
    /** Notified access (Belli and Hoefler, section III): notified operations and requests. */
    private final NotifiedAccess notified;
    /** Free, close and release (section 11.2.5). */
    private final WindowLifecycle lifecycle;
    /** Info, name and cached attributes (sections 6.7.3, 6.8, 11.2.6, 11.2.7). */
    private final WindowAttributes attributes;
    /** The error handler every call's errors pass (sections 8.3.3, 11.6.1). */
    private final WindowErrors errors;

    /** Made by {@link WindowCreation}, which wires the parts. */
    Window(final WindowState state, final Info info, final MemorySegment localSegment, final TargetAccess access,
        final PassiveTarget passive, final ActiveTarget active, final NotifiedAccess notified,
        final WindowLifecycle lifecycle) {
        this.state = state;
        this.localSegment = localSegment;
        this.access = access;
        this.passive = passive;
        this.active = active;
        this.notified = notified;
        this.lifecycle = lifecycle;
        this.attributes = new WindowAttributes(this, state, info, passive::applyInfo);
        this.errors = new WindowErrors(state);
        errors.bind(this);
    }

    // ---------------------------------------------------------------- attributes (section 11.2.6)

    /** @return this rank's memory in the window (MPI_WIN_BASE with MPI_WIN_SIZE bytes). */
    public MemorySegment segment() {
        return errors.call("segment", this::localSegment);
    }

    /** @return this rank's size in bytes (MPI_WIN_SIZE). */
    public long size() {
        return state.sizes()[state.rank()];
    }

    /** @return this rank's displacement unit (MPI_WIN_DISP_UNIT). */
    public int dispUnit() {
        return access.dispUnit(state.rank());
    }

    /** @return MPI_WIN_CREATE_FLAVOR. */
    public WindowFlavor flavor() {
        return access.flavor();
    }

    /** @return MPI_WIN_MODEL: always UNIFIED. */
    public MemoryModel model() {
        return MemoryModel.UNIFIED;
    }

    /**
     * MPI_WIN_GET_INFO: a copy of the hints in effect: the predefined keys with their values or defaults, the
     * rma4j keys, and the other keys given at creation or to {@link #setInfo}. MPI-3.1 §11.2.7.
     */
    public Info getInfo() {
        return attributes.getInfo();
    }

    /**
     * MPI_WIN_SET_INFO: new values for the hints that can change once the window exists: {@code no_locks}
     * (lock calls raise RMA_SYNC while it is true), {@code accumulate_ordering}, {@code accumulate_ops}, and
     * keys rma4j does not know (kept, readable back). {@code same_size}, {@code alloc_shared_noncontig},
     * {@code rma4j_notify_capacity} and {@code rma4j_epoch_checks} are fixed by the creation and ignored,
     * as the standard allows; keys {@code info} does not name keep their values; null changes nothing.
     * Collective in MPI; in rma4j every changeable hint acts at this rank only, so the call does not
     * communicate. MPI-3.1 §11.2.7.
     *
     * @throws RmaException INFO_VALUE for a malformed value (nothing changes), WIN on a freed window.
     */
    public void setInfo(final Info info) {
        errors.run("setInfo", () -> attributes.setInfo(info));
    }

    /**
     * MPI_WIN_SET_NAME: names the window at this rank (for messages and tools). Local. Longer names are
     * truncated to {@link #MAX_OBJECT_NAME} - 1 characters. MPI-3.1 §6.8.
     *
     * @throws RmaException ARG for null, WIN on a freed window.
     */
    public void setName(final String name) {
        errors.run("setName", () -> attributes.setName(name));
    }

    /** @return MPI_WIN_GET_NAME: the name given with {@link #setName}, or the empty string (MPI-3.1 §6.8). */
    public String getName() {
        return attributes.getName();
    }

    // ---------------------------------------------------------------- attribute caching (section 6.7.3)

    /**
     * MPI_WIN_CREATE_KEYVAL: a new key for {@link #setAttr}. The copy function is never called (MPI has no
     * window duplication); the delete function runs when a value leaves a window: at {@link #deleteAttr},
     * when {@link #setAttr} replaces it, and at {@link #free()}, which deletes a window's attributes in the
     * reverse order they were set. MPI-3.1 §6.7.3.
     *
     * @throws RmaException ARG for a null function (use {@link Keyval#nullCopyFn()}, {@link Keyval#nullDeleteFn()}).
     */
    public static <T> Keyval<T> createKeyval(final Keyval.CopyFunction<T> copyFn,
        final Keyval.DeleteFunction<T> deleteFn, final Object extraState) {
        return Keyval.create(copyFn, deleteFn, extraState);
    }

    /**
     * MPI_WIN_FREE_KEYVAL: the key can no longer be used to set, get or delete (KEYVAL); values already set
     * under it stay until deleted or their window is freed, when its delete function runs. MPI-3.1 §6.7.3.
     *
     * @throws RmaException KEYVAL for a predefined key.
     */
    public static void freeKeyval(final Keyval<?> keyval) {
        keyval.free();
    }

    /**
     * MPI_WIN_SET_ATTR: caches {@code value} on this window at this rank under {@code keyval}. A value
     * already set there is deleted first (its delete function runs); if that throws, nothing changes.
     * MPI-3.1 §6.7.3.
     *
     * @throws RmaException KEYVAL for a null, freed or predefined key, ARG for a null value, OTHER (or what
     *                      it threw) when the delete function of the old value throws.
     */
    public <T> void setAttr(final Keyval<T> keyval, final T value) {
        errors.run("setAttr", () -> attributes.set(keyval, value));
    }

    /**
     * MPI_WIN_GET_ATTR: the value cached under {@code keyval}, empty if none (MPI's flag false); for the
     * predefined keys ({@link Keyval#WIN_BASE} ...) the window's attribute. MPI-3.1 §6.7.3, §11.2.6.
     *
     * @throws RmaException KEYVAL for a null or freed key.
     */
    public <T> java.util.Optional<T> getAttr(final Keyval<T> keyval) {
        return errors.call("getAttr", () -> attributes.get(keyval));
    }

    /**
     * MPI_WIN_DELETE_ATTR: runs the delete function of the value cached under {@code keyval}, then removes
     * it; if the function throws, the value stays and the call throws. MPI-3.1 §6.7.3.
     *
     * @throws RmaException KEYVAL for a null, freed or predefined key, OTHER (or what it threw) when the
     *                      delete function throws.
     */
    public void deleteAttr(final Keyval<?> keyval) {
        errors.run("deleteAttr", () -> attributes.delete(keyval));
    }

    // ---------------------------------------------------------------- error handling (sections 8.3.3, 11.6)

    /**
     * MPI_WIN_CREATE_ERRHANDLER: a handler that calls {@code function} with the window and the error before
     * the failed call throws it (see {@link Errhandler}). MPI-3.1 §8.3.3.
     *
     * @throws RmaException ARG for null.
     */
    public static Errhandler createErrhandler(final Errhandler.Function function) {
        return Errhandler.create(function);
    }

    /**
     * MPI_WIN_SET_ERRHANDLER: what this window's calls do with their errors at this rank:
     * {@link Errhandler#ERRORS_RETURN} (the default: throw), {@link Errhandler#ERRORS_ARE_FATAL} (abort the
     * job), or a handler of {@link #createErrhandler}. Local. MPI-3.1 §8.3.3, §11.6.1.
     *
     * @throws RmaException ARG for null.
     */
    public void setErrhandler(final Errhandler errhandler) {
        errors.handler(errhandler);
    }

    /** @return MPI_WIN_GET_ERRHANDLER: this window's error handler at this rank. MPI-3.1 §8.3.3. */
    public Errhandler getErrhandler() {
        return errors.handler();
    }

    /** @return the rank of the calling process in the window's group. */
    public int rank() {
        return state.rank();
    }

    /** @return the size of the window's group. */
    public int ranks() {
        return state.sizes().length;
    }

    /** @return MPI_WIN_GET_GROUP: the job ranks of the window's ranks, in order (its communicator's group). */
    public Group group() {
        return state.context().group();
    }

    /**
     * The part of a shared window that belongs to {@code target}, for direct loads and stores
     * (MPI_WIN_SHARED_QUERY). {@link Rma#PROC_NULL} selects the lowest rank with a non-zero size. MPI-3.1 §11.2.3.
     *
     * @throws RmaException RMA_FLAVOR if the window is not of flavor SHARED, RANK for a bad rank.
     */
    public SharedRegion sharedQuery(final int target) {
        return errors.call("sharedQuery", () -> access.sharedQuery(target));
    }

    // ---------------------------------------------------------------- dynamic windows (section 11.2.4)

    /**
     * MPI_WIN_ATTACH: exposes {@code memory} in this dynamic window. Local (not collective). Other ranks
     * reach it with target displacements that are addresses in this process ({@link Rma#address}),
     * which this rank communicates to them (with a put, say). MPI-3.1 §11.2.4.
     *
     * @throws RmaException RMA_FLAVOR if the window is not dynamic; RMA_ATTACH if the memory is not in a
     *                      shared mapping of the job ({@link RmaJob#allocMem} memory, or an allocate or
     *                      allocateShared window's), or overlaps an attached region; NO_MEM if the attach
     *                      table cannot grow. Any number of regions may be attached.
     */
    public void attach(final MemorySegment memory) {
        errors.run("attach", () -> access.attach(memory));
    }

    /**
     * MPI_WIN_DETACH: withdraws the region attached at {@code memory}'s address. Local. MPI-3.1 §11.2.4.
     *
     * @throws RmaException RMA_FLAVOR if the window is not dynamic, RMA_ATTACH if no region starts there.
     */
    public void detach(final MemorySegment memory) {
        errors.run("detach", () -> access.detach(memory));
    }

    // ---------------------------------------------------------------- communication (section 11.3)

    /**
     * Copies {@code origin} into target's window at {@code targetDisp * dispUnit(target)}
     * (MPI_PUT of contiguous bytes). Complete at origin and target on return. MPI-3.1 §11.3.1.
     *
     * @throws RmaException WIN, RANK, RMA_SYNC, DISP or RMA_RANGE on misuse.
     */
    public void put(final MemorySegment origin, final int target, final long targetDisp) {
        try {
            access.put(origin, target, targetDisp);
        } catch (final RmaException e) {
            throw errors.raise("put", e);
        }
    }

    /**
     * Copies from target's window at {@code targetDisp * dispUnit(target)} into {@code destination}
     * (MPI_GET of contiguous bytes). Complete on return. MPI-3.1 §11.3.2.
     *
     * @throws RmaException WIN, RANK, RMA_SYNC, DISP or RMA_RANGE on misuse.
     */
    public void get(final MemorySegment destination, final int target, final long targetDisp) {
        try {
            access.get(destination, target, targetDisp);
        } catch (final RmaException e) {
            throw errors.raise("get", e);
        }
    }

    /**
     * MPI_PUT with datatypes: {@code originCount} instances of {@code originType} read from
     * {@code origin} are stored as {@code targetCount} instances of {@code targetType} at target's
     * {@code targetDisp * dispUnit}. The two must match in basic type and element count. Complete at
     * origin and target on return. MPI-3.1 §11.3.1.
     *
     * @throws RmaException TYPE for a null type or a signature mismatch, COUNT for a negative count or
     *                      an origin buffer too small, and WIN, RANK, RMA_SYNC, DISP, RMA_RANGE as
     *                      {@link #put(MemorySegment, int, long)}.
     */
    public void put(final MemorySegment origin, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType) {
        try {
            access.put(origin, originCount, originType, target, targetDisp, targetCount, targetType);
        } catch (final RmaException e) {
            throw errors.raise("put", e);
        }
    }

    /**
     * MPI_GET with datatypes: {@code targetCount} instances of {@code targetType} at target's
     * {@code targetDisp * dispUnit} are read into {@code destination} as {@code originCount} instances
     * of {@code originType}. Complete on return. MPI-3.1 §11.3.2.
     *
     * @throws RmaException as {@link #put(MemorySegment, long, Datatype, int, long, long, Datatype)}.
     */
    public void get(final MemorySegment destination, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType) {
        try {
            access.get(destination, originCount, originType, target, targetDisp, targetCount, targetType);
        } catch (final RmaException e) {
            throw errors.raise("get", e);
        }
    }

    /** Puts {@code length} bytes of {@code origin} from {@code offset}; see {@link #put(MemorySegment, int, long)}. */
    public void put(final byte[] origin, final int offset, final int length, final int target, final long targetDisp) {
        try {
            put(Checks.slice(MemorySegment.ofArray(origin), offset, length, Byte.BYTES), target, targetDisp);
        } catch (final RmaException e) {
            throw errors.raise("put", e);
        }
    }

    /** Puts {@code length} ints of {@code origin} from {@code offset}; see {@link #put(MemorySegment, int, long)}. */
    public void put(final int[] origin, final int offset, final int length, final int target, final long targetDisp) {
        try {
            put(Checks.slice(MemorySegment.ofArray(origin), offset, length, Integer.BYTES), target, targetDisp);
        } catch (final RmaException e) {
            throw errors.raise("put", e);
        }
    }

    /** Puts {@code length} longs of {@code origin} from {@code offset}; see {@link #put(MemorySegment, int, long)}. */
    public void put(final long[] origin, final int offset, final int length, final int target, final long targetDisp) {
        try {
            put(Checks.slice(MemorySegment.ofArray(origin), offset, length, Long.BYTES), target, targetDisp);
        } catch (final RmaException e) {
            throw errors.raise("put", e);
        }
    }

    /** Puts {@code length} doubles of {@code origin} from {@code offset}; see {@link #put(MemorySegment, int, long)}. */
    public void put(final double[] origin, final int offset, final int length, final int target,
        final long targetDisp) {
        try {
            put(Checks.slice(MemorySegment.ofArray(origin), offset, length, Double.BYTES), target, targetDisp);
        } catch (final RmaException e) {
            throw errors.raise("put", e);
        }
    }

    /** Gets {@code length} bytes into {@code destination} from {@code offset}; see {@link #get(MemorySegment, int, long)}. */
    public void get(final byte[] destination, final int offset, final int length, final int target,
        final long targetDisp) {
        try {
            get(Checks.slice(MemorySegment.ofArray(destination), offset, length, Byte.BYTES), target, targetDisp);
        } catch (final RmaException e) {
            throw errors.raise("get", e);
        }
    }

    /** Gets {@code length} ints into {@code destination} from {@code offset}; see {@link #get(MemorySegment, int, long)}. */
    public void get(final int[] destination, final int offset, final int length, final int target,
        final long targetDisp) {
        try {
            get(Checks.slice(MemorySegment.ofArray(destination), offset, length, Integer.BYTES), target, targetDisp);
        } catch (final RmaException e) {
            throw errors.raise("get", e);
        }
    }

    /** Gets {@code length} longs into {@code destination} from {@code offset}; see {@link #get(MemorySegment, int, long)}. */
    public void get(final long[] destination, final int offset, final int length, final int target,
        final long targetDisp) {
        try {
            get(Checks.slice(MemorySegment.ofArray(destination), offset, length, Long.BYTES), target, targetDisp);
        } catch (final RmaException e) {
            throw errors.raise("get", e);
        }
    }

    /** Gets {@code length} doubles into {@code destination} from {@code offset}; see {@link #get(MemorySegment, int, long)}. */
    public void get(final double[] destination, final int offset, final int length, final int target,
        final long targetDisp) {
        try {
            get(Checks.slice(MemorySegment.ofArray(destination), offset, length, Double.BYTES), target, targetDisp);
        } catch (final RmaException e) {
            throw errors.raise("get", e);
        }
    }

    // ---------------------------------------------------------------- accumulate family (section 11.3.4)

    /**
     * MPI_ACCUMULATE: combines {@code originCount} x {@code originType} from {@code origin} into the
     * target's {@code targetCount} x {@code targetType} at {@code targetDisp} with {@code op},
     * element by element. Each basic element is updated atomically against every other accumulate on
     * it from any rank (section 11.7.1), with no lock of the window; REPLACE makes it an atomic put.
     * Complete at origin and target on return, so accumulates from one origin to one location are
     * ordered as issued under every {@code accumulate_ordering}. MPI-3.1 §11.3.4.
     *
     * @throws RmaException OP for an op the target's type does not accept, DISP for a target element
     *                      not aligned to its size, and the errors of typed {@link #put(MemorySegment,
     *                      long, Datatype, int, long, long, Datatype) put}.
     */
    public void accumulate(final MemorySegment origin, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        try {
            access.accumulate(origin, originCount, originType, target, targetDisp, targetCount, targetType, op);
        } catch (final RmaException e) {
            throw errors.raise("accumulate", e);
        }
    }

    /**
     * MPI_GET_ACCUMULATE: like {@link #accumulate} and returns each target element's value before the
     * update in {@code result} ({@code resultCount} x {@code resultType}, matching the target). The
     * read and the update are one atomic step per element. With {@link Op#NO_OP} the origin is ignored
     * (it may be null with count 0): an atomic read. MPI-3.1 §11.3.4.
     *
     * @throws RmaException as {@link #accumulate}; TYPE if result and target do not match.
     */
    public void getAccumulate(final MemorySegment origin, final long originCount, final Datatype originType,
        final MemorySegment result, final long resultCount, final Datatype resultType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        try {
            access.getAccumulate(origin, originCount, originType, result, resultCount, resultType, target, targetDisp,
                targetCount, targetType, op);
        } catch (final RmaException e) {
            throw errors.raise("getAccumulate", e);
        }
    }

    /**
     * MPI_FETCH_AND_OP: one element of basic {@code type}: {@code result} receives the target's value,
     * which is atomically replaced by {@code op(value, origin)}. With NO_OP the origin is ignored. MPI-3.1 §11.3.4.
     *
     * @throws RmaException TYPE if type is not basic, OP for an op the type does not accept, DISP if
     *                      the target element is not aligned, and the errors of {@link #put}.
     */
    public void fetchAndOp(final MemorySegment origin, final MemorySegment result, final Datatype type,
        final int target, final long targetDisp, final Op op) {
        try {
            access.fetchAndOp(origin, result, type, target, targetDisp, op);
        } catch (final RmaException e) {
            throw errors.raise("fetchAndOp", e);
        }
    }

    /**
     * {@link #fetchAndOp(MemorySegment, MemorySegment, Datatype, int, long, Op)} on a long:
     * returns the target's previous value. MPI-3.1 §11.3.4.
     */
    public long fetchAndOp(final long operand, final int target, final long targetDisp, final Op op) {
        try {
            return access.fetchAndOpBits("fetchAndOp", Datatype.LONG, operand, target, targetDisp, op);
        } catch (final RmaException e) {
            throw errors.raise("fetchAndOp", e);
        }
    }

    /**
     * {@link #fetchAndOp(MemorySegment, MemorySegment, Datatype, int, long, Op)} on an int:
     * returns the target's previous value. MPI-3.1 §11.3.4.
     */
    public int fetchAndOp(final int operand, final int target, final long targetDisp, final Op op) {
        try {
            return (int)access.fetchAndOpBits("fetchAndOp", Datatype.INT, operand, target, targetDisp, op);
        } catch (final RmaException e) {
            throw errors.raise("fetchAndOp", e);
        }
    }

    /**
     * {@link #fetchAndOp(MemorySegment, MemorySegment, Datatype, int, long, Op)} on a double:
     * returns the target's previous value. MPI-3.1 §11.3.4.
     */
    public double fetchAndOp(final double operand, final int target, final long targetDisp, final Op op) {
        try {
            return Double.longBitsToDouble(access.fetchAndOpBits("fetchAndOp", Datatype.DOUBLE,
                Double.doubleToRawLongBits(operand), target, targetDisp, op));
        } catch (final RmaException e) {
            throw errors.raise("fetchAndOp", e);
        }
    }

    /**
     * MPI_COMPARE_AND_SWAP: one element of basic integer {@code type}: if the target's value equals
     * {@code compare}, it is replaced by {@code origin}; {@code result} receives the value before, in
     * one atomic step. MPI-3.1 §11.3.4.
     *
     * @throws RmaException TYPE if type is not a basic integer type, DISP if the target is not aligned,
     *                      and the errors of {@link #put}.
     */
    public void compareAndSwap(final MemorySegment origin, final MemorySegment compare, final MemorySegment result,
        final Datatype type, final int target, final long targetDisp) {
        try {
            access.compareAndSwap(origin, compare, result, type, target, targetDisp);
        } catch (final RmaException e) {
            throw errors.raise("compareAndSwap", e);
        }
    }

    /**
     * {@link #compareAndSwap(MemorySegment, MemorySegment, MemorySegment, Datatype, int, long)} on a long: returns the
     * target's previous value (equal to compare when the swap happened). MPI-3.1 §11.3.4.
     */
    public long compareAndSwap(final long compare, final long value, final int target, final long targetDisp) {
        try {
            return access.compareAndSwapBits(Datatype.LONG, compare, value, target, targetDisp);
        } catch (final RmaException e) {
            throw errors.raise("compareAndSwap", e);
        }
    }

    /**
     * {@link #compareAndSwap(MemorySegment, MemorySegment, MemorySegment, Datatype, int, long)} on an int: returns the
     * target's previous value (equal to compare when the swap happened). MPI-3.1 §11.3.4.
     */
    public int compareAndSwap(final int compare, final int value, final int target, final long targetDisp) {
        try {
            return (int)access.compareAndSwapBits(Datatype.INT, compare, value, target, targetDisp);
        } catch (final RmaException e) {
            throw errors.raise("compareAndSwap", e);
        }
    }

    // ---------------------------------------------------------------- request-based operations (section 11.3.5)

    /**
     * MPI_RPUT: {@link #put(MemorySegment, long, Datatype, int, long, long, Datatype)} returning a
     * request. Valid in passive-target epochs only. The operation is complete when the call returns,
     * so the request is complete at once. MPI-3.1 §11.3.5.
     *
     * @throws RmaException RMA_SYNC outside a passive-target epoch to target.
     */
    public RmaRequest rput(final MemorySegment origin, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType) {
        try {
            return access.rput(origin, originCount, originType, target, targetDisp, targetCount, targetType);
        } catch (final RmaException e) {
            throw errors.raise("rput", e);
        }
    }

    /**
     * MPI_RGET: {@link #get(MemorySegment, long, Datatype, int, long, long, Datatype)} returning a
     * request; passive-target epochs only. MPI-3.1 §11.3.5.
     */
    public RmaRequest rget(final MemorySegment destination, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType) {
        try {
            return access.rget(destination, originCount, originType, target, targetDisp, targetCount, targetType);
        } catch (final RmaException e) {
            throw errors.raise("rget", e);
        }
    }

    /**
     * MPI_RACCUMULATE: {@link #accumulate} returning a request; passive-target epochs only. MPI-3.1 §11.3.5.
     */
    public RmaRequest raccumulate(final MemorySegment origin, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        try {
            return access.raccumulate(origin, originCount, originType, target, targetDisp, targetCount, targetType, op);
        } catch (final RmaException e) {
            throw errors.raise("raccumulate", e);
        }
    }

    /**
     * MPI_RGET_ACCUMULATE: {@link #getAccumulate} returning a request; passive-target epochs only. MPI-3.1 §11.3.5.
     */
    public RmaRequest rgetAccumulate(final MemorySegment origin, final long originCount, final Datatype originType,
        final MemorySegment result, final long resultCount, final Datatype resultType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        try {
            return access.rgetAccumulate(origin, originCount, originType, result, resultCount, resultType, target,
                targetDisp, targetCount, targetType, op);
        } catch (final RmaException e) {
            throw errors.raise("rgetAccumulate", e);
        }
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
     * zero-length put only notifies. Notified Access (Belli and Hoefler, IPDPS 2015) §III; not in MPI-3.1.
     *
     * @throws RmaException TAG for a negative tag, and WIN, RANK, DISP, RMA_RANGE as {@link #put}.
     */
    public void putNotify(final MemorySegment origin, final int target, final long targetDisp, final int tag) {
        try {
            notified.putNotify(origin, target, targetDisp, tag);
        } catch (final RmaException e) {
            throw errors.raise("putNotify", e);
        }
    }

    /** {@link #putNotify(MemorySegment, int, long, int)} of {@code length} longs of {@code origin} from {@code offset}. */
    public void putNotify(final long[] origin, final int offset, final int length, final int target,
        final long targetDisp, final int tag) {
        try {
            putNotify(Checks.slice(MemorySegment.ofArray(origin), offset, length, Long.BYTES), target, targetDisp, tag);
        } catch (final RmaException e) {
            throw errors.raise("putNotify", e);
        }
    }

    /** {@link #putNotify(MemorySegment, int, long, int)} of {@code length} doubles of {@code origin} from {@code offset}. */
    public void putNotify(final double[] origin, final int offset, final int length, final int target,
        final long targetDisp, final int tag) {
        try {
            putNotify(Checks.slice(MemorySegment.ofArray(origin), offset, length, Double.BYTES), target, targetDisp,
                tag);
        } catch (final RmaException e) {
            throw errors.raise("putNotify", e);
        }
    }

    /**
     * Notified put with datatypes: {@link #put(MemorySegment, long, Datatype, int, long, long, Datatype)}
     * followed by a notification with {@code tag} (never inline).
     * Notified Access (Belli and Hoefler, IPDPS 2015) §III; not in MPI-3.1.
     */
    public void putNotify(final MemorySegment origin, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType, final int tag) {
        try {
            notified.putNotify(origin, originCount, originType, target, targetDisp, targetCount, targetType, tag);
        } catch (final RmaException e) {
            throw errors.raise("putNotify", e);
        }
    }

    /**
     * Notified get: {@link #get(MemorySegment, int, long) get} into {@code destination}, then a
     * notification with {@code tag} to {@code target}, which tells it that the data has been read.
     * Notified Access (Belli and Hoefler) §III.
     *
     * @throws RmaException as {@link #putNotify(MemorySegment, int, long, int)}.
     */
    public void getNotify(final MemorySegment destination, final int target, final long targetDisp, final int tag) {
        try {
            notified.getNotify(destination, target, targetDisp, tag);
        } catch (final RmaException e) {
            throw errors.raise("getNotify", e);
        }
    }

    /**
     * Notified accumulate: {@link #accumulate} of {@code count} elements of {@code type} (contiguous on
     * both sides), then a notification with {@code tag}. Notified Access (Belli and Hoefler) §III.
     *
     * @throws RmaException as {@link #accumulate} and TAG.
     */
    public void accumulateNotify(final MemorySegment origin, final long count, final Datatype type, final int target,
        final long targetDisp, final Op op, final int tag) {
        try {
            notified.accumulateNotify(origin, count, type, target, targetDisp, op, tag);
        } catch (final RmaException e) {
            throw errors.raise("accumulateNotify", e);
        }
    }

    /**
     * Notified fetch-and-op on a long: {@link #fetchAndOp(long, int, long, Op)}, then a notification.
     * Notified Access (Belli and Hoefler) §III.
     *
     * @return the target's previous value.
     */
    public long fetchAndOpNotify(final long operand, final int target, final long targetDisp, final Op op,
        final int tag) {
        try {
            return notified.fetchAndOpNotify(operand, target, targetDisp, op, tag);
        } catch (final RmaException e) {
            throw errors.raise("fetchAndOpNotify", e);
        }
    }

    /**
     * MPI_NOTIFY_INIT: a persistent request that completes after {@code expectedCount} notified
     * accesses to this rank's part of the window from {@code source} ({@link Rma#ANY_SOURCE}: any) with
     * {@code tag} ({@link Rma#ANY_TAG}: any). Notified Access (Belli and Hoefler) §III.
     *
     * @throws RmaException RANK for a bad source, TAG for a bad tag, COUNT for a negative count.
     */
    public NotifyRequest notifyInit(final int source, final int tag, final int expectedCount) {
        return errors.call("notifyInit", () -> notified.notifyInit(source, tag, expectedCount));
    }

    /** @return notifications that arrived at this rank and wait for a matching request. */
    public int unexpectedNotifications() {
        return errors.callInt("unexpectedNotifications", () -> notified.unexpectedNotifications());
    }

    // ---------------------------------------------------------------- active target: fence (section 11.5.1)

    /**
     * MPI_WIN_FENCE: a barrier over the window's group with full fences on both sides. Ends the fence
     * epoch it closes and, unless {@link Rma#MODE_NOSUCCEED} is asserted, opens the next. MPI-3.1 §11.5.1.
     *
     * @param assertions 0 or a combination of MODE_NOSTORE, MODE_NOPUT, MODE_NOPRECEDE, MODE_NOSUCCEED.
     * @throws RmaException ASSERT for other bits, RMA_SYNC inside a passive-target epoch.
     */
    public void fence(final int assertions) {
        errors.run("fence", () -> active.fence(assertions));
    }

    // ---------------------------------------------------------------- general active target (section 11.5.2)

    /**
     * MPI_WIN_POST: starts an exposure epoch of this rank's window to the origins in {@code group}
     * and lets their matching {@link #start} proceed. Does not block. MPI-3.1 §11.5.2.
     *
     * @param assertions 0 or a combination of MODE_NOCHECK (every matching start also asserts it and
     *                   runs after this post: no post message is sent), MODE_NOSTORE, MODE_NOPUT.
     * @throws RmaException ASSERT, GROUP / RANK for a member outside the window, RMA_SYNC if an exposure
     *                      epoch is open or a fence epoch with RMA calls is.
     */
    public void post(final Group group, final int assertions) {
        errors.run("post", () -> active.post(group, assertions));
    }

    /**
     * MPI_WIN_START: starts an access epoch to the targets in {@code group}, blocking until each has
     * posted (the standard allows start to block). RMA calls in the epoch may reach only those targets.
     * MPI-3.1 §11.5.2.
     *
     * @param assertions 0 or MODE_NOCHECK (the matching posts were made with MODE_NOCHECK and have
     *                   completed: start does not wait).
     * @throws RmaException ASSERT, GROUP / RANK, RMA_SYNC if an access epoch is open.
     */
    public void start(final Group group, final int assertions) {
        errors.run("start", () -> active.start(group, assertions));
    }

    /**
     * MPI_WIN_COMPLETE: ends the access epoch of {@link #start}; every RMA call of the epoch is
     * complete (at origin and, in rma4j, at target) and the targets' {@link #await} may return. MPI-3.1 §11.5.2.
     *
     * @throws RmaException RMA_SYNC without a matching start.
     */
    public void complete() {
        errors.run("complete", () -> active.complete());
    }

    /**
     * MPI_WIN_WAIT (named {@code await} because {@code Object.wait()} is final): blocks until every
     * origin of the matching {@link #post} has called {@link #complete}, then ends the exposure epoch;
     * their RMA calls are visible in this rank's window afterwards. MPI-3.1 §11.5.2.
     *
     * @throws RmaException RMA_SYNC without a matching post.
     */
    public void await() {
        errors.run("await", () -> active.await());
    }

    /**
     * MPI_WIN_TEST: the nonblocking {@link #await}: returns true and ends the exposure epoch if every
     * origin has completed, false otherwise (the epoch stays open). MPI-3.1 §11.5.2.
     *
     * @throws RmaException RMA_SYNC without a matching post.
     */
    public boolean test() {
        return errors.callBoolean("test", () -> active.test());
    }

    // ---------------------------------------------------------------- passive target (section 11.5.3)

    /**
     * MPI_WIN_LOCK: starts a passive-target access epoch to {@code target}, blocking until the lock is
     * held. The target takes no part. {@link Rma#MODE_NOCHECK} skips the acquisition (the caller
     * asserts that no conflicting lock is held or will be requested). MPI-3.1 §11.5.3.
     *
     * @throws RmaException LOCKTYPE, RANK, ASSERT, or RMA_SYNC if an epoch conflicts.
     */
    public void lock(final LockType lockType, final int target, final int assertions) {
        errors.run("lock", () -> passive.lock(lockType, target, assertions));
    }

    /** {@link #lock(LockType, int, int)} with no assertions. */
    public void lock(final LockType lockType, final int target) {
        errors.run("lock", () -> lock(lockType, target, 0));
    }

    /**
     * MPI_WIN_UNLOCK: completes every operation to {@code target} and ends the epoch. MPI-3.1 §11.5.3.
     *
     * @throws RmaException RMA_SYNC without a matching lock.
     */
    public void unlock(final int target) {
        errors.run("unlock", () -> passive.unlock(target));
    }

    /**
     * MPI_WIN_LOCK_ALL: a shared lock on every target, held until {@link #unlockAll()}. MPI-3.1 §11.5.3.
     *
     * @throws RmaException ASSERT for bits other than MODE_NOCHECK, RMA_SYNC if an epoch conflicts.
     */
    public void lockAll(final int assertions) {
        errors.run("lockAll", () -> passive.lockAll(assertions));
    }

    /** {@link #lockAll(int)} with no assertions. */
    public void lockAll() {
        errors.run("lockAll", () -> lockAll(0));
    }

    /**
     * MPI_WIN_UNLOCK_ALL: completes every operation and ends the lock_all epoch. MPI-3.1 §11.5.3.
     *
     * @throws RmaException RMA_SYNC without lock_all.
     */
    public void unlockAll() {
        errors.run("unlockAll", () -> passive.unlockAll());
    }

    // ---------------------------------------------------------------- flush and sync (section 11.5.4)

    /**
     * MPI_WIN_FLUSH: completes, at origin and target, every operation this rank issued to
     * {@code target}. Operations complete at their call in rma4j, so this is a full memory fence; the
     * epoch stays open (Example 11.18). MPI-3.1 §11.5.4.
     *
     * @throws RmaException RMA_SYNC outside a passive-target epoch to target.
     */
    public void flush(final int target) {
        errors.run("flush", () -> passive.flush(target));
    }

    /**
     * MPI_WIN_FLUSH_ALL: {@link #flush} for every target. MPI-3.1 §11.5.4.
     */
    public void flushAll() {
        errors.run("flushAll", () -> passive.flushAll());
    }

    /**
     * MPI_WIN_FLUSH_LOCAL: completes this rank's operations to {@code target} locally (origin buffers
     * may be reused). A full fence, like {@link #flush}. MPI-3.1 §11.5.4.
     */
    public void flushLocal(final int target) {
        errors.run("flushLocal", () -> passive.flushLocal(target));
    }

    /**
     * MPI_WIN_FLUSH_LOCAL_ALL: {@link #flushLocal} for every target. MPI-3.1 §11.5.4.
     */
    public void flushLocalAll() {
        errors.run("flushLocalAll", () -> passive.flushLocalAll());
    }

    /**
     * MPI_WIN_SYNC: synchronizes the public and private copies of this rank's window. They are the
     * same memory (UNIFIED), so this is a full memory fence, which orders this rank's loads and
     * stores on shared memory around it (Example 11.7). Valid in any epoch state. MPI-3.1 §11.5.4.
     */
    public void sync() {
        errors.run("sync", () -> passive.sync());
    }

    // ---------------------------------------------------------------- destruction (section 11.2.5)

    /**
     * MPI_WIN_FREE: collective; waits for every rank, then unmaps the window. Afterwards every call on
     * it raises WIN and segments obtained from it are no longer accessible.
     *
     * @throws RmaException RMA_SYNC while this rank holds a lock or lock_all, or a start or post epoch is
     *                      open (nothing changes); OTHER if the ranks' collective calls do not match or
     *                      an earlier call of this rank failed.
     * @throws RankFailedException if a rank fails while this one waits.
     */
    public void free() {
        errors.run("free", () -> lifecycle.free(this, attributes));
    }

    /**
     * Frees the window ({@link #free()}) if it is not freed yet, unless this rank cannot take part in a
     * collective call any more: then it abandons the job instead (the rank is marked failed, so peers'
     * blocking calls throw {@link RankFailedException} naming it, see {@link RmaJob}). That
     * is the case after a failed call of this rank, and when the window is closed in the middle of an
     * exchange, as when an exception escapes a {@code try}-with-resources block: inside a lock, lock_all,
     * start or post epoch, or with a notification request of the window active.
     *
     * @throws RmaException RMA_SYNC when it abandoned the job because of an open epoch or active request,
     *                      naming it; whatever {@link #free()} throws.
     */
    @Override
    public void close() {
        errors.run("close", () -> lifecycle.close(this, attributes));
    }

    /** @return whether {@link #free()} was called. */
    public boolean isFreed() {
        return state.isFreed();
    }

    /** Unmaps without the collective barrier, when the job closes with the window still open. */
    void release() {
        lifecycle.release();
    }

    /**
     * The counters of this rank's use of this window (MPI_T performance variables): operations and bytes
     * per target, blocking calls and their time. See {@link WindowStatistics}.
     *
     * @return a snapshot.
     */
    public WindowStatistics statistics() {
        return state.counters().snapshot();
    }

    /** @return this rank's memory, after the WIN check of a freed window. */
    private MemorySegment localSegment() {
        state.checkOpen("segment");
        return localSegment;
    }

    /** @return the window's notification endpoint. */
    Notifications notifications() {
        return notified.notifications();
    }

    /** @return the job the window belongs to. */
    RmaJob jobOf() {
        return state.job();
    }

    /** @return the collective machinery of the window's communicator. */
    CommContext context() {
        return state.context();
    }

    @Override
    public String toString() {
        return "Window{" + flavor() + ", rank=" + rank() + "/" + ranks() + ", size=" + size() + ", dispUnit="
            + dispUnit() + (state.isFreed() ? ", freed" : "") + '}';
    }

}
