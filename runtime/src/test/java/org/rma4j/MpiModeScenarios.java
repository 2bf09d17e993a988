package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Programs of the MPI-mode tests that only a job across nodes can run (2 nodes x 2 ranks: ranks 0, 1 on node
 * 0, ranks 2, 3 on node 1): what shared memory means there, local and remote origins contending on one target,
 * and the error classes of calls to ranks of another node.
 */
final class MpiModeScenarios {
    /** Operations of each rank on the contended location, and increments under the contended lock. */
    static final String CONTENTION_PROP_NAME = "rma4j.test.contention";

    private MpiModeScenarios() {
    }

    private static int contention() {
        return Integer.getInteger(CONTENTION_PROP_NAME, 200);
    }

    /**
     * allocateShared over the world (two nodes) is RMA_SHARED at every rank; over the node's communicator from
     * splitShared it is a shared window: sharedQuery gives the node-mate's part (contiguous), direct stores are
     * seen after a barrier, and allocate over the world still answers sharedQuery with RMA_FLAVOR.
     */
    static void sharedOnNodes(final RmaJob job) {
        final int me = job.rank();
        expect(ErrorClass.RMA_SHARED, () -> job.allocateShared(64, 8));
        final Communicator node = job.world().splitShared(0);
        assertArrayEquals(new int[] {me & ~1, me | 1}, node.group().members());
        try (Window shared = node.allocateShared(64L * (node.rank() + 1), 8)) {
            assertEquals(WindowFlavor.SHARED, shared.flavor());
            final SharedRegion mate = shared.sharedQuery(1 - node.rank());
            assertEquals(64L * (2 - node.rank()), mate.sizeBytes());
            final SharedRegion first = shared.sharedQuery(0);
            assertEquals(first.segment().address() + 64, shared.sharedQuery(1).segment().address(), "contiguous");
            mate.segment().set(ValueLayout.JAVA_LONG, 0, 1000L + me);
            node.barrier();
            assertEquals(1000L + (me ^ 1), shared.segment().get(ValueLayout.JAVA_LONG, 0));
            node.barrier();
        }
        try (Window allocated = job.allocate(8, 8)) {
            expect(ErrorClass.RMA_FLAVOR, () -> allocated.sharedQuery(0));
        }
        node.free();
    }

    /**
     * Origins on both nodes on one target (rank 0): fetch_and_op SUM, accumulate SUM and a compare-and-swap
     * loop on three locations give exact totals and every fetched value once; a non-atomic get / increment /
     * put under an exclusive lock gives the exact count. Ranks 0 and 1 reach the target through shared memory,
     * ranks 2 and 3 through MPI and the target's agent.
     */
    static void hybridContention(final RmaJob job) {
        final int n = job.size();
        final int rounds = contention();
        try (Window window = job.allocate(job.rank() == 0 ? 32 : 0, 8)) {
            final long[] fetched = new long[rounds];
            window.lockAll();
            for (int i = 0; i < rounds; i++) {
                fetched[i] = window.fetchAndOp(1L, 0, 0, Op.SUM);
                window.accumulate(MemorySegment.ofArray(new long[] {2}), 1, Datatype.LONG, 0, 1, 1, Datatype.LONG,
                    Op.SUM);
                long seen = window.fetchAndOp(0L, 0, 2, Op.NO_OP);
                while (true) {
                    final long previous = window.compareAndSwap(seen, seen + 1, 0, 2);
                    if (previous == seen) {
                        break;
                    }
                    seen = previous;
                }
            }
            window.unlockAll();
            final long[] all = job.world().allgather(fetched);
            Arrays.sort(all);
            for (int v = 0; v < all.length; v++) {
                assertEquals(v, all[v], "every fetched value of the contended counter once");
            }
            for (int i = 0; i < rounds; i++) {
                window.lock(LockType.EXCLUSIVE, 0);
                final long[] value = new long[1];
                window.get(value, 0, 1, 0, 3);
                value[0]++;
                window.put(value, 0, 1, 0, 3);
                window.unlock(0);
            }
            job.barrier();
            final long[] totals = new long[4];
            window.lock(LockType.SHARED, 0);
            window.get(totals, 0, 4, 0, 0);
            window.unlock(0);
            assertEquals((long)rounds * n, totals[0], "fetch_and_op SUM");
            assertEquals(2L * rounds * n, totals[1], "accumulate SUM");
            assertEquals((long)rounds * n, totals[2], "compare_and_swap increments");
            assertEquals((long)rounds * n, totals[3], "get / put increments under the exclusive lock");
            job.barrier();
        }
    }

    /**
     * Calls to a rank of the other node fail with the standard's error classes, checked by the origin before
     * anything is sent (Open MPI's osc/pt2pt would write past a window), and leave the window usable.
     */
    static void errorsAcrossNodes(final RmaJob job) {
        final int me = job.rank();
        final int remote = me ^ 2;
        try (Window window = job.allocate(64, 8)) {
            expect(ErrorClass.RMA_SYNC, () -> window.put(new long[] {1}, 0, 1, remote, 0));
            window.lockAll();
            expect(ErrorClass.RMA_RANGE, () -> window.put(new long[] {1}, 0, 1, remote, 8));
            expect(ErrorClass.RMA_RANGE, () -> window.get(new long[2], 0, 2, remote, 7));
            expect(ErrorClass.DISP, () -> window.put(new long[] {1}, 0, 1, remote, -1));
            expect(ErrorClass.RANK, () -> window.put(new long[] {1}, 0, 1, job.size(), 0));
            expect(ErrorClass.RMA_RANGE, () -> window.fetchAndOp(1L, remote, 8, Op.SUM));
            expect(ErrorClass.OP, () -> window.accumulate(MemorySegment.ofArray(new double[] {1}), 1, Datatype.DOUBLE,
                remote, 0, 1, Datatype.DOUBLE, Op.BAND));
            window.unlockAll();
            expect(ErrorClass.LOCKTYPE, () -> window.lock(null, remote));
            expect(ErrorClass.RMA_SYNC, () -> window.unlock(remote));
            window.fence(0);
            window.put(new long[] {100L + me}, 0, 1, remote, 7);
            window.fence(0);
            assertEquals(100L + remote, window.segment().get(ValueLayout.JAVA_LONG, 56), "the window still works");
            window.fence(Rma.MODE_NOSUCCEED);
        }
        try (Window bytes = job.allocate(64, 1)) {
            bytes.lockAll();
            final MemorySegment one = MemorySegment.ofArray(new long[1]);
            expect(ErrorClass.DISP, () -> bytes.accumulate(one, 1, Datatype.LONG, remote, 4, 1, Datatype.LONG, Op.SUM));
            expect(ErrorClass.DISP, () -> bytes.fetchAndOp(1L, remote, 2, Op.SUM));
            bytes.unlockAll();
        }
    }

    static void expect(final ErrorClass errorClass, final org.junit.jupiter.api.function.Executable call) {
        final RmaException e = assertThrows(RmaException.class, call);
        assertEquals(errorClass, e.errorClass(), e::getMessage);
        assertTrue(e.getMessage() != null && !e.getMessage().isEmpty());
    }
}
