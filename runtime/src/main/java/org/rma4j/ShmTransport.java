package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import org.rma4j.internal.AtomicElements;
import org.rma4j.internal.LockWord;
import org.rma4j.internal.WindowLayout;
import org.rma4j.shm.DisseminationBarrier;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.MappingLiveness;
import org.rma4j.shm.WaitWords;
import org.rma4j.shm.Words;

/**
 * The {@link WindowTransport} of a window whose every target's memory is mapped in this process (a job on one
 * node, or the targets of this rank's node in a job across nodes): the origin performs each operation itself,
 * at the call, with loads, stores and atomic instructions on the target's memory ({@link TargetMemory}), the
 * lock words and PSCW counters of the window file ({@link WindowLayout}) and its dissemination barrier.
 *
 * <p>An operation is complete at origin and target when its call returns (MPI-3.1 section 11.5 allows
 * completion at any time before the synchronization call that completes it), so flush and sync are full
 * fences. Atomicity: hardware atomics per element ({@link AtomicElements}), pairs of MINLOC / MAXLOC through
 * {@link PairAccumulates}; every process on the node, and a node's {@link TargetAgent} on behalf of remote
 * origins, use the same ones on the same memory.
 */
final class ShmTransport implements WindowTransport {
    private final WindowState state;
    private final int rank;
    private final int ranks;
    private final TargetMemory memory;
    private final MemorySegment mapping;
    private final long lockTable;
    private final long syncTable;
    private final long postMatrix;
    private final long completeMatrix;
    private final PairLocks pairLocks;
    private final MappingLiveness fileCheck;
    private final Runnable fenceWait;

    /**
     * @param memory     the targets' memory.
     * @param mapping    the window file (lock words, PSCW counters, fence barrier).
     * @param fileCheck  the check that the window file is still whole, for the waits in it.
     * @param collective the liveness check of the fence's waits.
     */
    ShmTransport(final WindowState state, final TargetMemory memory, final MemorySegment mapping,
        final MappingLiveness fileCheck, final Liveness collective) {
        this.state = state;
        this.rank = state.rank();
        this.ranks = state.sizes().length;
        this.memory = memory;
        this.mapping = mapping;
        this.lockTable = WindowLayout.lockTableOffset(ranks);
        this.syncTable = WindowLayout.syncTableOffset(ranks);
        this.postMatrix = WindowLayout.postMatrixOffset(ranks);
        this.completeMatrix = WindowLayout.completeMatrixOffset(ranks);
        this.pairLocks = new PairLocks(state, mapping);
        this.fileCheck = fileCheck;
        final CollectiveCalls calls = state.context().calls();
        final DisseminationBarrier fenceBarrier = new DisseminationBarrier(mapping, WindowLayout.barrierOffset(ranks),
            ranks, rank, state.job().waitStrategy(), calls.whileWaiting(collective));
        // NOTE: the call word travels with the barrier's flags: the members that signalled this rank are compared
        // without a read of their rows (CollectiveCalls.checkCompleted).
        final Runnable barrierWait = calls.barrierWait(fenceBarrier);
        this.fenceWait = () -> {
            try {
                barrierWait.run();
            } catch (final InternalError e) {
                throw fileCheck.explain(e);
            }
        };
    }

    /** @return the targets' memory. */
    TargetMemory memory() {
        return memory;
    }

    /** @return the window file. */
    MemorySegment mapping() {
        return mapping;
    }

    PairLocks pairLocks() {
        return pairLocks;
    }

    // ---------------------------------------------------------------- reach a target's memory

    @Override
    public void put(final String call, final MemorySegment origin, final int target, final long targetDisp) {
        memory.put(call, origin, target, targetDisp);
    }

    @Override
    public void get(final String call, final MemorySegment destination, final int target, final long targetDisp) {
        memory.get(call, destination, target, targetDisp);
    }

    @Override
    public void put(final String call, final MemorySegment origin, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType) {
        final MemorySegment destination = memory.resolve(call, target, targetDisp, targetType.span(targetCount));
        TypeCursor.copy(origin, new TypeCursor(0, originCount, originType), destination,
            new TypeCursor(0, targetCount, targetType));
    }

    @Override
    public void get(final String call, final MemorySegment destination, final long originCount,
        final Datatype originType, final int target, final long targetDisp, final long targetCount,
        final Datatype targetType) {
        final MemorySegment source = memory.resolve(call, target, targetDisp, targetType.span(targetCount));
        TypeCursor.copy(source, new TypeCursor(0, targetCount, targetType), destination,
            new TypeCursor(0, originCount, originType));
    }

    // ---------------------------------------------------------------- element atomics

    @Override
    public void accumulate(final String call, final Op op, final MemorySegment origin, final long originCount,
        final Datatype originType, final int target, final long targetDisp, final long targetCount,
        final Datatype targetType) {
        final TargetMemory.Place place = memory.resolveInMapping(call, target, targetDisp,
            targetType.span(targetCount));
        if (targetType.pairOrNull() != null) {
            PairAccumulates.apply(call, pairLocks, op, targetType.pairOrNull(), target, origin, originCount, originType,
                null, 0, null, place, targetCount, targetType);
            return;
        }
        final Datatype.Basic basic = targetType.basic();
        Checks.checkAligned(call, target, place.address(), basic);
        final MemorySegment target0 = place.mapping();
        if (originType.isContiguous() && targetType.isContiguous()) {
            // One run on both sides: no cursors to walk (and none to allocate).
            AtomicElements.accumulate(op, basic, origin, 0, target0, place.offset(),
                targetCount * targetType.elements());
            return;
        }
        TypeCursor.zip(new TypeCursor(0, originCount, originType),
            new TypeCursor(place.offset(), targetCount, targetType),
            (originOffset, targetOffset, elements) -> AtomicElements.accumulate(op, basic, origin, originOffset,
                target0, targetOffset, elements));
    }

    @Override
    public void getAccumulate(final String call, final Op op, final MemorySegment origin, final long originCount,
        final Datatype originType, final MemorySegment result, final long resultCount, final Datatype resultType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType) {
        final TargetMemory.Place place = memory.resolveInMapping(call, target, targetDisp,
            targetType.span(targetCount));
        if (targetType.pairOrNull() != null) {
            PairAccumulates.apply(call, pairLocks, op, targetType.pairOrNull(), target, origin, originCount, originType,
                result, resultCount, resultType, place, targetCount, targetType);
            return;
        }
        final Datatype.Basic basic = targetType.basic();
        Checks.checkAligned(call, target, place.address(), basic);
        final MemorySegment mapped = place.mapping();
        if (resultType.isContiguous() && targetType.isContiguous() && (origin == null || originType.isContiguous())) {
            // One run on every side: no cursors to walk (and none to allocate).
            AtomicElements.getAccumulate(op, basic, origin, 0, result, 0, mapped, place.offset(),
                targetCount * targetType.elements());
            return;
        }
        final TypeCursor targetCursor = new TypeCursor(place.offset(), targetCount, targetType);
        if (origin == null) {
            TypeCursor.zip(new TypeCursor(0, resultCount, resultType), targetCursor,
                (resultOffset, targetOffset, elements) -> AtomicElements.getAccumulate(op, basic, null, 0, result,
                    resultOffset, mapped, targetOffset, elements));
        } else {
            TypeCursor.zip(new TypeCursor(0, originCount, originType), new TypeCursor(0, resultCount, resultType),
                targetCursor, (originOffset, resultOffset, targetOffset, elements) -> AtomicElements.getAccumulate(op,
                    basic, origin, originOffset, result, resultOffset, mapped, targetOffset, elements));
        }
    }

    @Override
    public void fetchAndOp(final String call, final Op op, final Datatype type, final MemorySegment origin,
        final MemorySegment result, final int target, final long targetDisp) {
        final TargetMemory.Place place = memory.resolveInMapping(call, target, targetDisp, type.extent());
        if (type.isPairType()) {
            PairAccumulates.apply(call, pairLocks, op, type.pairOrNull(), target, origin, 1, type, result, 1, type,
                place, 1, type);
            return;
        }
        Checks.checkAligned(call, target, place.address(), type.basic());
        final long operand = origin == null ? 0 : AtomicElements.read(type.basic(), origin, 0);
        AtomicElements.write(type.basic(), result, 0,
            AtomicElements.getAndApply(op, type.basic(), place.mapping(), place.offset(), operand));
    }

    @Override
    public long fetchAndOp(final String call, final Op op, final Datatype type, final long operand, final int target,
        final long targetDisp) {
        final TargetMemory.Place place = memory.resolveInMapping(call, target, targetDisp, type.size());
        Checks.checkAligned(call, target, place.address(), type.basic());
        return AtomicElements.getAndApply(op, type.basic(), place.mapping(), place.offset(), operand);
    }

    @Override
    public long compareAndSwap(final String call, final Datatype type, final long compare, final long value,
        final int target, final long targetDisp) {
        final TargetMemory.Place place = memory.resolveInMapping(call, target, targetDisp, type.size());
        Checks.checkAligned(call, target, place.address(), type.basic());
        return AtomicElements.compareAndSwap(type.basic(), place.mapping(), place.offset(), compare, value);
    }

    // ---------------------------------------------------------------- lock words

    @Override
    public boolean lock(final LockType type, final int target, final Liveness liveness) {
        final long word = WindowLayout.lockWordOffset(lockTable, target);
        if (type == LockType.EXCLUSIVE) {
            LockWord.acquireExclusive(mapping, word, rank, state.job().waitStrategy(), liveness);
        } else {
            LockWord.acquireShared(mapping, word, state.job().waitStrategy(), liveness);
        }
        return isExposed(target);
    }

    @Override
    public int tryLock(final LockType type, final int target) {
        if (!tryLock(type, target, rank)) {
            return LOCK_BUSY;
        }
        return isExposed(target) ? LOCK_TAKEN_EXPOSED : LOCK_TAKEN;
    }

    /**
     * Takes target's lock word for {@code origin} if it is free enough, without waiting (this rank's uncontended
     * lock, or a remote origin's request, applied by this node's {@link TargetAgent}).
     *
     * @return whether it was taken.
     */
    boolean tryLock(final LockType type, final int target, final int origin) {
        final long word = WindowLayout.lockWordOffset(lockTable, target);
        if (type == LockType.EXCLUSIVE) {
            return Words.compareAndSetInt(mapping, word, 0, LockWord.EXCLUSIVE + origin);
        }
        final int value = Words.getIntVolatile(mapping, word);
        return value < LockWord.EXCLUSIVE && Words.compareAndSetInt(mapping, word, value, value + 1);
    }

    @Override
    public void unlock(final LockType type, final int target) {
        unlock(type, target, rank);
    }

    /** Releases a hold of {@code origin} (this rank's, or a remote origin's through its request). */
    void unlock(final LockType type, final int target, final int origin) {
        final long word = WindowLayout.lockWordOffset(lockTable, target);
        if (type == LockType.EXCLUSIVE) {
            LockWord.releaseExclusive(mapping, word, origin);
        } else {
            LockWord.releaseShared(mapping, word);
        }
    }

    @Override
    public String describeLock(final int target) {
        return LockWord.describe(Words.getIntVolatile(mapping, WindowLayout.lockWordOffset(lockTable, target)));
    }

    /**
     * @return whether {@code target} has a post epoch open (its exposure flag in the window file).
     */
    boolean isExposed(final int target) {
        return Words.getIntVolatile(mapping,
            WindowLayout.syncLinesOffset(syncTable, target) + WindowLayout.EXPOSED_OFFSET) != 0;
    }

    // ---------------------------------------------------------------- fence and PSCW signals

    @Override
    public Runnable fenceWait() {
        return fenceWait;
    }

    @Override
    public void post(final int origin) {
        post(origin, rank);
    }

    /** A post of {@code from} to {@code origin} (this rank's, or a remote target's through its request). */
    void post(final int origin, final int from) {
        Words.getAndAddInt(mapping, WindowLayout.counterOffset(postMatrix, ranks, origin, from), 1);
        WaitWords.signal(mapping, WindowLayout.syncLinesOffset(syncTable, origin) + WindowLayout.POST_SIGNAL_OFFSET);
    }

    @Override
    public void complete(final int target) {
        complete(target, rank);
    }

    /** A complete of {@code from} to {@code target} (this rank's, or a remote origin's through its request). */
    void complete(final int target, final int from) {
        Words.getAndAddInt(mapping, WindowLayout.counterOffset(completeMatrix, ranks, target, from), 1);
        WaitWords.signal(mapping,
            WindowLayout.syncLinesOffset(syncTable, target) + WindowLayout.COMPLETE_SIGNAL_OFFSET);
    }

    // ---------------------------------------------------------------- notification delivery

    @Override
    public void notify(final String call, final int target, final int tag, final long displacement, final int length,
        final int kind) {
        throw new IllegalStateException(call + ": rank " + target + " is mapped here; its notifications are the"
            + " window's Notifications' to publish");
    }

    @Override
    public void incrementCounter(final String call, final int target, final int index) {
        state.attachedCounters().increment(call, target, index);
    }

    // ---------------------------------------------------------------- completion

    @Override
    public void flush(final int target) {
        VarHandle.fullFence();
    }

    @Override
    public void flushAll() {
        VarHandle.fullFence();
    }

    @Override
    public void flushLocal(final int target) {
        VarHandle.fullFence();
    }

    @Override
    public void flushLocalAll() {
        VarHandle.fullFence();
    }

    @Override
    public void sync() {
        VarHandle.fullFence();
    }

    @Override
    public boolean mapped(final int target) {
        return true;
    }

    @Override
    public void free() {
        release();
    }

    @Override
    public void release() {
        // the memory and the file are the window's (WindowLifecycle closes them)
    }

    /** @return the check that the window file is still whole. */
    MappingLiveness fileCheck() {
        return fileCheck;
    }
}
