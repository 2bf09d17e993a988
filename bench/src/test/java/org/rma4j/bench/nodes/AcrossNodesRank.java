package org.rma4j.bench.nodes;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Locale;
import org.rma4j.LockType;
import org.rma4j.NotifyRequest;
import org.rma4j.Op;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;

/**
 * The rma4j side of {@link AcrossNodesDriver}: rank 0 times calls to rank 1 through rma4j, as
 * {@code across_nodes.c} times them through MPI. {@code AcrossNodesRank MODE ITERATIONS WARMUP}:
 * <ul>
 *   <li>{@code remote}: a job of 2 ranks on 2 nodes (under mpirun): put, get and fetch_and_op, each followed by
 *   a flush, the 1 MiB put bandwidth and the notified ping-pong, the cases of the C program;</li>
 *   <li>{@code local}: rank 1 is on rank 0's node, in a job across nodes (the hybrid path) or in a job of one
 *   node under rmarun (shared memory): the same cases and an exclusive lock / unlock.</li>
 * </ul>
 * The target waits in a barrier while the origin times; the window is one of {@code allocate}, in one lock_all
 * epoch. A remote sample is one call; a local one, {@value #LOCAL_BATCH} calls (a call of tens of nanoseconds is
 * below the clock's resolution), divided by their number. Prints {@code NODES <case> <size> <median ns | MB/s>}
 * at rank 0.
 */
public final class AcrossNodesRank {
    private static final int MIB = 1 << 20;
    private static final int BW_BATCH = 8;
    private static final int BW_SAMPLES = 30;
    private static final int TAG = 7;
    private static final int LOCAL_BATCH = 100;

    private AcrossNodesRank() {
    }

    /** One timed call. */
    @FunctionalInterface
    private interface Call {
        void run();
    }

    public static void main(final String[] args) throws Exception {
        final boolean local = args[0].equals("local");
        final int iterations = Integer.parseInt(args[1]);
        final int warmup = Integer.parseInt(args[2]);
        final int batch = local ? LOCAL_BATCH : 1;
        Rma.run(job -> {
            try (Arena arena = Arena.ofConfined(); Window window = job.allocate(2L * MIB, 1)) {
                final MemorySegment buffer = arena.allocate(MIB, 8);
                buffer.fill((byte)1);
                window.lockAll();
                latency(job, iterations, warmup, batch, "put 8", () -> {
                    window.put(buffer.asSlice(0, 8), 1, 0);
                    window.flush(1);
                });
                latency(job, iterations, warmup, batch, "put 1024", () -> {
                    window.put(buffer.asSlice(0, 1024), 1, 0);
                    window.flush(1);
                });
                latency(job, iterations, warmup, batch, "get 8", () -> {
                    window.get(buffer.asSlice(0, 8), 1, 0);
                    window.flush(1);
                });
                latency(job, iterations, warmup, batch, "get 1024", () -> {
                    window.get(buffer.asSlice(0, 1024), 1, 0);
                    window.flush(1);
                });
                latency(job, iterations, warmup, batch, "fetch_and_op 8", () -> {
                    window.fetchAndOp(1L, 1, 0, Op.SUM);
                    window.flush(1);
                });
                bandwidth(job, window, buffer);
                window.unlockAll();
                if (local) {
                    latency(job, iterations, warmup, batch, "lock_exclusive 8", () -> {
                        window.lock(LockType.EXCLUSIVE, 1);
                        window.unlock(1);
                    });
                }
                pingPong(job, window, buffer.asSlice(0, 8), iterations, warmup);
            }
        });
    }

    private static void latency(final RmaJob job, final int iterations, final int warmup, final int batch,
        final String name, final Call call) {
        if (job.rank() == 0) {
            for (int i = 0; i < warmup * batch; i++) {
                call.run();
            }
            final long[] samples = new long[iterations];
            for (int i = 0; i < iterations; i++) {
                final long t0 = System.nanoTime();
                for (int j = 0; j < batch; j++) {
                    call.run();
                }
                samples[i] = System.nanoTime() - t0;
            }
            print(name, median(samples) / batch);
        }
        job.barrier();
    }

    private static void bandwidth(final RmaJob job, final Window window, final MemorySegment buffer) {
        if (job.rank() == 0) {
            long timedNs = 0;
            for (int s = -2; s < BW_SAMPLES; s++) {
                final long t0 = System.nanoTime();
                for (int j = 0; j < BW_BATCH; j++) {
                    window.put(buffer, 1, 0);
                }
                window.flush(1);
                if (s >= 0) {
                    timedNs += System.nanoTime() - t0;
                }
            }
            print("put_bw " + MIB, (double)BW_SAMPLES * BW_BATCH * MIB / (timedNs / 1e9) / 1e6);
        }
        job.barrier();
    }

    /** Notified ping-pong of 8 B between ranks 0 and 1: the median half round trip at rank 0. */
    private static void pingPong(final RmaJob job, final Window window, final MemorySegment payload,
        final int iterations, final int warmup) {
        final int rank = job.rank();
        if (rank > 1) {
            job.barrier();
            return;
        }
        final int peer = 1 - rank;
        final long[] samples = new long[iterations];
        try (NotifyRequest request = window.notifyInit(peer, TAG, 1)) {
            job.barrier();
            for (int i = -warmup; i < iterations; i++) {
                final long t0 = System.nanoTime();
                request.start();
                if (rank == 0) {
                    window.putNotify(payload, peer, 0, TAG);
                    request.await();
                } else {
                    request.await();
                    window.putNotify(payload, peer, 0, TAG);
                }
                if (i >= 0) {
                    samples[i] = (System.nanoTime() - t0) / 2;
                }
            }
        }
        if (rank == 0) {
            print("notify 8", median(samples));
        }
    }

    private static double median(final long[] samples) {
        final long[] sorted = samples.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static void print(final String name, final double value) {
        System.out.println(String.format(Locale.ROOT, "NODES %s %.1f", name, value));
        System.out.flush();
    }
}
