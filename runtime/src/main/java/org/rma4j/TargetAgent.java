package org.rma4j;

import java.lang.foreign.MemorySegment;
import org.rma4j.internal.AtomicElements;
import org.rma4j.internal.mpi.ActiveMessage;
import org.rma4j.internal.mpi.AmHandler;

/**
 * The target side of a window across nodes at one rank: applies the requests of origins on other nodes
 * ({@link RemoteRequests}) to this rank's memory, lock word and counters, with exactly the operations a local
 * origin uses ({@link ShmTransport}): hardware atomics per element, the same pair locks, the same lock word
 * compare-and-sets, the same counter increments and signals. So an accumulate of a remote origin is atomic
 * against those of local origins, and a lock held by a remote origin excludes local ones, and the other way
 * round (MPI-3.1 sections 11.7.1, 11.5.3).
 *
 * <p>Runs on the thread that polls the link ({@link org.rma4j.internal.mpi.MpiLink#poll}), one request at a
 * time. A lock request that finds the word taken is kept (with every later request of its origin) and offered
 * again at each poll: the agent never waits. A request that fails its checks (a range outside the window of a
 * dynamic target, an unaligned element) replies with the error class; the origin throws it.
 */
final class TargetAgent implements AmHandler {
    private final WindowState state;
    private final ShmTransport local;
    private final TargetMemory memory;
    private final Notifications notifications;
    private final int rank;

    TargetAgent(final WindowState state, final ShmTransport local, final Notifications notifications) {
        this.state = state;
        this.local = local;
        this.notifications = notifications;
        this.memory = local.memory();
        this.rank = state.rank();
    }

    @Override
    public boolean handle(final ActiveMessage message) {
        if (message.target() != rank) {
            throw new IllegalStateException(
                "a request for rank " + message.target() + " of window " + state.number() + " reached rank " + rank);
        }
        try {
            return apply(message);
        } catch (final RmaException e) {
            if (!message.expectsReply()) {
                System.err.println("rma4j: rank " + rank + " could not apply a request of rank " + message.origin()
                    + " on window " + state.number() + ": " + e.getMessage());
            }
            message.fail(e.errorClass().code(), e.getMessage());
            return true;
        }
    }

    private boolean apply(final ActiveMessage message) {
        switch (message.kind()) {
            case RemoteRequests.ACCUMULATE, RemoteRequests.GET_ACCUMULATE -> elementWise(message);
            case RemoteRequests.COMPARE_AND_SWAP -> compareAndSwap(message);
            case RemoteRequests.LOCK -> {
                return lock(message);
            }
            case RemoteRequests.UNLOCK -> {
                local.unlock(lockType(message), rank, message.origin());
                message.reply(0);
            }
            case RemoteRequests.POST -> {
                local.post(rank, message.origin());
                message.reply(0);
            }
            case RemoteRequests.COMPLETE -> {
                local.complete(rank, message.origin());
                message.reply(0);
            }
            case RemoteRequests.FLUSH -> message.reply(0);
            case RemoteRequests.NOTIFY -> {
                // A full lane: the request (and its origin's later ones) waits; the consumer's drain makes room.
                return notifications.deliver(message.origin(), (int)message.arg0(), message.offset(),
                    (int)message.arg1(), (int)message.arg2());
            }
            case RemoteRequests.COUNTER -> local.incrementCounter("notify counter", rank, (int)message.arg0());
            case RemoteRequests.PUT -> put(message);
            case RemoteRequests.GET -> get(message);
            default -> throw new IllegalStateException("unknown request kind " + message.kind() + " from rank "
                + message.origin() + " on window " + state.number());
        }
        return true;
    }

    private boolean lock(final ActiveMessage message) {
        final LockType type = lockType(message);
        if (!local.tryLock(type, rank, message.origin())) {
            return false;
        }
        message.reply(local.isExposed(rank) ? RemoteRequests.EXPOSED : 0);
        return true;
    }

    private static LockType lockType(final ActiveMessage message) {
        return message.arg0() == 1 ? LockType.EXCLUSIVE : LockType.SHARED;
    }

    /**
     * An accumulate or get-accumulate: each run applied with the element-wise atomics, the previous elements
     * packed into the reply of a get-accumulate.
     */
    private void elementWise(final ActiveMessage message) {
        final String call = message.kind() == RemoteRequests.ACCUMULATE ? "accumulate" : "getAccumulate";
        final Op op = RemoteRequests.op(message.arg0());
        final int element = RemoteRequests.element(message.arg0());
        final int runs = (int)message.arg2();
        final TargetMemory.Place place = memory.resolveInMapping(call, rank, message.offset(), message.arg1());
        final MemorySegment payload = message.payload();
        final long dataAt = (long)runs * 2 * Long.BYTES;
        final MemorySegment origin = op == Op.NO_OP ? null : payload.asSlice(dataAt);
        long packed = 0;
        for (int i = 0; i < runs; i++) {
            packed += RemoteRequests.runElements(payload, i) * RemoteRequests.packedBytes(element);
        }
        final MemorySegment result = message.kind() == RemoteRequests.GET_ACCUMULATE
            ? message.replyPayload(packed)
            : null;
        final Datatype.Pair pair = RemoteRequests.pair(element);
        if (pair != null) {
            checkPairs(call, place, payload, runs, pair);
            pairs(call, op, pair, place, payload, runs, origin, result);
        } else {
            final Datatype.Basic basic = RemoteRequests.basic(element);
            long at = 0;
            for (int i = 0; i < runs; i++) {
                final long offset = place.offset() + RemoteRequests.runOffset(payload, i);
                Checks.checkAligned(call, rank, place.mapping().address() + offset, basic);
                final long elements = RemoteRequests.runElements(payload, i);
                if (result == null) {
                    AtomicElements.accumulate(op, basic, origin, at, place.mapping(), offset, elements);
                } else {
                    AtomicElements.getAccumulate(op, basic, origin, at, result, at, place.mapping(), offset, elements);
                }
                at += elements * basic.bytes();
            }
        }
        message.reply(0);
    }

    private void checkPairs(final String call, final TargetMemory.Place place, final MemorySegment payload,
        final int runs, final Datatype.Pair pair) {
        for (int i = 0; i < runs; i++) {
            Checks.checkAligned(call, rank, place.address() + RemoteRequests.runOffset(payload, i), pair);
        }
    }

    /** Pair by pair, as {@link PairAccumulates} applies them for a local origin. */
    private void pairs(final String call, final Op op, final Datatype.Pair pair, final TargetMemory.Place place,
        final MemorySegment payload, final int runs, final MemorySegment origin, final MemorySegment result) {
        final Datatype type = pairType(pair);
        for (int i = 0; i < runs; i++) {
            final long at = (long)i * pair.extent();
            final TargetMemory.Place one = new TargetMemory.Place(place.mapping(),
                place.offset() + RemoteRequests.runOffset(payload, i));
            PairAccumulates.apply(call, local.pairLocks(), op, pair, rank,
                origin == null ? null : origin.asSlice(at, pair.extent()), 1, type,
                result == null ? null : result.asSlice(at, pair.extent()), 1, type, one, 1, type);
        }
    }

    static Datatype pairType(final Datatype.Pair pair) {
        return switch (pair) {
            case LONG_INT -> Datatype.LONG_INT;
            case INT2 -> Datatype.INT2;
            case DOUBLE_INT -> Datatype.DOUBLE_INT;
            case FLOAT_INT -> Datatype.FLOAT_INT;
            case SHORT_INT -> Datatype.SHORT_INT;
        };
    }

    private void compareAndSwap(final ActiveMessage message) {
        final Datatype.Basic basic = RemoteRequests.basic((int)message.arg0());
        final TargetMemory.Place place = memory.resolveInMapping("compareAndSwap", rank, message.offset(),
            basic.bytes());
        Checks.checkAligned("compareAndSwap", rank, place.address(), basic);
        final long previous = AtomicElements.compareAndSwap(basic, place.mapping(), place.offset(), message.arg1(),
            message.arg2());
        message.replyPayload(Long.BYTES).set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 0, previous);
        message.reply(0);
    }

    /** A put into a dynamic window: the target's attached regions decide the range. */
    private void put(final ActiveMessage message) {
        final MemorySegment data = message.payload();
        MemorySegment.copy(data, 0, memory.resolve("put", rank, message.offset(), data.byteSize()), 0, data.byteSize());
        message.reply(0);
    }

    /** A get from a dynamic window. */
    private void get(final ActiveMessage message) {
        final long length = message.arg0();
        final MemorySegment source = memory.resolve("get", rank, message.offset(), length);
        MemorySegment.copy(source, 0, message.replyPayload(length), 0, length);
        message.reply(0);
    }
}
