package org.rma4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.rma4j.internal.AtomicElements;

/**
 * The collectives of {@link Messaging}, built from its point-to-point messages in the collective
 * context (user receives, even with wildcards, never match them):
 * <ul>
 *   <li>barrier: dissemination (Hensgen, Finkel and Manber, 1988): in round k each rank sends an
 *   empty message to rank + 2^k and receives one from rank - 2^k, ceil(log2 n) rounds;</li>
 *   <li>bcast: binomial tree rooted at the root: a rank receives from its parent, then sends to its
 *   children, largest subtree first;</li>
 *   <li>reduce: the same tree upside down: a rank combines its children's partial results into its
 *   own, lowest relative rank on the left, and sends the result to its parent;</li>
 *   <li>allreduce: reduce to rank 0, then bcast from it.</li>
 * </ul>
 * Every rank calls the collectives in the same order; messages of one collective from one source
 * cannot be taken by another because messages between two ranks are received in the order sent.
 */
final class MessagingCollectives {
    private static final int BARRIER_TAG = 1;
    private static final int BCAST_TAG = 2;
    private static final int REDUCE_TAG = 3;
    private static final int CONTEXT = MessagingEngine.COLLECTIVE_CONTEXT;

    private final MessagingEngine engine;
    private final int rank;
    private final int ranks;

    MessagingCollectives(final MessagingEngine engine, final int rank, final int ranks) {
        this.engine = engine;
        this.rank = rank;
        this.ranks = ranks;
    }

    void barrier() {
        for (int distance = 1; distance < ranks; distance <<= 1) {
            final MessageRequest sent = engine.isend(MemorySegment.NULL, (rank + distance) % ranks, CONTEXT,
                BARRIER_TAG);
            final MessageRequest received = engine.irecv(MemorySegment.NULL, (rank - distance + ranks) % ranks,
                CONTEXT, BARRIER_TAG);
            MessageRequest.waitAll(sent, received);
        }
    }

    void bcast(final MemorySegment buffer, final int root) {
        final int relative = (rank - root + ranks) % ranks;
        int mask = 1;
        while (mask < ranks) {
            if ((relative & mask) != 0) {
                final int parent = (relative - mask + root) % ranks;
                engine.irecv(buffer, parent, CONTEXT, BCAST_TAG).await();
                break;
            }
            mask <<= 1;
        }
        final List<MessageRequest> sends = new ArrayList<>();
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (relative + mask < ranks) {
                sends.add(engine.isend(buffer, (relative + mask + root) % ranks, CONTEXT,
                    BCAST_TAG));
            }
        }
        MessageRequest.waitAll(sends.toArray(MessageRequest[]::new));
    }

    /**
     * @param bytes count x type size, checked by the caller against both buffers.
     */
    void reduce(
        final MemorySegment send, final MemorySegment recv, final long bytes, final Datatype type, final Op op,
        final int root) {
        final int relative = (rank - root + ranks) % ranks;
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment accumulated = arena.allocate(Math.max(bytes, 1), Long.BYTES).asSlice(0, bytes);
            MemorySegment.copy(send, 0, accumulated, 0, bytes);
            MemorySegment partial = null;
            for (int mask = 1; mask < ranks; mask <<= 1) {
                if ((relative & mask) != 0) {
                    engine.isend(accumulated, (relative - mask + root) % ranks, CONTEXT,
                        REDUCE_TAG).await();
                    break;
                }
                if (relative + mask < ranks) {
                    if (partial == null) {
                        partial = arena.allocate(Math.max(bytes, 1), Long.BYTES).asSlice(0, bytes);
                    }
                    engine.irecv(partial, (relative + mask + root) % ranks, CONTEXT,
                        REDUCE_TAG).await();
                    combine(accumulated, partial, bytes, type.basic(), op);
                }
            }
            if (rank == root) {
                MemorySegment.copy(accumulated, 0, recv, 0, bytes);
            }
        }
    }

    void allreduce(
        final MemorySegment send, final MemorySegment recv, final long bytes, final Datatype type, final Op op) {
        reduce(send, recv, bytes, type, op, 0);
        bcast(recv.asSlice(0, bytes), 0);
    }

    /**
     * {@code into[i] = op(into[i], from[i])} element by element.
     */
    static void combine(
        final MemorySegment into, final MemorySegment from, final long bytes, final Datatype.Basic basic,
        final Op op) {
        final int size = basic.bytes();
        for (long offset = 0; offset < bytes; offset += size) {
            AtomicElements.write(basic, into, offset, AtomicElements.apply(op, basic,
                AtomicElements.read(basic, into, offset), AtomicElements.read(basic, from, offset)));
        }
    }
}
