package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.rma4j.CommunicatorScenarios.expect;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The programs of the data-collective contract tests (MPI-3.1 chapter 5): every collective on the world
 * and on a communicator whose ranks run in reverse job order, with exact results, v-variants with uneven
 * counts and empty parts, contributions long enough to take several exchange rounds, and bad arguments.
 * Each runs at every rank, in thread mode or as processes ({@link CollectiveContractTest}).
 */
final class CollectiveScenarios {
    /** Longs in a "long" contribution: several exchange rounds for any communicator size. */
    private static final int LONG_RUN = 20_000;

    private CollectiveScenarios() {
    }

    /** The communicators each scenario runs on: the world, and the world with ranks reversed. */
    private static Communicator[] communicators(final RmaJob job) {
        return new Communicator[] {job.world(), job.world().split(0, job.size() - job.rank())};
    }

    private static void free(final Communicator[] comms) {
        for (final Communicator comm : comms) {
            if (comm != comms[0]) {
                comm.free();
            }
        }
    }

    /** bcast, gather and scatter from every root, short and long. */
    static void rooted(final RmaJob job) {
        final Communicator[] comms = communicators(job);
        for (final Communicator comm : comms) {
            final int n = comm.size();
            final int me = comm.rank();
            for (int root = 0; root < n; root++) {
                for (final int length : new int[] {0, 3, LONG_RUN}) {
                    final int r = root;
                    final long[] data = new long[length];
                    if (me == root) {
                        Arrays.setAll(data, i -> 1_000_000L * (r + 1) + i);
                    }
                    comm.bcast(data, root);
                    assertArrayEquals(longs(length, i -> 1_000_000L * (r + 1) + i), data);

                    final long[] mine = longs(length, i -> 1000L * me + i);
                    final long[] gathered = comm.gather(mine, root);
                    if (me == root) {
                        assertArrayEquals(longs(n * length, i -> 1000L * (i / Math.max(1, length)) + i % length),
                            gathered);
                    } else {
                        assertNull(gathered);
                    }

                    final long[] all = me == root ? longs(n * length, i -> 7L * i) : null;
                    final long[] block = new long[length];
                    comm.scatter(all == null ? null : MemorySegment.ofArray(all), MemorySegment.ofArray(block), root);
                    assertArrayEquals(longs(length, i -> 7L * (me * length + i)), block);
                }
            }
        }
        free(comms);
    }

    /** gatherv and scatterv with uneven counts, empty parts, displacements out of rank order and gaps. */
    static void rootedV(final RmaJob job) {
        final Communicator[] comms = communicators(job);
        for (final Communicator comm : comms) {
            final int n = comm.size();
            final int me = comm.rank();
            final int[] counts = new int[n];
            Arrays.setAll(counts, r -> r % 3 == 0 ? 0 : r * 5 + (r == 1 ? LONG_RUN : 0));
            final int[] displs = reversedDispls(counts, 2);
            final int total = displs[0] + counts[0] + 2;
            for (int root = 0; root < n; root++) {
                final int[] send = ints(counts[me], i -> 100 * me + i);
                final int[] recv = new int[total];
                Arrays.fill(recv, -1);
                comm.gatherv(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), counts, displs, Datatype.INT,
                    root);
                if (me == root) {
                    assertArrayEquals(expectedGathered(counts, displs, total), recv);
                } else {
                    assertEquals(-1, Arrays.stream(recv).max().orElse(-1), "recv is the root's only");
                }
                final int[] source = me == root ? expectedGathered(counts, displs, total) : null;
                final int[] part = new int[counts[me] + 1];
                Arrays.fill(part, -1);
                comm.scatterv(source == null ? null : MemorySegment.ofArray(source), counts, displs, Datatype.INT,
                    MemorySegment.ofArray(part), root);
                final int[] expected = Arrays.copyOf(ints(counts[me], i -> 100 * me + i), counts[me] + 1);
                expected[counts[me]] = -1;
                assertArrayEquals(expected, part);
            }
        }
        free(comms);
    }

    /** allgather(v), alltoall(v), with uneven and empty parts. */
    static void everyToEvery(final RmaJob job) {
        final Communicator[] comms = communicators(job);
        for (final Communicator comm : comms) {
            final int n = comm.size();
            final int me = comm.rank();
            for (final int length : new int[] {0, 2, LONG_RUN / n}) {
                assertArrayEquals(longs(n * length, i -> 10L * (i / Math.max(1, length)) + i % length),
                    comm.allgather(longs(length, i -> 10L * me + i)));
                final long[] alltoall = comm.alltoall(longs(n * length, i -> 1000L * me + i));
                assertArrayEquals(longs(n * length, i -> 1000L * (i / Math.max(1, length)) + me * length + i % length),
                    alltoall);
            }
            final int[] counts = new int[n];
            Arrays.setAll(counts, r -> r == 0 ? 0 : 3 * r + (r == n - 1 ? LONG_RUN : 0));
            final int[] displs = reversedDispls(counts, 1);
            final int total = displs[0] + counts[0] + 1;
            final int[] gathered = new int[total];
            Arrays.fill(gathered, -1);
            comm.allgatherv(MemorySegment.ofArray(ints(counts[me], i -> 100 * me + i)), MemorySegment.ofArray(gathered),
                counts, displs, Datatype.INT);
            assertArrayEquals(expectedGathered(counts, displs, total), gathered);

            // alltoallv: rank i sends (i + j) % 3 (+ a long run from rank 1 to rank 0) longs to rank j.
            final int[] sendCounts = new int[n];
            final int[] recvCounts = new int[n];
            Arrays.setAll(sendCounts, j -> pairCount(me, j));
            Arrays.setAll(recvCounts, i -> pairCount(i, me));
            final int[] sendDispls = reversedDispls(sendCounts, 0);
            final int[] recvDispls = reversedDispls(recvCounts, 0);
            final long[] send = new long[Arrays.stream(sendCounts).sum()];
            for (int j = 0; j < n; j++) {
                for (int k = 0; k < sendCounts[j]; k++) {
                    send[sendDispls[j] + k] = 1_000_000L * me + 1000L * j + k;
                }
            }
            final long[] recv = new long[Arrays.stream(recvCounts).sum()];
            comm.alltoallv(MemorySegment.ofArray(send), sendCounts, sendDispls, MemorySegment.ofArray(recv), recvCounts,
                recvDispls, Datatype.LONG);
            for (int i = 0; i < n; i++) {
                for (int k = 0; k < recvCounts[i]; k++) {
                    assertEquals(1_000_000L * i + 1000L * me + k, recv[recvDispls[i] + k]);
                }
            }
        }
        free(comms);
    }

    private static int pairCount(final int from, final int to) {
        return (from + to) % 3 + (from == 1 && to == 0 ? LONG_RUN : 0);
    }

    /** reduce, allreduce, reduce_scatter (block and counts), scan, exscan, with several ops and types. */
    static void reductions(final RmaJob job) {
        final Communicator[] comms = communicators(job);
        for (final Communicator comm : comms) {
            final int n = comm.size();
            final int me = comm.rank();
            for (final int length : new int[] {1, LONG_RUN}) {
                final long[] values = longs(length, i -> (long)(me + 1) * (i + 1));
                final long triangle = (long)n * (n + 1) / 2;
                assertArrayEquals(longs(length, i -> triangle * (i + 1)), comm.allreduce(values, Op.SUM));
                assertArrayEquals(longs(length, i -> (long)n * (i + 1)), comm.allreduce(values, Op.MAX));
                for (int root = 0; root < n; root++) {
                    final long[] min = comm.reduce(values, Op.MIN, root);
                    if (me == root) {
                        assertArrayEquals(longs(length, i -> i + 1L), min);
                    } else {
                        assertNull(min);
                    }
                }
                // In place: the receive buffer is the send buffer.
                final MemorySegment inPlace = MemorySegment.ofArray(values.clone());
                comm.allreduce(inPlace, inPlace, length, Datatype.LONG, Op.SUM);
                assertArrayEquals(longs(length, i -> triangle * (i + 1)),
                    inPlace.toArray(java.lang.foreign.ValueLayout.JAVA_LONG));
            }
            assertEquals(me == 0 ? 0 : (long)me * (me + 1) / 2, comm.exscan(me + 1, Op.SUM));
            assertEquals((long)(me + 1) * (me + 2) / 2, comm.scan(me + 1, Op.SUM));
            final int[] bits = comm.allreduce(new int[] {1 << me, ~(1 << me)}, Op.BXOR);
            assertEquals((1 << n) - 1, bits[0]);
            assertEquals(n % 2 == 0 ? (1 << n) - 1 : ~((1 << n) - 1), bits[1]);
            final int[] logical = comm.allreduce(new int[] {me, 1, me == 0 ? 5 : 0}, Op.LAND);
            assertArrayEquals(new int[] {n == 1 ? 0 : 0, 1, n == 1 ? 1 : 0}, logical);
            // Floating-point sums are combined in rank order at every rank: the same bits everywhere.
            final double[] sums = comm.allreduce(doubles(LONG_RUN, i -> 0.1 * (me + 1) * (i + 1)), Op.SUM);
            final long[] bitsAtEveryRank = comm.allgather(new long[] {Double.doubleToRawLongBits(sums[LONG_RUN - 1])});
            assertEquals(1, Arrays.stream(bitsAtEveryRank).distinct().count());
            double expected = 0;
            for (int r = 0; r < n; r++) {
                expected += 0.1 * (r + 1) * LONG_RUN;
            }
            assertEquals(Double.doubleToRawLongBits(expected), bitsAtEveryRank[0]);
            reduceScatter(comm);
        }
        free(comms);
    }

    private static void reduceScatter(final Communicator comm) {
        final int n = comm.size();
        final int me = comm.rank();
        final int block = 3;
        final long[] send = longs(n * block, i -> me + 10L * i);
        final long[] recv = new long[block];
        comm.reduceScatterBlock(MemorySegment.ofArray(send), MemorySegment.ofArray(recv), block, Datatype.LONG, Op.SUM);
        final long triangle = (long)n * (n - 1) / 2;
        assertArrayEquals(longs(block, k -> triangle + 10L * n * (me * block + k)), recv);
        final int[] counts = new int[n];
        Arrays.setAll(counts, r -> r % 2 == 0 ? 0 : r + (r == 1 ? LONG_RUN : 0));
        final int total = Arrays.stream(counts).sum();
        final int before = Arrays.stream(counts).limit(me).sum();
        final double[] values = doubles(total, i -> me * 0.5 + i);
        final double[] mine = new double[counts[me]];
        comm.reduceScatter(MemorySegment.ofArray(values), MemorySegment.ofArray(mine), counts, Datatype.DOUBLE, Op.MAX);
        assertArrayEquals(doubles(counts[me], k -> (n - 1) * 0.5 + before + k), mine, 0.0);
    }

    /**
     * Bad arguments throw at every member with the offending value and leave the communicator in step;
     * a count mismatch is found by the receiver only.
     */
    static void errors(final RmaJob job) {
        final Communicator[] comms = communicators(job);
        for (final Communicator comm : comms) {
            final int n = comm.size();
            final int me = comm.rank();
            expect(ErrorClass.ROOT, () -> comm.bcast(new long[1], me == 1 ? n : 0));
            expect(ErrorClass.ROOT, () -> comm.bcast(new long[1], me));
            expect(ErrorClass.ARG, () -> comm.bcast(new long[me == 0 ? 1 : 2], 0));
            expect(ErrorClass.OP, () -> comm.allreduce(new long[] {1}, Op.REPLACE));
            expect(ErrorClass.OP, () -> comm.allreduce(new double[] {1}, Op.BAND));
            expect(ErrorClass.ARG, () -> comm.allreduce(new long[me + 1], Op.SUM));
            expect(ErrorClass.ARG, () -> comm.allreduce(me == 0 ? null : new long[1], Op.SUM));
            // n + 1 bytes are n blocks of equal length for no n > 1 (n + 1 longs are, for n = 2, 4 or 8).
            expect(ErrorClass.COUNT,
                () -> comm.alltoall(MemorySegment.ofArray(new byte[n + 1]), MemorySegment.ofArray(new byte[n + 1])));
            final int[] ones = ints(n, r -> 1);
            expect(ErrorClass.COUNT, () -> comm.gatherv(MemorySegment.ofArray(new int[1]),
                MemorySegment.ofArray(new int[n - 1]), ones, ints(n, r -> r), Datatype.INT, 0));
            expect(ErrorClass.TYPE, () -> comm.allgatherv(MemorySegment.ofArray(new int[1]),
                MemorySegment.ofArray(new int[n]), new int[n], new int[n], Datatype.vector(2, 1, 2, Datatype.INT)));
            // The root's counts expect 2 ints from every rank but rank 1 sends 1: the root alone throws.
            final int[] counts = new int[n];
            Arrays.fill(counts, 2);
            final int[] displs = new int[n];
            Arrays.setAll(displs, r -> 2 * r);
            final MemorySegment send = MemorySegment.ofArray(new int[me == 1 ? 1 : 2]);
            final MemorySegment recv = MemorySegment.ofArray(new int[2 * n]);
            if (me == 0 && n > 1) {
                expect(ErrorClass.COUNT, () -> comm.gatherv(send, recv, counts, displs, Datatype.INT, 0));
            } else {
                comm.gatherv(send, recv, counts, displs, Datatype.INT, 0);
            }
            assertEquals((long)n * (n - 1) / 2, comm.allreduce(me, Op.SUM), "still in step");
            comm.barrier();
        }
        free(comms);
    }

    private static int[] reversedDispls(final int[] counts, final int gap) {
        final int[] displs = new int[counts.length];
        int at = gap;
        for (int r = counts.length - 1; r >= 0; r--) {
            displs[r] = at;
            at += counts[r] + gap;
        }
        return displs;
    }

    private static int[] expectedGathered(final int[] counts, final int[] displs, final int total) {
        final int[] expected = new int[total];
        Arrays.fill(expected, -1);
        for (int r = 0; r < counts.length; r++) {
            for (int i = 0; i < counts[r]; i++) {
                expected[displs[r] + i] = 100 * r + i;
            }
        }
        return expected;
    }

    private static long[] longs(final int length, final java.util.function.IntToLongFunction value) {
        final long[] array = new long[length];
        Arrays.setAll(array, value::applyAsLong);
        return array;
    }

    private static int[] ints(final int length, final java.util.function.IntUnaryOperator value) {
        final int[] array = new int[length];
        Arrays.setAll(array, value);
        return array;
    }

    private static double[] doubles(final int length, final java.util.function.IntToDoubleFunction value) {
        final double[] array = new double[length];
        Arrays.setAll(array, value);
        return array;
    }
}
