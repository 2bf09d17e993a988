package org.rma4j.examples.notified;

import java.util.List;
import java.util.Locale;
import org.rma4j.RmaJob;

/**
 * The pipelined stencil of Belli and Hoefler, "Notified Access" (IPDPS 2015), section VI-A: the
 * Sync_p2p kernel of the Parallel Research Kernels (Mattson and Van der Wijngaart,
 * github.com/ParRes/Kernels, MPI1/Synch_p2p), which measures point-to-point synchronization.
 *
 * <h2>Kernel</h2>
 * An m x n grid with A(i, 0) = i and A(0, j) = j is swept by A(i, j) = A(i-1, j) + A(i, j-1) -
 * A(i-1, j-1). The m columns are split in blocks over the ranks ({@link StencilBlock}); the n rows are
 * pipelined: rank r waits for A(lo-1, j) from rank r - 1, computes its part of row j, and sends its
 * last value to rank r + 1, so all ranks work at once once the pipeline is full. After each pass the
 * last rank sends -A(m-1, n-1) to rank 0, which makes it A(0, 0): the next pass depends on the whole
 * previous one. The program runs {@code iterations + 1} passes and times the last {@code iterations}
 * at rank 0, from a barrier after the first pass until the last corner arrives (PRK's warm-up
 * convention). The communication of each variant is a {@link PipelineChannel}.
 *
 * <h2>Variants</h2>
 * The paper compares message passing (PRK's MPI1 code), fence and general active target ports, and
 * Notified Access (Figures 1 and 4b); {@code putflush} adds the passive-target protocol of Figure 2c.
 * <ul>
 *   <li>{@code notified}: a notified put of each boundary value with tag = row, matched by a persistent
 *   request per row ({@link PipelineChannels.Notified}).</li>
 *   <li>{@code putflush}: put, flush, flag, flush in one lock_all epoch ({@link PipelineChannels.PutFlush}).</li>
 *   <li>{@code sendrecv}: send and receive with tag = row ({@link PipelineSendRecv}).</li>
 *   <li>{@code pscw}: one exposure epoch per row between neighbours ({@link PipelineChannels.Pscw}).</li>
 *   <li>{@code fence}: the pipeline as a wavefront of n + P - 2 fences per pass
 *   ({@link PipelineChannels.Fence}).</li>
 * </ul>
 *
 * <h2>Verification and rate</h2>
 * PRK's check: after pass k (0-based) the corner A(m-1, n-1) is (k + 1) (m + n - 2), so the final one,
 * which rank 0 holds negated in A(0, 0), must be (iterations + 1) (m + n - 2); any wrong point of the
 * grid shifts every point below and right of it, the corner included. The rate is PRK's
 * {@code 2 (m - 1) (n - 1) / average pass time} (its "MFlops/s", two operations per point), reported
 * in billions per second as GMOPS, the unit of the paper's Figures 1 and 4b.
 *
 * <h2>Running</h2>
 * <pre>
 * bin/rmarun -n 4 -cp examples/target/rma4j-examples.jar \
 *     org.rma4j.examples.notified.PipelinedStencil [variant|all] [m n iterations]
 * </pre>
 * Defaults: all variants, {@value #DEFAULT_COLUMNS} x {@value #DEFAULT_ROWS}, {@value #DEFAULT_ITERATIONS}
 * iterations. Rank 0 prints one line per variant, e.g.
 * <pre>
 * sync-p2p notified: grid 1000x1000, 10 iterations, 4 ranks, 85.2 ms, 0.234 GMOPS,
 *     corner 21978 (expected 21978): VERIFIED                                           (one line)
 * </pre>
 * exit status 1 if a corner is wrong, 2 for bad arguments.
 */
public final class PipelinedStencil {
    /** Default number of columns (m), split over the ranks. */
    public static final int DEFAULT_COLUMNS = 1000;
    /** Default number of rows (n), pipelined. */
    public static final int DEFAULT_ROWS = 1000;
    /** Default number of timed passes. */
    public static final int DEFAULT_ITERATIONS = 10;
    /** PRK's relative tolerance of the corner check. */
    static final double EPSILON = 1e-8;
    /** The variants, in the order {@code all} runs them. */
    public static final List<Sync> VARIANTS = List.of(Sync.NOTIFIED, Sync.PUT_FLUSH, Sync.SEND_RECV, Sync.PSCW,
        Sync.FENCE);

    private static final String PROGRAM = "PipelinedStencil";

    private PipelinedStencil() {
    }

    /**
     * The outcome of {@link #run} at one rank.
     *
     * @param corner       at rank 0 the final A(m-1, n-1) (the negated A(0, 0)); NaN at the other ranks.
     * @param elapsedNanos at rank 0 the time of the timed passes; 0 at the other ranks.
     */
    public record Result(double corner, long elapsedNanos) {
    }

    /**
     * Runs {@code iterations + 1} passes of the kernel as the calling rank of {@code job}. Collective:
     * every rank calls it with the same arguments.
     *
     * @throws IllegalArgumentException if m - 1 &lt; ranks, n &lt; 2 or iterations &lt; 1 (at every rank, before
     *                                  any collective call).
     */
    public static Result run(final RmaJob job, final Sync sync, final int columns, final int rows,
        final int iterations) {
        check(columns, rows, iterations, job.size());
        final int rank = job.rank();
        final int ranks = job.size();
        final StencilBlock block = new StencilBlock(rank, ranks, columns, rows);
        long start = 0;
        long elapsedNanos = 0;
        try (PipelineChannel channel = open(sync, job, rows)) {
            for (int pass = 0; pass <= iterations; pass++) {
                if (pass == 1) {
                    job.barrier();
                    start = System.nanoTime();
                }
                channel.beginPass(pass);
                for (int row = 1; row < rows; row++) {
                    if (rank > 0) {
                        block.setLeft(row, channel.receiveLeft(row));
                    }
                    final double last = block.computeRow(row);
                    if (rank < ranks - 1) {
                        channel.sendRight(row, last);
                    }
                }
                if (ranks == 1) {
                    block.setOrigin(-block.corner());
                } else if (rank == ranks - 1) {
                    channel.sendCorner(-block.corner());
                } else if (rank == 0) {
                    block.setOrigin(channel.receiveCorner());
                }
                channel.endPass();
            }
            if (rank == 0) {
                elapsedNanos = System.nanoTime() - start;
            }
        }
        return new Result(rank == 0 ? -block.origin() : Double.NaN, elapsedNanos);
    }

    /**
     * Collective: the channel of {@code sync}.
     */
    static PipelineChannel open(final Sync sync, final RmaJob job, final int rows) {
        return sync == Sync.SEND_RECV ? new PipelineSendRecv(job) : PipelineChannels.open(sync, job, rows);
    }

    /**
     * @return the corner value after {@code iterations + 1} passes: (iterations + 1) (m + n - 2).
     */
    static double expectedCorner(final int columns, final int rows, final int iterations) {
        return (iterations + 1.0) * (columns + rows - 2);
    }

    /**
     * @return whether {@code corner} passes PRK's check (relative error below {@link #EPSILON}).
     */
    public static boolean verified(final double corner, final int columns, final int rows, final int iterations) {
        final double expected = expectedCorner(columns, rows, iterations);
        return Math.abs(corner - expected) / expected < EPSILON;
    }

    /**
     * @return billions of point updates per second: PRK's rate 2 (m - 1) (n - 1) / (average pass time).
     */
    public static double gmops(final int columns, final int rows, final int iterations, final long elapsedNanos) {
        return 2.0 * (columns - 1) * (rows - 1) * iterations / elapsedNanos;
    }

    /**
     * @return the line rank 0 prints for one variant.
     */
    static String summary(final Sync sync, final int columns, final int rows, final int iterations, final int ranks,
        final Result result) {
        return String.format(Locale.ROOT,
            "sync-p2p %s: grid %dx%d, %d iterations, %d %s, %.1f ms, %.3f GMOPS, corner %.0f (expected %.0f): %s",
            sync.label(), columns, rows, iterations, ranks, ranks == 1 ? "rank" : "ranks", result.elapsedNanos() / 1e6,
            gmops(columns, rows, iterations, result.elapsedNanos()), result.corner(),
            expectedCorner(columns, rows, iterations),
            verified(result.corner(), columns, rows, iterations) ? "VERIFIED" : "FAILED");
    }

    private static void check(final int columns, final int rows, final int iterations, final int ranks) {
        if (columns - 1 < ranks) {
            throw new IllegalArgumentException("m=" + columns + " must exceed the number of ranks " + ranks
                + " (every rank computes at least one column of 1 .. m-1)");
        }
        if (rows < 2) {
            throw new IllegalArgumentException("n=" + rows + " must be >= 2");
        }
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations=" + iterations + " must be >= 1");
        }
    }

    /**
     * Runs the selected variants and prints one line per variant at rank 0.
     *
     * @param args {@code [variant|all] [m n iterations]}.
     */
    public static void main(final String[] args) {
        Programs
            .main(PROGRAM,
                "[" + Sync.ALL + "|" + Sync.labels(VARIANTS) + "] [m n iterations]  (defaults " + Sync.ALL + " "
                    + DEFAULT_COLUMNS + " " + DEFAULT_ROWS + " " + DEFAULT_ITERATIONS + ")",
                args, (arguments, ranks) -> {
                    Programs.checkArgumentCount(arguments, 4);
                    final List<Sync> variants = Sync.select(arguments.length > 0 ? arguments[0] : Sync.ALL, VARIANTS);
                    final int columns = Programs.intArgument(arguments, 1, "m", DEFAULT_COLUMNS, 2);
                    final int rows = Programs.intArgument(arguments, 2, "n", DEFAULT_ROWS, 2);
                    final int iterations = Programs.intArgument(arguments, 3, "iterations", DEFAULT_ITERATIONS, 1);
                    check(columns, rows, iterations, ranks);
                    return job -> {
                        boolean passed = true;
                        for (final Sync sync : variants) {
                            final Result result = run(job, sync, columns, rows, iterations);
                            if (job.rank() == 0) {
                                System.out.println(summary(sync, columns, rows, iterations, job.size(), result));
                                passed &= verified(result.corner(), columns, rows, iterations);
                            }
                        }
                        return passed;
                    };
                });
    }
}
