package org.rma4j.bench.harness;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Arrays;
import org.rma4j.RmaJob;

/**
 * What one rank of a harness job knows: its job, its partner, the sizes and counts to run, and where rank
 * 0 writes its samples. Runs the timing loops that every scenario shares.
 *
 * <p>Rank 0 is the client: it times each round trip with {@link System#nanoTime()} and records half of
 * it. Rank 1 is the server: it echoes. Both run the same number of iterations, warmup first, and count
 * the same sequence numbers, so the flag value of an iteration is known to both without being sent.
 */
final class RankContext {
    /** Calls per timed batch of the single-operation rows: nanoTime costs about as much as one call. */
    static final int OP_BATCH = 32;
    /**
     * System property naming the single-operation rows to run (comma-separated; default: every row): the profiling
     * step ({@code org.rma4j.bench.profile.ProfileMain}) runs one row per job so that its samples are that row's.
     */
    static final String OPS_ROWS_PROPERTY = "rma4j.bench.ops.rows";
    /** Bytes moved per timed batch of the bandwidth rows. */
    static final long BW_BATCH_BYTES = 256L * 1024;
    /** Untimed batches before the timed ones of each bandwidth size. */
    static final int BW_WARMUP_BATCHES = 20;
    /** Most bytes the untimed round trips of one size may move: caps the warmup of the large sizes. */
    static final long WARMUP_BYTES = 256L << 20;

    static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    final RmaJob job;
    final int rank;
    final int partner;
    final long[] sizes;
    final int iterations;
    final int warmup;
    final int bwSamples;
    final Path out;
    final double[] samples;
    private long sequence;

    RankContext(final RmaJob job, final long[] sizes, final int iterations, final int warmup, final int bwSamples,
        final Path out) {
        this.job = job;
        this.rank = job.rank();
        this.partner = 1 - rank;
        this.sizes = sizes.clone();
        this.iterations = iterations;
        this.warmup = warmup;
        this.bwSamples = bwSamples;
        this.out = out;
        this.samples = new double[Math.max(Math.max(iterations, bwSamples), 1)];
    }

    /**
     * @return whether the comma-separated list of rows in system property {@code property} names {@code row}, or
     *         the property is unset (every row runs). Every rank of a job reads the same options, so they skip
     *         the same rows and their barriers.
     */
    static boolean selected(final String property, final String row) {
        final String rows = System.getProperty(property);
        return rows == null || List.of(rows.split(",")).contains(row);
    }

    boolean isClient() {
        return rank == 0;
    }

    /**
     * Removes a file the scenario's ranks shared, at the client (which made it), after both are done with it; a
     * failure is reported, not thrown, so that it does not hide the scenario's own.
     */
    void removeSharedFile(final Path file) {
        if (!isClient()) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (final IOException e) {
            System.err.println("cannot remove " + file + ": " + e);
        }
    }

    long maxSize() {
        return Arrays.stream(sizes).max().orElse(8);
    }

    /** One side of one ping-pong iteration. */
    @FunctionalInterface
    interface Side {
        /**
         * @param sizeIndex index into {@link #sizes}.
         * @param sequence  the iteration's sequence number, the same at both ranks (starts at 1).
         */
        void run(int sizeIndex, long sequence) throws Exception;
    }

    /**
     * Runs {@code row} at every size: a barrier, {@link #warmupFor} iterations, then {@link #iterations}
     * timed ones; rank 0 records half of each round trip and appends the row to {@link #out}.
     */
    void pingPong(final String row, final Side client, final Side server) throws Exception {
        for (int s = 0; s < sizes.length; s++) {
            job.barrier();
            final int untimed = warmupFor(warmup, sizes[s]);
            for (int i = 0; i < untimed + iterations; i++) {
                final long seq = ++sequence;
                if (isClient()) {
                    final long t0 = System.nanoTime();
                    client.run(s, seq);
                    final long t1 = System.nanoTime();
                    if (i >= untimed) {
                        samples[i - untimed] = (t1 - t0) / 2.0;
                    }
                } else {
                    server.run(s, seq);
                }
            }
            if (isClient()) {
                SampleFile.append(out, row, sizes[s], samples, iterations);
            }
        }
    }

    /** One call (a bandwidth row's finishing flush). */
    @FunctionalInterface
    interface Call {
        void run() throws Exception;
    }

    /**
     * A batch of {@code calls} calls of a single-operation row. Each row writes its own loop: a loop
     * here over a shared {@code Runnable}-like call would be one call site for every row, megamorphic
     * after three rows, and its calls would not be inlined (nor their temporary objects removed), as
     * they are at an application's monomorphic call site.
     */
    @FunctionalInterface
    interface Batch {
        void run(int calls) throws Exception;
    }

    /**
     * Rank 0 times {@link #iterations} batches of {@link #OP_BATCH} calls (after {@link #warmup}
     * batches) and records the time per call; rank 1 waits in the job's barrier, unless
     * {@code bothRanks}, when it makes the same calls (barrier row).
     */
    void singleOp(final String row, final Batch batch, final boolean bothRanks) throws Exception {
        if (!selected(OPS_ROWS_PROPERTY, row)) {
            return;
        }
        if (isClient() || bothRanks) {
            for (int i = 0; i < warmup; i++) {
                batch.run(OP_BATCH);
            }
            for (int i = 0; i < iterations; i++) {
                final long t0 = System.nanoTime();
                batch.run(OP_BATCH);
                samples[i] = (System.nanoTime() - t0) / (double)OP_BATCH;
            }
        }
        job.barrier();
        if (isClient()) {
            SampleFile.append(out, row, Long.BYTES, samples, iterations);
        }
    }

    /** One transfer of a bandwidth row; {@link #bandwidth} calls {@code finish} after each batch. */
    @FunctionalInterface
    interface Transfer {
        void run(int sizeIndex) throws Exception;
    }

    /**
     * Rank 0 times {@link #bwSamples} batches of transfers of each size (a batch moves about
     * {@link #BW_BATCH_BYTES}, at least one transfer) and records the time per transfer; a batch ends
     * with {@code finish}. Rank 1 waits in the job's barrier.
     */
    void bandwidth(final String row, final Transfer transfer, final Call finish) throws Exception {
        if (isClient()) {
            for (int s = 0; s < sizes.length; s++) {
                final long batch = batch(sizes[s]);
                for (int w = 0; w < BW_WARMUP_BATCHES; w++) {
                    for (long k = 0; k < batch; k++) {
                        transfer.run(s);
                    }
                    finish.run();
                }
                for (int i = 0; i < bwSamples; i++) {
                    final long t0 = System.nanoTime();
                    for (long k = 0; k < batch; k++) {
                        transfer.run(s);
                    }
                    finish.run();
                    samples[i] = (System.nanoTime() - t0) / (double)batch;
                }
                SampleFile.append(out, row, sizes[s], samples, bwSamples);
            }
        }
        job.barrier();
    }

    /**
     * @return the untimed round trips before a size's timed ones: {@code warmup}, but moving at most
     *         {@link #WARMUP_BYTES} (and at least 10), as in the C peers.
     */
    static int warmupFor(final int warmup, final long sizeBytes) {
        return (int)Math.max(Math.min(10, warmup), Math.min(warmup, WARMUP_BYTES / Math.max(1, sizeBytes)));
    }

    static long batch(final long sizeBytes) {
        return Math.max(1, BW_BATCH_BYTES / sizeBytes);
    }

    /** Spins until the long at {@code offset} of {@code segment} equals {@code value} (acquire loads). */
    static void awaitLong(final MemorySegment segment, final long offset, final long value) {
        while ((long)LONG.getAcquire(segment, offset) != value) {
            Thread.onSpinWait();
        }
    }
}
