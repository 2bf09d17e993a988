package org.rma4j;

import static org.rma4j.CollectiveArgs.NONE;
import static org.rma4j.CollectiveArgs.problem;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.rma4j.CollectiveCalls.Kind;

/**
 * The data-movement collectives of a communicator (MPI-3.1 sections 5.4 to 5.8): broadcast, gather,
 * scatter, allgather and alltoall with their v-variants, each one {@link Exchange} in which every member
 * streams its contribution and reads the parts meant for it. Javadoc of each call: {@link Communicator}.
 *
 * <p>Scatterv and alltoallv streams start with a table of two longs per member (the offset of the
 * member's block in the packed data that follows, and its length), because a receiver does not know the
 * sender's counts and displacements (section 5.6: only the root passes them); the other receivers know
 * where their blocks are.
 */
final class DataCollectives {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private DataCollectives() {
    }

    static void bcast(final CommContext context, final MemorySegment buffer, final int root) {
        final String call = "bcast";
        final RmaException error = problem(() -> {
            CollectiveArgs.checkRoot(call, context, root);
            CollectiveArgs.checkBuffer(call, "data", buffer, 0);
        });
        final boolean isRoot = context.rank() == root;
        final long length = buffer == null ? 0 : buffer.byteSize();
        context.exchange().run(Kind.BCAST, call, isRoot ? new MemorySegment[] {buffer} : NONE, root, length, error,
            (member, total, offset, chunk) -> {
                if (!isRoot && member == root) {
                    MemorySegment.copy(chunk, 0, buffer, offset, chunk.byteSize());
                }
            });
    }

    static void gather(final CommContext context, final MemorySegment send, final MemorySegment recv, final int root) {
        final String call = "gather";
        final int size = context.size();
        final boolean isRoot = context.rank() == root;
        final long block = send == null ? 0 : send.byteSize();
        final RmaException error = problem(() -> {
            CollectiveArgs.checkRoot(call, context, root);
            CollectiveArgs.checkBuffer(call, "send", send, 0);
            if (isRoot) {
                CollectiveArgs.checkBuffer(call, "recv", recv, Math.multiplyExact(block, size));
            }
        });
        context.exchange().run(Kind.GATHER, call, new MemorySegment[] {send}, root, block, error,
            (member, total, offset, chunk) -> {
                if (isRoot) {
                    MemorySegment.copy(chunk, 0, recv, member * block + offset, chunk.byteSize());
                }
            });
    }

    static void gatherv(final CommContext context, final MemorySegment send, final MemorySegment recv,
        final int[] recvCounts, final int[] displs, final Datatype type, final int root) {
        final String call = "gatherv";
        final boolean isRoot = context.rank() == root;
        final long[][] blocks = new long[1][];
        final RmaException error = problem(() -> {
            CollectiveArgs.checkRoot(call, context, root);
            CollectiveArgs.checkType(call, type);
            CollectiveArgs.elements(call, "send", send, type);
            if (isRoot) {
                blocks[0] = CollectiveArgs.blocks(call, "recv", recv, recvCounts, displs, type, context.size());
            }
        });
        final long[] totals = context.exchange().run(Kind.GATHER, call, new MemorySegment[] {send}, root,
            CollectiveArgs.agreement(0, type, null), error, (member, total, offset, chunk) -> {
                if (isRoot && total == blocks[0][2 * member + 1]) {
                    MemorySegment.copy(chunk, 0, recv, blocks[0][2 * member] + offset, chunk.byteSize());
                }
            });
        if (isRoot) {
            checkTotals(call, totals, blocks[0]);
        }
    }

    static void scatter(final CommContext context, final MemorySegment send, final MemorySegment recv, final int root) {
        final String call = "scatter";
        final int size = context.size();
        final int rank = context.rank();
        final boolean isRoot = rank == root;
        final long block = recv == null ? 0 : recv.byteSize();
        final RmaException error = problem(() -> {
            CollectiveArgs.checkRoot(call, context, root);
            CollectiveArgs.checkBuffer(call, "recv", recv, 0);
            if (isRoot) {
                CollectiveArgs.checkBuffer(call, "send", send, Math.multiplyExact(block, size));
            }
        });
        final MemorySegment[] stream = isRoot && error == null
            ? new MemorySegment[] {send.asSlice(0, block * size)}
            : NONE;
        context.exchange().run(Kind.SCATTER, call, stream, root, block, error, (member, total, offset, chunk) -> {
            if (member == root) {
                CollectiveArgs.copyRange(chunk, offset, rank * block, block, recv, 0);
            }
        });
    }

    static void scatterv(final CommContext context, final MemorySegment send, final int[] sendCounts,
        final int[] displs, final Datatype type, final MemorySegment recv, final int root) {
        final String call = "scatterv";
        final int size = context.size();
        final boolean isRoot = context.rank() == root;
        final long[][] blocks = new long[1][];
        final RmaException error = problem(() -> {
            CollectiveArgs.checkRoot(call, context, root);
            CollectiveArgs.checkType(call, type);
            CollectiveArgs.elements(call, "recv", recv, type);
            if (isRoot) {
                blocks[0] = CollectiveArgs.blocks(call, "send", send, sendCounts, displs, type, size);
            }
        });
        final MemorySegment[] stream = isRoot && error == null ? packed(send, blocks[0]) : NONE;
        final Table table = new Table(call, size, 1, recv == null ? 0 : recv.byteSize());
        context.exchange().run(Kind.SCATTER, call, stream, root, CollectiveArgs.agreement(0, type, null), error,
            (member, total, offset, chunk) -> {
                if (member == root) {
                    table.read(root, context.rank(), offset, chunk, recv, 0);
                }
            });
        table.check();
    }

    static void allgather(final CommContext context, final MemorySegment send, final MemorySegment recv) {
        final String call = "allgather";
        final long block = send == null ? 0 : send.byteSize();
        final RmaException error = problem(() -> {
            CollectiveArgs.checkBuffer(call, "send", send, 0);
            CollectiveArgs.checkBuffer(call, "recv", recv, Math.multiplyExact(block, context.size()));
        });
        context.exchange().run(Kind.ALLGATHER, call, new MemorySegment[] {send}, -1, block, error, (member, total,
            offset, chunk) -> MemorySegment.copy(chunk, 0, recv, member * block + offset, chunk.byteSize()));
    }

    static void allgatherv(final CommContext context, final MemorySegment send, final MemorySegment recv,
        final int[] recvCounts, final int[] displs, final Datatype type) {
        final String call = "allgatherv";
        final long[][] blocks = new long[1][];
        final RmaException error = problem(() -> {
            CollectiveArgs.checkType(call, type);
            CollectiveArgs.elements(call, "send", send, type);
            blocks[0] = CollectiveArgs.blocks(call, "recv", recv, recvCounts, displs, type, context.size());
        });
        final long[] totals = context.exchange().run(Kind.ALLGATHER, call, new MemorySegment[] {send}, -1,
            CollectiveArgs.agreement(0, type, null), error, (member, total, offset, chunk) -> {
                if (total == blocks[0][2 * member + 1]) {
                    MemorySegment.copy(chunk, 0, recv, blocks[0][2 * member] + offset, chunk.byteSize());
                }
            });
        checkTotals(call, totals, blocks[0]);
    }

    static void alltoall(final CommContext context, final MemorySegment send, final MemorySegment recv) {
        final String call = "alltoall";
        final int size = context.size();
        final int rank = context.rank();
        final long block = send == null ? 0 : send.byteSize() / size;
        final RmaException error = problem(() -> {
            CollectiveArgs.checkBuffer(call, "send", send, 0);
            if (send.byteSize() % size != 0) {
                throw new RmaException(ErrorClass.COUNT,
                    call + " send buffer of " + send.byteSize() + " bytes is not " + size + " blocks of equal length");
            }
            CollectiveArgs.checkBuffer(call, "recv", recv, send.byteSize());
        });
        context.exchange().run(Kind.ALLTOALL, call, new MemorySegment[] {send}, -1, block, error, (member, total,
            offset, chunk) -> CollectiveArgs.copyRange(chunk, offset, rank * block, block, recv, member * block));
    }

    static void alltoallv(final CommContext context, final MemorySegment send, final int[] sendCounts,
        final int[] sendDispls, final MemorySegment recv, final int[] recvCounts, final int[] recvDispls,
        final Datatype type) {
        final String call = "alltoallv";
        final int size = context.size();
        final long[][] sent = new long[1][];
        final long[][] received = new long[1][];
        final RmaException error = problem(() -> {
            CollectiveArgs.checkType(call, type);
            sent[0] = CollectiveArgs.blocks(call, "send", send, sendCounts, sendDispls, type, size);
            received[0] = CollectiveArgs.blocks(call, "recv", recv, recvCounts, recvDispls, type, size);
        });
        final MemorySegment[] stream = error == null ? packed(send, sent[0]) : NONE;
        final Table table = new Table(call, size, size, 0);
        context.exchange().run(Kind.ALLTOALL, call, stream, -1, CollectiveArgs.agreement(0, type, null), error,
            (member, total, offset, chunk) -> table.read(member, context.rank(), offset, chunk, recv,
                received[0][2 * member], received[0][2 * member + 1]));
        table.check();
    }

    /**
     * @return a stream of a table of {offset in the packed data, length} per member, then the members'
     *         blocks of {@code buffer}, packed in member order.
     */
    private static MemorySegment[] packed(final MemorySegment buffer, final long[] blocks) {
        final int members = blocks.length / 2;
        final long[] table = new long[2 * members];
        final MemorySegment[] stream = new MemorySegment[1 + members];
        long packedOffset = 0;
        for (int m = 0; m < members; m++) {
            table[2 * m] = packedOffset;
            table[2 * m + 1] = blocks[2 * m + 1];
            stream[1 + m] = buffer.asSlice(blocks[2 * m], blocks[2 * m + 1]);
            packedOffset += blocks[2 * m + 1];
        }
        stream[0] = MemorySegment.ofArray(table);
        return stream;
    }

    /**
     * A receiver's reading of streams that begin with a table ({@link #packed}): the entry of its own
     * rank, then its block.
     */
    private static final class Table {
        private final String call;
        private final int members;
        private final long capacity;
        private final long[] start;
        private final long[] length;
        private String problem;

        /**
         * @param capacity the receive capacity when the caller passes none per member (scatterv).
         */
        Table(final String call, final int members, final int senders, final long capacity) {
            this.call = call;
            this.members = members;
            this.capacity = capacity;
            this.start = new long[senders];
            this.length = new long[senders];
            java.util.Arrays.fill(start, -1);
        }

        void read(final int sender, final int rank, final long offset, final MemorySegment chunk,
            final MemorySegment into, final long at) {
            read(sender, rank, offset, chunk, into, at, -1);
        }

        /**
         * @param expected the bytes the receiver expects from {@code sender}, or -1: at most
         *                 {@link #capacity}.
         */
        void read(final int sender, final int rank, final long offset, final MemorySegment chunk,
            final MemorySegment into, final long at, final long expected) {
            final int slot = start.length == 1 ? 0 : sender;
            final long entry = 2L * Long.BYTES * rank;
            if (start[slot] < 0 && entry >= offset && entry + 2 * Long.BYTES <= offset + chunk.byteSize()) {
                start[slot] = 2L * Long.BYTES * members + chunk.get(LONG, entry - offset);
                length[slot] = chunk.get(LONG, entry - offset + Long.BYTES);
                final boolean fits = expected < 0 ? length[slot] <= capacity : length[slot] == expected;
                if (!fits && problem == null) {
                    problem = call + " at rank " + rank + ": rank " + sender + " sent " + length[slot] + " bytes, the"
                        + " receive buffer " + (expected < 0 ? "holds " + capacity : "expects " + expected);
                    length[slot] = 0;
                }
            }
            if (start[slot] >= 0) {
                CollectiveArgs.copyRange(chunk, offset, start[slot], length[slot], into, at);
            }
        }

        void check() {
            if (problem != null) {
                throw new RmaException(ErrorClass.COUNT, problem);
            }
        }
    }

    /**
     * A receiver's check that each member sent as many bytes as its counts say (MPI-3.1 section 5.5: the
     * type signatures must match); the blocks that did not were left out.
     *
     * @throws RmaException COUNT naming the first member that did not.
     */
    private static void checkTotals(final String call, final long[] totals, final long[] blocks) {
        for (int m = 0; m < totals.length; m++) {
            if (totals[m] != blocks[2 * m + 1]) {
                throw new RmaException(ErrorClass.COUNT, call + ": rank " + m + " sent " + totals[m]
                    + " bytes, the receive counts expect " + blocks[2 * m + 1]);
            }
        }
    }
}
