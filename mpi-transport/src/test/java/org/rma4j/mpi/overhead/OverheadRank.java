package org.rma4j.mpi.overhead;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Map;

import org.rma4j.mpi.Mpi;
import org.rma4j.mpi.MpiBasicType;
import org.rma4j.mpi.MpiComm;
import org.rma4j.mpi.MpiDatatype;
import org.rma4j.mpi.MpiOp;
import org.rma4j.mpi.MpiWin;

/**
 * The Java side of the overhead measurement: exactly the calls of {@code overhead.c} (same cases, sizes,
 * iterations, warm-up, timing around each call + flush, medians, bandwidth over all batches, output lines)
 * through the binding.
 *
 * <p>usage: OverheadRank ITERATIONS WARMUP
 */
public final class OverheadRank {
    private static final int MIB = 1 << 20;
    private static final int BW_BATCH = 8;
    private static final int BW_SAMPLES = 30;

    private enum Op {
        PUT, GET, FETCH_AND_OP
    }

    private OverheadRank() {
    }

    public static void main(final String[] args) {
        final int iterations = Integer.parseInt(args[0]);
        final int warmup = Integer.parseInt(args[1]);
        final Mpi mpi = Mpi.init();
        final MpiComm world = mpi.world();
        final int rank = world.rank();
        final MpiDatatype bytes = mpi.datatype(MpiBasicType.BYTE);
        final MpiDatatype int64 = mpi.datatype(MpiBasicType.INT64_T);
        try (Arena arena = Arena.ofConfined()) {
            final MpiWin win = MpiWin.allocate(world, 2L * MIB, 1, Map.of());
            win.base().fill((byte)0);
            final MemorySegment buffer = arena.allocate(MIB, 64);
            buffer.fill((byte)1);
            final MemorySegment one = arena.allocate(ValueLayout.JAVA_LONG);
            one.set(ValueLayout.JAVA_LONG, 0, 1);
            final MemorySegment result = arena.allocate(ValueLayout.JAVA_LONG);
            final long[] samples = new long[Math.max(iterations, BW_SAMPLES)];
            final Op[] ops = {Op.PUT, Op.PUT, Op.GET, Op.GET, Op.FETCH_AND_OP};
            final int[] sizes = {8, 1024, 8, 1024, 8};
            world.barrier();
            win.lockAll(0);
            for (int c = 0; c < ops.length; c++) {
                if (rank == 0) {
                    for (int i = 0; i < warmup; i++) {
                        once(win, ops[c], sizes[c], buffer, one, result, bytes, int64);
                    }
                    for (int i = 0; i < iterations; i++) {
                        final long t0 = System.nanoTime();
                        once(win, ops[c], sizes[c], buffer, one, result, bytes, int64);
                        samples[i] = System.nanoTime() - t0;
                    }
                    System.out.println(
                        "OVH " + ops[c].name().toLowerCase() + " " + sizes[c] + " " + median(samples, iterations));
                }
                world.barrier();
            }
            if (rank == 0) {
                long timedNs = 0;
                for (int s = -2; s < BW_SAMPLES; s++) {
                    final long t0 = System.nanoTime();
                    for (int j = 0; j < BW_BATCH; j++) {
                        win.put(buffer, MIB, bytes, 1, 0);
                    }
                    win.flush(1);
                    if (s >= 0) {
                        timedNs += System.nanoTime() - t0;
                    }
                }
                System.out.printf("OVH put_bw %d %.1f%n", MIB,
                    (double)BW_SAMPLES * BW_BATCH * MIB / (timedNs / 1e9) / 1e6);
            }
            world.barrier();
            win.unlockAll();
            win.free();
        }
        mpi.finalizeMpi();
    }

    private static void once(final MpiWin win, final Op op, final int size, final MemorySegment buffer,
        final MemorySegment one, final MemorySegment result, final MpiDatatype bytes, final MpiDatatype int64) {
        switch (op) {
            case PUT -> win.put(buffer, size, bytes, 1, 0);
            case GET -> win.get(buffer, size, bytes, 1, 0);
            case FETCH_AND_OP -> win.fetchAndOp(one, result, int64, 1, 0, MpiOp.SUM);
        }
        win.flush(1);
    }

    private static long median(final long[] samples, final int n) {
        final long[] sorted = Arrays.copyOf(samples, n);
        Arrays.sort(sorted);
        return sorted[n / 2];
    }
}
