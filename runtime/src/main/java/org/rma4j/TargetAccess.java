package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import org.rma4j.internal.AtomicElements;

/**
 * Target access of one window (MPI-3.1 section 11.3, and the window attributes of 11.2): the argument
 * checks of every RMA communication call (window, rank, epoch, displacement, datatypes, buffers), their
 * counting, and the hand-over of the data movement to the window's {@link WindowTransport}: put, get, the
 * accumulate family, fetch-and-op and compare-and-swap, their request-based variants (11.3.5), shared-memory
 * queries (11.2.3) and dynamic attach / detach (11.2.4) of the window's {@link TargetMemory}.
 *
 * <p>The epoch rules are checked by {@link Epochs}; when an operation completes, by its transport (see
 * {@link WindowSynchronization}, "Completion"). Javadoc of each call: {@link WindowCommunication}. Each
 * call hands its {@link RmaException} to the window's {@link WindowErrors} (MPI-3.1 section 8.3) before it leaves.
 */
final class TargetAccess {
    private final WindowState state;
    private final RmaJob job;
    private final int rank;
    private final WindowFlavor flavor;
    private final TargetMemory memory;
    private final long[] sizes;
    /** The window's highest rank ({@code sizes.length - 1}): the op path's rank check reads no array. */
    private final int lastRank;
    private final int[] dispUnits;
    private final Epochs epochs;
    private final WindowTransport transport;
    /**
     * Each target's memory, by rank, when every target's is mapped here and known at creation (the parts of a
     * {@link ShmTransport}'s {@link TargetMemory.Fixed}), else null: contiguous put and get copy through it without
     * the transport's dispatch, which keeps their compiled code small enough for callers to inline, and one object
     * fewer between the window and the target's segment (bench/README).
     */
    private final TargetMemory.Part[] direct;
    /** Every call below hands its {@link RmaException} to the window's error handler before it leaves. */
    private final WindowErrors errors;
    private final WindowCounters counters;
    /** This rank's memory in the window. */
    private final MemorySegment localSegment;

    TargetAccess(final WindowState state, final WindowFlavor flavor, final TargetMemory memory, final int[] dispUnits,
        final MemorySegment localSegment, final Epochs epochs, final WindowTransport transport,
        final WindowErrors errors) {
        this.state = state;
        this.localSegment = localSegment;
        this.job = state.job();
        this.rank = state.rank();
        this.flavor = flavor;
        this.memory = memory;
        this.sizes = state.sizes();
        this.lastRank = sizes.length - 1;
        this.dispUnits = dispUnits;
        this.epochs = epochs;
        this.transport = transport;
        this.direct = transport instanceof ShmTransport shm && shm.memory() instanceof TargetMemory.Fixed fixed
            ? fixed.parts()
            : null;
        this.errors = errors;
        this.counters = state.counters();
    }

    WindowFlavor flavor() {
        return flavor;
    }

    int dispUnit(final int target) {
        return dispUnits[target];
    }

    /** @return this rank's memory, after the WIN check of a freed window. */
    MemorySegment segment() {
        try {
            checkOpen("segment");
            return localSegment;
        } catch (final RmaException e) {
            throw errors.raise("segment", e);
        }
    }

    SharedRegion sharedQuery(final int target) {
        try {
            return sharedRegion(target);
        } catch (final RmaException e) {
            throw errors.raise("sharedQuery", e);
        }
    }

    private SharedRegion sharedRegion(final int target) {
        checkOpen("sharedQuery");
        if (flavor != WindowFlavor.SHARED) {
            throw new RmaException(ErrorClass.RMA_FLAVOR,
                "sharedQuery on a window of flavor " + flavor + "; only allocateShared windows may be queried");
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

    void attach(final MemorySegment memory) {
        try {
            attachRegion(memory);
        } catch (final RmaException e) {
            throw errors.raise("attach", e);
        }
    }

    private void attachRegion(final MemorySegment memory) {
        checkOpen("attach");
        final DynamicMemory dynamic = dynamic("attach");
        Objects.requireNonNull(memory, "memory");
        final SharedAllocator.Location location = job.allocator().locate(memory);
        if (location == null) {
            throw new RmaException(ErrorClass.RMA_ATTACH,
                "attach of " + AttachedRegions.describe(memory.address(), memory.byteSize())
                    + ": not in a shared mapping of the job (allocMem memory, or the memory of an"
                    + " allocate or allocateShared window): no other process can map it"
                    + (memory.isNative() ? " (a private arena, say)" : " (a Java heap array never can)"));
        }
        dynamic.attach(memory, location);
    }

    void detach(final MemorySegment memory) {
        try {
            checkOpen("detach");
            dynamic("detach").detach(Objects.requireNonNull(memory, "memory"));
        } catch (final RmaException e) {
            throw errors.raise("detach", e);
        }
    }

    private DynamicMemory dynamic(final String call) {
        if (!(memory instanceof DynamicMemory dynamic)) {
            throw new RmaException(ErrorClass.RMA_FLAVOR,
                call + " on a window of flavor " + flavor + "; only createDynamic windows take attached memory");
        }
        return dynamic;
    }

    void put(final MemorySegment origin, final int target, final long targetDisp) {
        try {
            // NOTE: where every target is mapped here (direct), a contiguous put or get copies between the
            // caller's bytes and the target's memory without the transport's dispatch and without a slice: the op
            // path's compiled code stays below the size up to which callers inline it (bench/README).
            final long length = origin.byteSize();
            if (reaches("put", target, targetDisp, length)) {
                if (direct != null) {
                    direct[target].put("put", target, origin, targetDisp);
                } else {
                    transport.put("put", origin, target, targetDisp);
                }
                count(WindowCounters.PUT, target, length);
            }
        } catch (final RmaException e) {
            throw errors.raise("put", e);
        }
    }

    void get(final MemorySegment destination, final int target, final long targetDisp) {
        try {
            final long length = destination.byteSize();
            if (reaches("get", target, targetDisp, length)) {
                if (direct != null) {
                    direct[target].get("get", target, destination, targetDisp);
                } else {
                    transport.get("get", destination, target, targetDisp);
                }
                count(WindowCounters.GET, target, length);
            }
        } catch (final RmaException e) {
            throw errors.raise("get", e);
        }
    }

    /**
     * Put of {@code length} elements of {@code array} ({@code arrayLength} elements of {@code layout}'s carrier)
     * from {@code offset}.
     */
    void putArray(final Object array, final int arrayLength, final int offset, final int length,
        final ValueLayout layout, final int target, final long targetDisp) {
        try {
            Checks.checkElements(arrayLength, offset, length);
            final long bytes = length * layout.byteSize();
            if (reaches("put", target, targetDisp, bytes)) {
                if (direct != null) {
                    direct[target].putArray("put", target, array, offset, length, layout, targetDisp);
                } else {
                    transport.put("put", Checks.arraySlice(array, offset, length, layout), target, targetDisp);
                }
                count(WindowCounters.PUT, target, bytes);
            }
        } catch (final RmaException e) {
            throw errors.raise("put", e);
        }
    }

    /**
     * Get of {@code length} elements into {@code array} ({@code arrayLength} elements of {@code layout}'s carrier)
     * from {@code offset}.
     */
    void getArray(final Object array, final int arrayLength, final int offset, final int length,
        final ValueLayout layout, final int target, final long targetDisp) {
        try {
            Checks.checkElements(arrayLength, offset, length);
            final long bytes = length * layout.byteSize();
            if (reaches("get", target, targetDisp, bytes)) {
                if (direct != null) {
                    direct[target].getArray("get", target, array, offset, length, layout, targetDisp);
                } else {
                    transport.get("get", Checks.arraySlice(array, offset, length, layout), target, targetDisp);
                }
                count(WindowCounters.GET, target, bytes);
            }
        } catch (final RmaException e) {
            throw errors.raise("get", e);
        }
    }

    void put(final MemorySegment origin, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType) {
        try {
            if (typedReaches("put", origin, originCount, originType, target, targetDisp, targetCount, targetType)) {
                transport.put("put", origin, originCount, originType, target, targetDisp, targetCount, targetType);
                count(WindowCounters.PUT, target, targetType.span(targetCount));
            }
        } catch (final RmaException e) {
            throw errors.raise("put", e);
        }
    }

    void get(final MemorySegment destination, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType) {
        try {
            if (typedReaches("get", destination, originCount, originType, target, targetDisp, targetCount,
                targetType)) {
                transport.get("get", destination, originCount, originType, target, targetDisp, targetCount, targetType);
                count(WindowCounters.GET, target, targetType.span(targetCount));
            }
        } catch (final RmaException e) {
            throw errors.raise("get", e);
        }
    }

    void accumulate(final MemorySegment origin, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        try {
            Checks.checkOp("accumulate", op, targetType);
            Checks.checkNotNoOp("accumulate", op);
            if (typedAtomicReaches("accumulate", origin, originCount, originType, target, targetDisp, targetCount,
                targetType)) {
                transport.accumulate("accumulate", op, origin, originCount, originType, target, targetDisp, targetCount,
                    targetType);
                count(WindowCounters.ACCUMULATE, target, targetType.span(targetCount));
            }
        } catch (final RmaException e) {
            throw errors.raise("accumulate", e);
        }
    }

    void getAccumulate(final MemorySegment origin, final long originCount, final Datatype originType,
        final MemorySegment result, final long resultCount, final Datatype resultType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        try {
            Checks.checkOp("getAccumulate", op, targetType);
            Objects.requireNonNull(result, "result");
            Checks.checkAccumulateTypes("getAccumulate", resultCount, resultType, targetCount, targetType);
            Checks.checkBuffer("getAccumulate", "result", result, resultCount, resultType);
            final boolean reaches = op == Op.NO_OP
                ? reaches("getAccumulate", target, targetDisp, targetType.span(targetCount))
                : typedAtomicReaches("getAccumulate", origin, originCount, originType, target, targetDisp, targetCount,
                    targetType);
            if (reaches) {
                transport.getAccumulate("getAccumulate", op, op == Op.NO_OP ? null : origin, originCount, originType,
                    result, resultCount, resultType, target, targetDisp, targetCount, targetType);
                count(WindowCounters.ACCUMULATE, target, targetType.span(targetCount));
            }
        } catch (final RmaException e) {
            throw errors.raise("getAccumulate", e);
        }
    }

    void fetchAndOp(final MemorySegment origin, final MemorySegment result, final Datatype type, final int target,
        final long targetDisp, final Op op) {
        try {
            Checks.checkBasic("fetchAndOp", type);
            Checks.checkOp("fetchAndOp", op, type);
            Checks.checkBuffer("fetchAndOp", "result", result, 1, type);
            if (op != Op.NO_OP) {
                Checks.checkBuffer("fetchAndOp", "origin", origin, 1, type);
            }
            if (reaches("fetchAndOp", target, targetDisp, type.extent())) {
                transport.fetchAndOp("fetchAndOp", op, type, op == Op.NO_OP ? null : origin, result, target,
                    targetDisp);
                count(WindowCounters.ATOMIC, target, type.extent());
            }
        } catch (final RmaException e) {
            throw errors.raise("fetchAndOp", e);
        }
    }

    void compareAndSwap(final MemorySegment origin, final MemorySegment compare, final MemorySegment result,
        final Datatype type, final int target, final long targetDisp) {
        try {
            Checks.checkCompareAndSwapType(type);
            Checks.checkBuffer("compareAndSwap", "origin", origin, 1, type);
            Checks.checkBuffer("compareAndSwap", "compare", compare, 1, type);
            Checks.checkBuffer("compareAndSwap", "result", result, 1, type);
            if (reaches("compareAndSwap", target, targetDisp, type.size())) {
                final Datatype.Basic basic = type.basic();
                AtomicElements.write(basic, result, 0, transport.compareAndSwap("compareAndSwap", type,
                    AtomicElements.read(basic, compare, 0), AtomicElements.read(basic, origin, 0), target, targetDisp));
                count(WindowCounters.ATOMIC, target, type.size());
            }
        } catch (final RmaException e) {
            throw errors.raise("compareAndSwap", e);
        }
    }

    RmaRequest rput(final MemorySegment origin, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType) {
        try {
            checkRequestEpoch("rput", target);
            put(origin, originCount, originType, target, targetDisp, targetCount, targetType);
            if (!transport.mapped(target)) {
                // The request's completion is local completion (section 11.3.5): the origin buffer may be reused.
                transport.flushLocal(target);
            }
            return RmaRequest.completed("rput");
        } catch (final RmaException e) {
            throw errors.raise("rput", e);
        }
    }

    RmaRequest rget(final MemorySegment destination, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType) {
        try {
            checkRequestEpoch("rget", target);
            get(destination, originCount, originType, target, targetDisp, targetCount, targetType);
            return RmaRequest.completed("rget");
        } catch (final RmaException e) {
            throw errors.raise("rget", e);
        }
    }

    RmaRequest raccumulate(final MemorySegment origin, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        try {
            checkRequestEpoch("raccumulate", target);
            accumulate(origin, originCount, originType, target, targetDisp, targetCount, targetType, op);
            return RmaRequest.completed("raccumulate");
        } catch (final RmaException e) {
            throw errors.raise("raccumulate", e);
        }
    }

    RmaRequest rgetAccumulate(final MemorySegment origin, final long originCount, final Datatype originType,
        final MemorySegment result, final long resultCount, final Datatype resultType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        try {
            checkRequestEpoch("rgetAccumulate", target);
            getAccumulate(origin, originCount, originType, result, resultCount, resultType, target, targetDisp,
                targetCount, targetType, op);
            return RmaRequest.completed("rgetAccumulate");
        } catch (final RmaException e) {
            throw errors.raise("rgetAccumulate", e);
        }
    }

    /**
     * Checks an access of {@code lengthBytes} at target's {@code targetDisp} (window open, rank, epoch,
     * displacement) and counts it.
     *
     * @return false for PROC_NULL (no operation).
     */
    private boolean reaches(final String call, final int target, final long targetDisp, final long lengthBytes) {
        checkOpen(call);
        // NOTE: one sign test for PROC_NULL, a rank outside the window and a negative displacement (the op path's
        // compiled code keeps one exit for the three); reachesOrThrows tells them apart in the order of the checks.
        if ((target | lastRank - target | targetDisp) < 0) {
            return reachesOrThrows(call, target, targetDisp);
        }
        epochs.checkAccess(target, call);
        return true;
    }

    private boolean reachesOrThrows(final String call, final int target, final long targetDisp) {
        if (target == Rma.PROC_NULL) {
            return false;
        }
        checkRank(target, call);
        epochs.checkAccess(target, call);
        throw new RmaException(ErrorClass.DISP, call + " target_disp=" + targetDisp + " is negative");
    }

    /** Counts an operation that went through ({@link WindowCounters}: not those that threw). */
    private void count(final int kind, final int target, final long lengthBytes) {
        // NOTE: tested here too: with the counters off (a constant) no call, and no null check of its receiver.
        if (WindowCounters.ENABLED) {
            counters.count(kind, target, lengthBytes);
        }
    }

    /**
     * Validates a typed atomic access (accumulate signatures) and checks where it goes, as {@link #reaches}.
     */
    private boolean typedAtomicReaches(final String call, final MemorySegment originBuffer, final long originCount,
        final Datatype originType, final int target, final long targetDisp, final long targetCount,
        final Datatype targetType) {
        Objects.requireNonNull(originBuffer, "origin buffer");
        Checks.checkAccumulateTypes(call, originCount, originType, targetCount, targetType);
        Checks.checkBuffer(call, "origin", originBuffer, originCount, originType);
        return reaches(call, target, targetDisp, targetType.span(targetCount));
    }

    /**
     * Validates a typed access and checks where it goes, as {@link #reaches}.
     */
    private boolean typedReaches(final String call, final MemorySegment originBuffer, final long originCount,
        final Datatype originType, final int target, final long targetDisp, final long targetCount,
        final Datatype targetType) {
        Objects.requireNonNull(originBuffer, "origin buffer");
        Checks.checkTypes(call, originCount, originType, targetCount, targetType);
        Checks.checkBuffer(call, "origin", originBuffer, originCount, originType);
        return reaches(call, target, targetDisp, targetType.span(targetCount));
    }

    long fetchAndOpBits(final String call, final Datatype type, final long operand, final int target,
        final long targetDisp, final Op op) {
        try {
            Checks.checkOp(call, op, type);
            if (!reaches(call, target, targetDisp, type.size())) {
                return 0;
            }
            final long previous = transport.fetchAndOp(call, op, type, operand, target, targetDisp);
            count(WindowCounters.ATOMIC, target, type.size());
            return previous;
        } catch (final RmaException e) {
            throw errors.raise(call, e);
        }
    }

    long compareAndSwapBits(final Datatype type, final long compare, final long value, final int target,
        final long targetDisp) {
        try {
            if (!reaches("compareAndSwap", target, targetDisp, type.size())) {
                return 0;
            }
            final long previous = transport.compareAndSwap("compareAndSwap", type, compare, value, target, targetDisp);
            count(WindowCounters.ATOMIC, target, type.size());
            return previous;
        } catch (final RmaException e) {
            throw errors.raise("compareAndSwap", e);
        }
    }

    private void checkRequestEpoch(final String call, final int target) {
        checkOpen(call);
        if (target != Rma.PROC_NULL) {
            checkRank(target, call);
            epochs.checkPassive(target, call);
        }
    }

    private void checkOpen(final String call) {
        state.checkOpen(call);
    }

    private void checkRank(final int target, final String call) {
        state.checkRank(target, call);
    }
}
