package org.rma4j;

import static org.rma4j.CollectiveArgs.problem;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.function.IntPredicate;
import org.rma4j.CollectiveCalls.Kind;

/**
 * The reductions of a communicator (MPI-3.1 sections 5.9 to 5.11): reduce, allreduce, reduce_scatter
 * (block and per-rank counts), scan and exscan, each one {@link Exchange} in which every member streams
 * its operand and each reader combines the part of the result it owns from the members it needs.
 *
 * <p>Every reader combines the members in rank order, {@code ((x0 op x1) op x2) ...}, element by element
 * ({@link Reductions}), so every rank that computes the same element gets the same bits, floating-point
 * sums included (the standard's advice in section 5.9.1). Javadoc of each call: {@link Communicator}.
 */
final class ReduceCollectives {
    private ReduceCollectives() {
    }

    static void reduce(final CommContext context, final MemorySegment send, final MemorySegment recv, final long count,
        final Datatype type, final Op op, final int root) {
        final boolean isRoot = context.rank() == root;
        run(context, Kind.REDUCE, "reduce", send, recv, count, type, op, root, 0, isRoot ? count : 0, member -> isRoot,
            0);
    }

    static void allreduce(final CommContext context, final MemorySegment send, final MemorySegment recv,
        final long count, final Datatype type, final Op op) {
        run(context, Kind.ALLREDUCE, "allreduce", send, recv, count, type, op, -1, 0, count, member -> true, 0);
    }

    static void scan(final CommContext context, final MemorySegment send, final MemorySegment recv, final long count,
        final Datatype type, final Op op) {
        final int rank = context.rank();
        run(context, Kind.SCAN, "scan", send, recv, count, type, op, -1, 0, count, member -> member <= rank, 0);
    }

    static void exscan(final CommContext context, final MemorySegment send, final MemorySegment recv, final long count,
        final Datatype type, final Op op) {
        final int rank = context.rank();
        run(context, Kind.EXSCAN, "exscan", send, recv, count, type, op, -1, 0, rank == 0 ? 0 : count,
            member -> member < rank, 0);
    }

    static void reduceScatterBlock(final CommContext context, final MemorySegment send, final MemorySegment recv,
        final long recvCount, final Datatype type, final Op op) {
        final long sendCount = recvCount < 0 ? -1 : recvCount * context.size();
        run(context, Kind.REDUCE_SCATTER, "reduceScatterBlock", send, recv, sendCount, type, op, -1,
            recvCount * context.rank(), recvCount, member -> true, 0);
    }

    static void reduceScatter(final CommContext context, final MemorySegment send, final MemorySegment recv,
        final int[] recvCounts, final Datatype type, final Op op) {
        final String call = "reduceScatter";
        final RmaException countsError = problem(() -> {
            if (recvCounts == null || recvCounts.length != context.size()) {
                throw new RmaException(ErrorClass.COUNT, call + " recvCounts must have one entry per rank ("
                    + context.size() + "), not " + (recvCounts == null ? "null" : recvCounts.length));
            }
            for (int m = 0; m < recvCounts.length; m++) {
                if (recvCounts[m] < 0) {
                    throw new RmaException(ErrorClass.COUNT,
                        call + " recvCounts[" + m + "]=" + recvCounts[m] + " is negative");
                }
            }
        });
        long total = 0;
        long before = 0;
        if (countsError == null) {
            for (int m = 0; m < recvCounts.length; m++) {
                before += m < context.rank() ? recvCounts[m] : 0;
                total += recvCounts[m];
            }
        }
        final long mine = countsError == null ? recvCounts[context.rank()] : 0;
        final int digest = countsError == null ? Arrays.hashCode(recvCounts) : 0;
        if (countsError != null) {
            context.exchange().run(Kind.REDUCE_SCATTER, call, CollectiveArgs.NONE, -1, 0, countsError,
                (member, length, offset, chunk) -> {
                });
            return;
        }
        run(context, Kind.REDUCE_SCATTER, call, send, recv, total, type, op, -1, before, mine, member -> true, digest);
    }

    /**
     * One reduction: every member streams {@code sendCount} elements of {@code send}; this member combines
     * elements {@code from .. from + resultCount} of the streams of the members {@code included} selects
     * into {@code recv}, the first of them copied, the others combined in rank order.
     */
    private static void run(final CommContext context, final Kind kind, final String call, final MemorySegment send,
        final MemorySegment recv, final long sendCount, final Datatype type, final Op op, final int root,
        final long from, final long resultCount, final IntPredicate included, final int digest) {
        final long[] bytes = new long[3];
        final RmaException error = problem(() -> {
            if (root != -1 || kind == Kind.REDUCE) {
                CollectiveArgs.checkRoot(call, context, root);
            }
            CollectiveArgs.checkReduction(call, type, op);
            bytes[0] = CollectiveArgs.bytes(call, "count", sendCount, type);
            bytes[1] = CollectiveArgs.bytes(call, "from", from, type);
            bytes[2] = CollectiveArgs.bytes(call, "recvCount", resultCount, type);
            CollectiveArgs.checkBuffer(call, "send", send, bytes[0]);
            if (bytes[2] > 0) {
                CollectiveArgs.checkBuffer(call, "recv", recv, bytes[2]);
            }
        });
        final long start = bytes[1];
        final long length = bytes[2];
        final MemorySegment[] stream = error == null
            ? new MemorySegment[] {send.asSlice(0, bytes[0])}
            : CollectiveArgs.NONE;
        final Datatype.Basic basic = type == null ? null : type.basic();
        final long agreement = CollectiveArgs.agreement(sendCount, type, op) * 31 + digest;
        // NOTE: every member streams as many bytes (the agreement holds the count), so each round hands the
        // same stream positions of every member in rank order, and every included set starts at member 0.
        context.exchange().run(kind, call, stream, root, agreement, error, (member, total, offset, chunk) -> {
            if (length == 0 || !included.test(member)) {
                return;
            }
            final long lo = Math.max(offset, start);
            final long hi = Math.min(offset + chunk.byteSize(), start + length);
            if (hi > lo) {
                final MemorySegment part = chunk.asSlice(lo - offset, hi - lo);
                if (member == 0) {
                    MemorySegment.copy(part, 0, recv, lo - start, hi - lo);
                } else {
                    Reductions.combine(recv, lo - start, part, hi - lo, basic, op);
                }
            }
        });
    }
}
