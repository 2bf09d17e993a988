package org.rma4j.bench.harness;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.rma4j.RmaJob;
import org.rma4j.examples.notified.PipelinedStencil;
import org.rma4j.examples.notified.Sync;
import org.rma4j.examples.notified.TileCholesky;
import org.rma4j.examples.notified.TreeReduction;

/**
 * The applications of the Notified Access paper (Belli and Hoefler, IPDPS 2015, section VI) as the
 * harness times them: each calls the public {@code run} method of its program in
 * {@code org.rma4j.examples.notified} and turns rank 0's result into one {@link Sample}.
 *
 * <p>Each application has one size parameter and one work parameter:
 * <ul>
 *   <li>{@code stencil}: size = side m of the m x m grid, work = timed passes; throughput in GMOPS
 *   (PRK's 2 (m - 1) (n - 1) point updates per pass, per second, in billions); time per pass.</li>
 *   <li>{@code tree-reduction}: size = vector length in longs, work = timed rounds; throughput in
 *   reductions per second at the median round time; time per reduction (median round).</li>
 *   <li>{@code cholesky}: size = tiles per side T, work = tile side b; throughput in GFLOP/s (N^3 / 3
 *   operations for N = T b); time per factorization.</li>
 * </ul>
 */
public enum Application {
    STENCIL("stencil", "Pipelined stencil (PRK Sync_p2p)", "GMOPS", "pass", "grid side m (m x m grid)",
        PipelinedStencil.VARIANTS), TREE_REDUCTION("tree-reduction", "16-ary tree reduction", "reductions/s",
            "reduction", "vector length (longs)", TreeReduction.VARIANTS), CHOLESKY("cholesky", "Tile Cholesky",
                "GFLOP/s", "factorization", "matrix order N", TileCholesky.VARIANTS);

    /** What rank 0 measured in one run of one variant. */
    public record Sample(long timeNs, double throughput, boolean verified) {
    }

    /** The id on the command line, in the JSON and in file names. */
    public final String id;
    /** The title in the report. */
    public final String title;
    /** Unit of the throughput. */
    public final String unit;
    /** What one timed unit of work is (the time column is per this). */
    public final String timeUnit;
    /** Title of the plots' x axis. */
    public final String xAxis;
    /** The variants the program implements, in the order it runs them. */
    public final List<Sync> variants;

    Application(final String id, final String title, final String unit, final String timeUnit, final String xAxis,
        final List<Sync> variants) {
        this.id = id;
        this.title = title;
        this.unit = unit;
        this.timeUnit = timeUnit;
        this.xAxis = xAxis;
        this.variants = variants;
    }

    /**
     * @throws IllegalArgumentException for an unknown id.
     */
    public static Application of(final String id) {
        return Arrays.stream(values()).filter(a -> a.id.equals(id)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("unknown application " + id + "; known: "
                + Arrays.toString(Arrays.stream(values()).map(a -> a.id).toArray())));
    }

    /**
     * @return the variant of this application named {@code label}.
     * @throws IllegalArgumentException if the program does not implement it.
     */
    public Sync variant(final String label) {
        return Sync.select(label, variants).getFirst();
    }

    /**
     * Checks a size before any process starts, with the same limits the program applies.
     *
     * @throws IllegalArgumentException naming the offending values.
     */
    public void check(final int size, final int work, final int ranks) {
        if (size < 1 || work < 1 || ranks < 1) {
            throw new IllegalArgumentException(
                id + ": size=" + size + ", work=" + work + " and ranks=" + ranks + " must be >= 1");
        }
        switch (this) {
            case STENCIL -> {
                if (size - 1 < ranks || size < 2) {
                    throw new IllegalArgumentException(
                        "stencil: grid side " + size + " needs m - 1 >= ranks = " + ranks);
                }
            }
            case CHOLESKY -> {
                if ((long)size * work > 4096) {
                    throw new IllegalArgumentException("cholesky: N = " + size + " x " + work + " exceeds 4096");
                }
            }
            case TREE_REDUCTION -> {
            }
        }
    }

    /**
     * Collective: runs the program once as the calling rank of {@code job}.
     *
     * @return at rank 0 what it measured; at the other ranks a sample of zeros.
     */
    public Sample run(final RmaJob job, final Sync sync, final int size, final int work) {
        final boolean root = job.rank() == 0;
        return switch (this) {
            case STENCIL -> {
                final PipelinedStencil.Result r = PipelinedStencil.run(job, sync, size, size, work);
                yield root
                    ? new Sample(r.elapsedNanos() / work, PipelinedStencil.gmops(size, size, work, r.elapsedNanos()),
                        PipelinedStencil.verified(r.corner(), size, size, work))
                    : new Sample(0, 0, true);
            }
            case TREE_REDUCTION -> {
                final TreeReduction.Result r = TreeReduction.run(job, sync, size, work);
                yield root
                    ? new Sample(r.medianNanos(), 1e9 / Math.max(1, r.medianNanos()), r.wrongRounds() == 0)
                    : new Sample(0, 0, true);
            }
            case CHOLESKY -> {
                final TileCholesky.Result r = TileCholesky.run(job, sync, size, work);
                yield root
                    ? new Sample(r.elapsedNanos(), TileCholesky.gflops(size, work, r.elapsedNanos()),
                        TileCholesky.verified(r.residual()))
                    : new Sample(0, 0, true);
            }
        };
    }

    /**
     * @return the problem size as the report shows it, e.g. {@code 1000x1000}, {@code 8 longs},
     *         {@code 8x8 tiles of 32 (N=256)}.
     */
    public String sizeLabel(final int size, final int work) {
        return switch (this) {
            case STENCIL -> size + "x" + size;
            case TREE_REDUCTION -> size + (size == 1 ? " long" : " longs");
            case CHOLESKY -> String.format(Locale.ROOT, "%dx%d tiles of %d (N=%d)", size, size, work, size * work);
        };
    }

    /**
     * @return the x coordinate of a measurement in the plots: grid side, vector length, matrix order.
     */
    public double plotX(final int size, final int work) {
        return this == CHOLESKY ? (double)size * work : size;
    }

    /**
     * @return the work parameter as the report shows it, e.g. {@code 5 timed passes}.
     */
    public String workLabel(final int work) {
        return switch (this) {
            case STENCIL -> work + " timed passes";
            case TREE_REDUCTION -> work + " timed rounds";
            case CHOLESKY -> "tiles of " + work + "x" + work;
        };
    }
}
