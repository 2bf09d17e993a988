package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import org.rma4j.internal.AtomicElements;
import org.rma4j.internal.mpi.AmLayout;
import org.rma4j.internal.mpi.MpiLink;
import org.rma4j.internal.mpi.NativeBuffers;
import org.rma4j.shm.Liveness;

/**
 * The {@link WindowTransport} of a window over a communicator whose ranks run on several nodes: targets of this
 * rank's node through shared memory ({@link ShmTransport} over the node's window file, at the speed of a job of
 * one node), the others through MPI.
 *
 * <h2>Reaching a remote target</h2>
 * <ul>
 *   <li>put and get (static flavors): {@code MPI_Put} / {@code MPI_Get} on the job's one dynamic MPI window
 *   ({@link org.rma4j.internal.mpi.MpiLink}), to which every rank attached its memory of the window, at the
 *   target's address; the link holds that MPI window in an {@code MPI_Win_lock_all(MPI_MODE_NOCHECK)} epoch for
 *   the job's life, and rma4j's own epochs and locks give the synchronization. A put is
 *   complete at the next completion call (flush, unlock, fence, complete), as MPI says; its origin buffer may
 *   be reused at once when it was copied (heap memory, or at most {@value MpiOneSided#COPIED_PUT_BYTES} bytes), after
 *   flushLocal otherwise. A get waits for its data ({@code MPI_Win_flush_local}): the destination holds it
 *   when the call returns, as in shared memory. A dynamic window's put and get are requests to the target,
 *   whose attached regions decide their range.</li>
 *   <li>accumulate, get_accumulate, fetch_and_op, compare_and_swap: requests ({@link RemoteRequests}) that the
 *   target's {@link TargetAgent} applies with the same atomics local origins use, so they are atomic against
 *   every origin's. An accumulate does not wait (complete at the next completion call, by a request that
 *   replies once the earlier ones are applied); the others wait for their result.</li>
 *   <li>lock, unlock: requests that take and release the target's own lock word; exclusion holds between
 *   local and remote origins. Unlock first completes the epoch's operations.</li>
 *   <li>fence: completes this rank's operations, then the communicator's barrier (messages).</li>
 *   <li>post, complete: requests that add to the receiver's counters in its node's file.</li>
 * </ul>
 * Ranges are checked here, before anything is sent: {@code osc/pt2pt} writes past a window without an error.
 *
 * <p>Thread-safe as MPI calls are: every MPI call holds the link's lock; what this object records of pending
 * operations (which targets have puts or requests to complete, the copies of origin buffers) is guarded by it.
 */
final class HybridTransport implements WindowTransport {
    private final WindowState state;
    private final ShmTransport local;
    private final boolean[] mapped;
    private final long[] sizes;
    private final int[] dispUnits;
    private final long[] bases;
    private final boolean dynamic;
    private final MpiLink link;
    /** {@code MPI_Put} and {@code MPI_Get} of a static window, and their completion. */
    private final MpiOneSided oneSided;
    /** The mapping this rank attached to the link's window for the others (NULL: none), detached at the end. */
    private final MemorySegment exposed;
    private final long key;
    private final Liveness liveness;
    private final Runnable fenceWait;
    private final boolean[] requestsPending;
    private final RemoteCalls calls;

    /**
     * @param bases   every rank's memory address in its process (filled before the window is used).
     * @param exposed the mapping this rank attached to the link's window, or NULL.
     */
    HybridTransport(final WindowState state, final ShmTransport local, final boolean[] mapped, final int[] dispUnits,
        final long[] bases, final boolean dynamic, final MemorySegment exposed, final long key,
        final Liveness liveness) {
        this.state = state;
        this.local = local;
        this.mapped = mapped;
        this.sizes = state.sizes();
        this.dispUnits = dispUnits;
        this.bases = bases;
        this.dynamic = dynamic;
        this.link = state.job().link();
        this.oneSided = new MpiOneSided(state, bases);
        this.exposed = exposed;
        this.key = key;
        this.liveness = liveness;
        this.requestsPending = new boolean[sizes.length];
        this.calls = new RemoteCalls(state, link, key, liveness);
        final Runnable barrier = state.context().barrierWait();
        this.fenceWait = () -> {
            flushAll();
            barrier.run();
            VarHandle.fullFence();
        };
    }

    // ---------------------------------------------------------------- reach a target's memory

    @Override
    public void put(final String call, final MemorySegment origin, final int target, final long targetDisp) {
        if (mapped[target]) {
            local.put(call, origin, target, targetDisp);
        } else if (dynamic) {
            calls.request(target, RemoteRequests.PUT, targetDisp, 0, 0, 0, origin, null, call);
        } else {
            oneSided.put(call, target, origin, checkRange(call, target, targetDisp, origin.byteSize()));
        }
    }

    @Override
    public void get(final String call, final MemorySegment destination, final int target, final long targetDisp) {
        if (mapped[target]) {
            local.get(call, destination, target, targetDisp);
        } else if (dynamic) {
            calls.request(target, RemoteRequests.GET, targetDisp, destination.byteSize(), 0, 0, null, destination,
                call);
        } else {
            oneSided.get(call, target, destination, checkRange(call, target, targetDisp, destination.byteSize()));
        }
    }

    @Override
    public void put(final String call, final MemorySegment origin, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType) {
        if (mapped[target]) {
            local.put(call, origin, originCount, originType, target, targetDisp, targetCount, targetType);
            return;
        }
        final long at = dynamic ? targetDisp : checkRange(call, target, targetDisp, targetType.span(targetCount));
        final TypeCursor from = new TypeCursor(0, originCount, originType);
        final TypeCursor to = new TypeCursor(0, targetCount, targetType);
        if (dynamic) {
            TypeCursor.forEachRun(from, to, (fromOffset, toOffset, length) -> calls.request(target, RemoteRequests.PUT,
                at + toOffset, 0, 0, 0, origin.asSlice(fromOffset, length), null, call));
        } else {
            oneSided.put(call, target, origin, from, to, at);
        }
    }

    @Override
    public void get(final String call, final MemorySegment destination, final long originCount,
        final Datatype originType, final int target, final long targetDisp, final long targetCount,
        final Datatype targetType) {
        if (mapped[target]) {
            local.get(call, destination, originCount, originType, target, targetDisp, targetCount, targetType);
            return;
        }
        final long at = dynamic ? targetDisp : checkRange(call, target, targetDisp, targetType.span(targetCount));
        final TypeCursor from = new TypeCursor(0, targetCount, targetType);
        final TypeCursor to = new TypeCursor(0, originCount, originType);
        if (dynamic) {
            TypeCursor.forEachRun(from, to, (fromOffset, toOffset, length) -> calls.request(target, RemoteRequests.GET,
                at + fromOffset, length, 0, 0, null, destination.asSlice(toOffset, length), call));
        } else {
            oneSided.get(call, target, destination, from, to, at);
        }
    }

    // ---------------------------------------------------------------- element atomics

    @Override
    public void accumulate(final String call, final Op op, final MemorySegment origin, final long originCount,
        final Datatype originType, final int target, final long targetDisp, final long targetCount,
        final Datatype targetType) {
        if (mapped[target]) {
            local.accumulate(call, op, origin, originCount, originType, target, targetDisp, targetCount, targetType);
            return;
        }
        final RemoteRequests.Runs runs = RemoteRequests.runs(originCount, originType, targetCount, targetType);
        elementWise(call, RemoteRequests.ACCUMULATE, op, targetType, runs, origin, null, null, target, targetDisp,
            targetType.span(targetCount));
    }

    @Override
    public void getAccumulate(final String call, final Op op, final MemorySegment origin, final long originCount,
        final Datatype originType, final MemorySegment result, final long resultCount, final Datatype resultType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType) {
        if (mapped[target]) {
            local.getAccumulate(call, op, origin, originCount, originType, result, resultCount, resultType, target,
                targetDisp, targetCount, targetType);
            return;
        }
        final RemoteRequests.Runs runs = origin == null
            ? RemoteRequests.runs(resultCount, resultType, targetCount, targetType)
            : RemoteRequests.runs(originCount, originType, targetCount, targetType);
        elementWise(call, RemoteRequests.GET_ACCUMULATE, op, targetType, runs, origin, result,
            RemoteRequests.runs(resultCount, resultType, targetCount, targetType), target, targetDisp,
            targetType.span(targetCount));
    }

    @Override
    public void fetchAndOp(final String call, final Op op, final Datatype type, final MemorySegment origin,
        final MemorySegment result, final int target, final long targetDisp) {
        if (mapped[target]) {
            local.fetchAndOp(call, op, type, origin, result, target, targetDisp);
            return;
        }
        final RemoteRequests.Runs one = RemoteRequests.runs(1, type, 1, type);
        elementWise(call, RemoteRequests.GET_ACCUMULATE, op, type, one, origin, result, one, target, targetDisp,
            type.extent());
    }

    @Override
    public long fetchAndOp(final String call, final Op op, final Datatype type, final long operand, final int target,
        final long targetDisp) {
        if (mapped[target]) {
            return local.fetchAndOp(call, op, type, operand, target, targetDisp);
        }
        final MemorySegment values = MemorySegment.ofArray(new long[2]);
        AtomicElements.write(type.basic(), values, 0, operand);
        final MemorySegment result = values.asSlice(Long.BYTES);
        fetchAndOp(call, op, type, op == Op.NO_OP ? null : values.asSlice(0, Long.BYTES), result, target, targetDisp);
        return AtomicElements.read(type.basic(), result, 0);
    }

    @Override
    public long compareAndSwap(final String call, final Datatype type, final long compare, final long value,
        final int target, final long targetDisp) {
        if (mapped[target]) {
            return local.compareAndSwap(call, type, compare, value, target, targetDisp);
        }
        final Datatype.Basic basic = type.basic();
        final long at = dynamic ? targetDisp : checkRange(call, target, targetDisp, basic.bytes());
        Checks.checkAligned(call, target, base(target) + at, basic);
        final MemorySegment previous = MemorySegment.ofArray(new long[1]);
        calls.request(target, RemoteRequests.COMPARE_AND_SWAP, targetDisp, basic.ordinal(), compare, value, null,
            previous, call);
        return previous.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0);
    }

    /**
     * Sends an element-wise request; waits for its reply unless it is an accumulate of a static window (then
     * the next completion call makes sure it was applied).
     *
     * @param resultRuns the result's runs against the target's, for a get-accumulate.
     */
    private void elementWise(final String call, final int kind, final Op op, final Datatype targetType,
        final RemoteRequests.Runs runs, final MemorySegment origin, final MemorySegment result,
        final RemoteRequests.Runs resultRuns, final int target, final long targetDisp, final long span) {
        final long at = dynamic ? targetDisp : checkRange(call, target, targetDisp, span);
        final int element = RemoteRequests.element(targetType);
        checkAligned(call, target, at, element, runs);
        final long data = origin == null ? 0 : runs.packedBytes();
        final NativeBuffers.Buffer message = link.request(RemoteRequests.runsBytes(runs) + data);
        final MemorySegment segment = message.segment();
        AmLayout.writeHeader(segment, kind, key, target, state.rank(), targetDisp,
            RemoteRequests.opAndElement(op, element), span, runs.count(), RemoteRequests.runsBytes(runs) + data);
        RemoteRequests.pack(runs, element, origin, segment.asSlice(AmLayout.HEADER_LENGTH));
        if (kind == RemoteRequests.ACCUMULATE && !dynamic) {
            link.send(worldRank(target), message);
            link.lock();
            requestsPending[target] = true;
            link.unlock();
            return;
        }
        final MemorySegment reply = result == null
            ? MemorySegment.NULL
            : MemorySegment.ofArray(new byte[(int)resultRuns.packedBytes()]);
        calls.finish(call, target, calls.call(target, message, reply, state.job().waitStrategy(), liveness,
            call + " on window " + state.number() + " at rank " + target));
        if (result != null) {
            RemoteRequests.copyPacked(resultRuns, element, result, false, reply, 0);
        }
    }

    private void checkAligned(final String call, final int target, final long at, final int element,
        final RemoteRequests.Runs runs) {
        final Datatype.Pair pair = RemoteRequests.pair(element);
        for (int i = 0; i < runs.count(); i++) {
            final long address = base(target) + at + runs.targetOffsets()[i];
            if (pair != null) {
                Checks.checkAligned(call, target, address, pair);
            } else {
                Checks.checkAligned(call, target, address, RemoteRequests.basic(element));
            }
        }
    }

    /** @return what alignment checks add to a byte offset: the target's base address (0 if dynamic). */
    private long base(final int target) {
        return dynamic ? 0 : bases[target];
    }

    // ---------------------------------------------------------------- lock words

    @Override
    public boolean lock(final LockType type, final int target, final Liveness waitLiveness) {
        if (mapped[target]) {
            return local.lock(type, target, waitLiveness);
        }
        final int status = calls.call(target, calls.header(RemoteRequests.LOCK, target, lockArg(type)),
            MemorySegment.NULL, state.job().waitStrategy(), waitLiveness,
            "lock of rank " + target + " on window " + state.number());
        if (status != RemoteRequests.EXPOSED) {
            calls.finish("lock", target, status);
        }
        return status == RemoteRequests.EXPOSED;
    }

    @Override
    public int tryLock(final LockType type, final int target) {
        // NOTE: a target on another node is locked by its agent, through a request: lock's.
        return mapped[target] ? local.tryLock(type, target) : LOCK_BUSY;
    }

    @Override
    public void unlock(final LockType type, final int target) {
        if (mapped[target]) {
            local.unlock(type, target);
            return;
        }
        oneSided.complete(target);
        // NOTE: after the epoch's puts completed, and after its requests (earlier on the same ordered channel).
        calls.finish("unlock", target,
            calls.call(target, calls.header(RemoteRequests.UNLOCK, target, lockArg(type)), MemorySegment.NULL,
                state.job().waitStrategy(), liveness, "unlock of rank " + target + " on window " + state.number()));
        link.lock();
        requestsPending[target] = false;
        link.unlock();
    }

    private static long lockArg(final LockType type) {
        return type == LockType.EXCLUSIVE ? 1 : 0;
    }

    @Override
    public String describeLock(final int target) {
        return mapped[target] ? local.describeLock(target) : "of rank " + target + ", on another node";
    }

    // ---------------------------------------------------------------- fence and PSCW signals

    @Override
    public Runnable fenceWait() {
        return fenceWait;
    }

    @Override
    public void post(final int origin) {
        if (mapped[origin]) {
            local.post(origin);
        } else {
            link.send(worldRank(origin), calls.header(RemoteRequests.POST, origin, 0));
        }
    }

    @Override
    public void complete(final int target) {
        if (mapped[target]) {
            local.complete(target);
        } else {
            flush(target);
            link.send(worldRank(target), calls.header(RemoteRequests.COMPLETE, target, 0));
        }
    }

    // ---------------------------------------------------------------- notification delivery

    @Override
    public void notify(final String call, final int target, final int tag, final long displacement, final int length,
        final int kind) {
        // NOTE: the one-sided data first completes at the target; requests (accumulates) need no flush: the
        // notification follows them on the same ordered channel and the agent applies them in order.
        oneSided.complete(target);
        final NativeBuffers.Buffer message = link.request(0);
        AmLayout.writeHeader(message.segment(), RemoteRequests.NOTIFY, key, target, state.rank(), displacement, tag,
            length, kind, 0);
        link.send(worldRank(target), message);
    }

    @Override
    public void incrementCounter(final String call, final int target, final int index) {
        if (mapped[target]) {
            local.incrementCounter(call, target, index);
            return;
        }
        // NOTE: as notify: the one-sided data completes at the target first; requests go before it in order. A
        // flush waits until the agent applied it (the detach of the counters relies on that).
        oneSided.complete(target);
        final NativeBuffers.Buffer message = link.request(0);
        AmLayout.writeHeader(message.segment(), RemoteRequests.COUNTER, key, target, state.rank(), 0, index, 0, 0, 0);
        link.send(worldRank(target), message);
        link.lock();
        requestsPending[target] = true;
        link.unlock();
    }

    // ---------------------------------------------------------------- completion

    @Override
    public void flush(final int target) {
        if (!mapped[target]) {
            oneSided.complete(target);
            completeRequests(target);
        }
        VarHandle.fullFence();
    }

    @Override
    public void flushAll() {
        oneSided.completeAll();
        for (int target = 0; target < sizes.length; target++) {
            completeRequests(target);
        }
        VarHandle.fullFence();
    }

    @Override
    public void flushLocal(final int target) {
        if (!mapped[target]) {
            oneSided.completeLocal(target);
        }
        VarHandle.fullFence();
    }

    @Override
    public void flushLocalAll() {
        for (int target = 0; target < sizes.length; target++) {
            flushLocal(target);
        }
    }

    @Override
    public void sync() {
        VarHandle.fullFence();
    }

    /** Waits until the target applied this rank's requests that did not wait for a reply. */
    private void completeRequests(final int target) {
        link.lock();
        final boolean pending = requestsPending[target];
        requestsPending[target] = false;
        link.unlock();
        if (pending) {
            calls.finish("flush", target,
                calls.call(target, calls.header(RemoteRequests.FLUSH, target, 0), MemorySegment.NULL,
                    state.job().waitStrategy(), liveness, "flush of rank " + target + " on window " + state.number()));
        }
    }

    // ---------------------------------------------------------------- lifecycle

    @Override
    public boolean mapped(final int target) {
        return mapped[target];
    }

    @Override
    public void free() {
        release();
    }

    @Override
    public void release() {
        link.unregister(key);
        link.detach(exposed);
        oneSided.release();
    }

    // ---------------------------------------------------------------- requests

    private int worldRank(final int target) {
        return state.context().jobRank(target);
    }

    /**
     * @return the byte offset of an access of {@code length} bytes at {@code targetDisp} of a remote target.
     * @throws RmaException RMA_RANGE if it leaves the target's window (MPI's osc/pt2pt would write past it).
     */
    private long checkRange(final String call, final int target, final long targetDisp, final long length) {
        final long size = sizes[target];
        final int unit = dispUnits[target];
        final long start = targetDisp > Long.MAX_VALUE / unit ? Long.MAX_VALUE : targetDisp * unit;
        if (length < 0) {
            throw new RmaException(ErrorClass.COUNT, call + " length=" + length + " is negative");
        }
        if (start > size || length > size - start) {
            throw new RmaException(ErrorClass.RMA_RANGE, call + " target_disp=" + targetDisp + " (x disp_unit " + unit
                + " = byte " + start + ") + length=" + length + " exceeds window size " + size + " of rank " + target);
        }
        return start;
    }

}
