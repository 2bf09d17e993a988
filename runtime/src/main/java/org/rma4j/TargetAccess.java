package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.rma4j.internal.AtomicElements;

/**
 * Target access of one window (MPI-3.1 section 11.3, and the window attributes of 11.2): the argument
 * checks of every RMA communication call, the resolution of a target rank and displacement to the
 * mapped target memory ({@link TargetMemory}), and the data movement itself: put, get, the accumulate
 * family, fetch-and-op and compare-and-swap (element-wise atomics in {@link AtomicElements}), their
 * request-based variants (11.3.5), shared-memory queries (11.2.3) and dynamic attach / detach (11.2.4).
 *
 * <p>Every operation completes at the call (see {@link Window}, "Completion"); the epoch rules are
 * checked by {@link Epochs}. Javadoc of each call: {@link Window}.
 */
final class TargetAccess {
    private final WindowState state;
    private final RmaJob job;
    private final int rank;
    private final WindowFlavor flavor;
    private final TargetMemory memory;
    private final long[] sizes;
    private final int[] dispUnits;
    private final Epochs epochs;
    private final PairLocks pairLocks;

    TargetAccess(final WindowState state, final WindowFlavor flavor, final TargetMemory memory, final int[] dispUnits,
        final Epochs epochs, final PairLocks pairLocks) {
        this.state = state;
        this.job = state.job();
        this.rank = state.rank();
        this.flavor = flavor;
        this.memory = memory;
        this.sizes = state.sizes();
        this.dispUnits = dispUnits;
        this.epochs = epochs;
        this.pairLocks = pairLocks;
    }

    WindowFlavor flavor() {
        return flavor;
    }

    int dispUnit(final int target) {
        return dispUnits[target];
    }

    SharedRegion sharedQuery(final int target) {
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
        checkOpen("detach");
        dynamic("detach").detach(Objects.requireNonNull(memory, "memory"));
    }

    private DynamicMemory dynamic(final String call) {
        if (!(memory instanceof DynamicMemory dynamic)) {
            throw new RmaException(ErrorClass.RMA_FLAVOR,
                call + " on a window of flavor " + flavor + "; only createDynamic windows take attached memory");
        }
        return dynamic;
    }

    void put(final MemorySegment origin, final int target, final long targetDisp) {
        Objects.requireNonNull(origin, "origin");
        final MemorySegment destination = targetSlice("put", target, targetDisp, origin.byteSize());
        if (destination != null) {
            MemorySegment.copy(origin, 0, destination, 0, origin.byteSize());
        }
    }

    void get(final MemorySegment destination, final int target, final long targetDisp) {
        Objects.requireNonNull(destination, "destination");
        final MemorySegment source = targetSlice("get", target, targetDisp, destination.byteSize());
        if (source != null) {
            MemorySegment.copy(source, 0, destination, 0, destination.byteSize());
        }
    }

    void put(final MemorySegment origin, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType) {
        final MemorySegment memory = typedTarget("put", origin, originCount, originType, target, targetDisp,
            targetCount, targetType);
        if (memory == null) {
            return;
        }
        TypeCursor.copy(origin, new TypeCursor(0, originCount, originType), memory,
            new TypeCursor(0, targetCount, targetType));
    }

    void get(final MemorySegment destination, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType) {
        final MemorySegment memory = typedTarget("get", destination, originCount, originType, target, targetDisp,
            targetCount, targetType);
        if (memory == null) {
            return;
        }
        TypeCursor.copy(memory, new TypeCursor(0, targetCount, targetType), destination,
            new TypeCursor(0, originCount, originType));
    }

    void accumulate(final MemorySegment origin, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        Checks.checkOp("accumulate", op, targetType);
        Checks.checkNotNoOp("accumulate", op);
        final TargetMemory.Place place = typedPlace("accumulate", origin, originCount, originType, target, targetDisp,
            targetCount, targetType);
        if (place == null) {
            return;
        }
        if (targetType.pairOrNull() != null) {
            PairAccumulates.apply("accumulate", pairLocks, op, targetType.pairOrNull(), target, origin, originCount,
                originType, null, 0, null, place, targetCount, targetType);
            return;
        }
        final Datatype.Basic basic = targetType.basic();
        Checks.checkAligned("accumulate", target, place.address(), basic);
        final MemorySegment mapping = place.mapping();
        if (originType.isContiguous() && targetType.isContiguous()) {
            // One run on both sides: no cursors to walk (and none to allocate).
            AtomicElements.accumulate(op, basic, origin, 0, mapping, place.offset(),
                targetCount * targetType.elements());
            return;
        }
        TypeCursor.zip(new TypeCursor(0, originCount, originType),
            new TypeCursor(place.offset(), targetCount, targetType),
            (originOffset, targetOffset, elements) -> AtomicElements.accumulate(op, basic, origin, originOffset,
                mapping, targetOffset, elements));
    }

    void getAccumulate(final MemorySegment origin, final long originCount, final Datatype originType,
        final MemorySegment result, final long resultCount, final Datatype resultType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        Checks.checkOp("getAccumulate", op, targetType);
        Objects.requireNonNull(result, "result");
        Checks.checkAccumulateTypes("getAccumulate", resultCount, resultType, targetCount, targetType);
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
        if (targetType.pairOrNull() != null) {
            PairAccumulates.apply("getAccumulate", pairLocks, op, targetType.pairOrNull(), target,
                op == Op.NO_OP ? null : origin, originCount, originType, result, resultCount, resultType, place,
                targetCount, targetType);
            return;
        }
        final Datatype.Basic basic = targetType.basic();
        Checks.checkAligned("getAccumulate", target, place.address(), basic);
        final MemorySegment mapping = place.mapping();
        if (resultType.isContiguous() && targetType.isContiguous() && (op == Op.NO_OP || originType.isContiguous())) {
            // One run on every side: no cursors to walk (and none to allocate).
            AtomicElements.getAccumulate(op, basic, op == Op.NO_OP ? null : origin, 0, result, 0, mapping,
                place.offset(), targetCount * targetType.elements());
            return;
        }
        final TypeCursor targetCursor = new TypeCursor(place.offset(), targetCount, targetType);
        if (op == Op.NO_OP) {
            TypeCursor.zip(new TypeCursor(0, resultCount, resultType), targetCursor,
                (resultOffset, targetOffset, elements) -> AtomicElements.getAccumulate(op, basic, null, 0, result,
                    resultOffset, mapping, targetOffset, elements));
        } else {
            TypeCursor.zip(new TypeCursor(0, originCount, originType), new TypeCursor(0, resultCount, resultType),
                targetCursor, (originOffset, resultOffset, targetOffset, elements) -> AtomicElements.getAccumulate(op,
                    basic, origin, originOffset, result, resultOffset, mapping, targetOffset, elements));
        }
    }

    void fetchAndOp(final MemorySegment origin, final MemorySegment result, final Datatype type, final int target,
        final long targetDisp, final Op op) {
        Checks.checkBasic("fetchAndOp", type);
        Checks.checkOp("fetchAndOp", op, type);
        Checks.checkBuffer("fetchAndOp", "result", result, 1, type);
        if (op != Op.NO_OP) {
            Checks.checkBuffer("fetchAndOp", "origin", origin, 1, type);
        }
        final TargetMemory.Place place = targetPlace("fetchAndOp", target, targetDisp, type.extent());
        if (place != null && type.isPairType()) {
            PairAccumulates.apply("fetchAndOp", pairLocks, op, type.pairOrNull(), target,
                op == Op.NO_OP ? null : origin, 1, type, result, 1, type, place, 1, type);
        } else if (place != null) {
            Checks.checkAligned("fetchAndOp", target, place.address(), type.basic());
            final long operand = op == Op.NO_OP ? 0 : AtomicElements.read(type.basic(), origin, 0);
            AtomicElements.write(type.basic(), result, 0,
                AtomicElements.getAndApply(op, type.basic(), place.mapping(), place.offset(), operand));
        }
    }

    void compareAndSwap(final MemorySegment origin, final MemorySegment compare, final MemorySegment result,
        final Datatype type, final int target, final long targetDisp) {
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

    RmaRequest rput(final MemorySegment origin, final long originCount, final Datatype originType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType) {
        checkRequestEpoch("rput", target);
        put(origin, originCount, originType, target, targetDisp, targetCount, targetType);
        return RmaRequest.completed("rput");
    }

    RmaRequest rget(final MemorySegment destination, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType) {
        checkRequestEpoch("rget", target);
        get(destination, originCount, originType, target, targetDisp, targetCount, targetType);
        return RmaRequest.completed("rget");
    }

    RmaRequest raccumulate(final MemorySegment origin, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        checkRequestEpoch("raccumulate", target);
        accumulate(origin, originCount, originType, target, targetDisp, targetCount, targetType, op);
        return RmaRequest.completed("raccumulate");
    }

    RmaRequest rgetAccumulate(final MemorySegment origin, final long originCount, final Datatype originType,
        final MemorySegment result, final long resultCount, final Datatype resultType, final int target,
        final long targetDisp, final long targetCount, final Datatype targetType, final Op op) {
        checkRequestEpoch("rgetAccumulate", target);
        getAccumulate(origin, originCount, originType, result, resultCount, resultType, target, targetDisp, targetCount,
            targetType, op);
        return RmaRequest.completed("rgetAccumulate");
    }

    /**
     * Checks an access of {@code lengthBytes} at target's {@code targetDisp} and returns the target
     * memory it reaches, or null for PROC_NULL (no operation).
     */
    private MemorySegment targetSlice(final String call, final int target, final long targetDisp,
        final long lengthBytes) {
        checkOpen(call);
        if (target == Rma.PROC_NULL) {
            return null;
        }
        checkRank(target, call);
        epochs.checkAccess(target, call);
        if (targetDisp < 0) {
            throw new RmaException(ErrorClass.DISP, call + " target_disp=" + targetDisp + " is negative");
        }
        return state.counters().counted(call, target, lengthBytes,
            memory.resolve(call, target, targetDisp, lengthBytes));
    }

    /**
     * Like {@link #targetSlice} for atomic operations: the place of the target bytes in their whole
     * mapping, or null for PROC_NULL.
     */
    private TargetMemory.Place targetPlace(final String call, final int target, final long targetDisp,
        final long lengthBytes) {
        checkOpen(call);
        if (target == Rma.PROC_NULL) {
            return null;
        }
        checkRank(target, call);
        epochs.checkAccess(target, call);
        if (targetDisp < 0) {
            throw new RmaException(ErrorClass.DISP, call + " target_disp=" + targetDisp + " is negative");
        }
        return state.counters().counted(call, target, lengthBytes,
            memory.resolveInMapping(call, target, targetDisp, lengthBytes));
    }

    /**
     * Validates a typed atomic access and returns the place of the target memory it spans, or null.
     */
    private TargetMemory.Place typedPlace(final String call, final MemorySegment originBuffer, final long originCount,
        final Datatype originType, final int target, final long targetDisp, final long targetCount,
        final Datatype targetType) {
        Objects.requireNonNull(originBuffer, "origin buffer");
        Checks.checkAccumulateTypes(call, originCount, originType, targetCount, targetType);
        Checks.checkBuffer(call, "origin", originBuffer, originCount, originType);
        return targetPlace(call, target, targetDisp, targetType.span(targetCount));
    }

    /**
     * Validates a typed access and returns the target memory it spans, or null for PROC_NULL.
     */
    private MemorySegment typedTarget(final String call, final MemorySegment originBuffer, final long originCount,
        final Datatype originType, final int target, final long targetDisp, final long targetCount,
        final Datatype targetType) {
        Objects.requireNonNull(originBuffer, "origin buffer");
        Checks.checkTypes(call, originCount, originType, targetCount, targetType);
        Checks.checkBuffer(call, "origin", originBuffer, originCount, originType);
        return targetSlice(call, target, targetDisp, targetType.span(targetCount));
    }

    long fetchAndOpBits(final String call, final Datatype type, final long operand, final int target,
        final long targetDisp, final Op op) {
        Checks.checkOp(call, op, type);
        final TargetMemory.Place place = targetPlace(call, target, targetDisp, type.size());
        if (place == null) {
            return 0;
        }
        Checks.checkAligned(call, target, place.address(), type.basic());
        return AtomicElements.getAndApply(op, type.basic(), place.mapping(), place.offset(), operand);
    }

    long compareAndSwapBits(final Datatype type, final long compare, final long value, final int target,
        final long targetDisp) {
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

    private void checkOpen(final String call) {
        state.checkOpen(call);
    }

    private void checkRank(final int target, final String call) {
        state.checkRank(target, call);
    }
}
