package org.rma4j.examples.notified;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Locale;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;

/**
 * The task-based Cholesky factorization of Belli and Hoefler, "Notified Access" (IPDPS 2015), section
 * VI-C: A = L L^T for an SPD matrix of T x T tiles of b x b doubles, computed as a DAG of POTRF, TRSM,
 * SYRK and GEMM tile tasks distributed over the ranks by tile column ({@link CholeskyEngine}). Panel
 * tiles flow from the rank that computes them to the ranks whose tasks need them, and a consumer
 * cannot know which tile comes next: the program is about telling it.
 *
 * <h2>Variants</h2>
 * ({@link TileTransport})
 * <ul>
 *   <li>{@code notified}: a notified put of the tile into its slot, with a tag that names the tile and
 *   its step ({@link CholeskyLayout#tag}); the consumer waits with one request (ANY_SOURCE, ANY_TAG,
 *   count 1) and reads the tag from the status.</li>
 *   <li>{@code putflush}: the paper's one-sided version: put the tile, claim a ring entry at the
 *   consumer with fetch_and_op, flush, write the tile's name into the entry; the consumer polls.</li>
 *   <li>{@code sendrecv}: a send with the tile's tag; the consumer receives from ANY_SOURCE with
 *   ANY_TAG and reads the tag from the status.</li>
 * </ul>
 * The paper sends tiles along a binary-tree broadcast; here the producer sends each tile straight to
 * every consumer, which for the few ranks of one machine is at most P - 1 sends.
 *
 * <h2>Verification</h2>
 * A = M M^T + N I ({@link SpdMatrix}), generated tile by tile at each owner. After the factorization
 * every rank stores its tiles of L in its window and rank 0 gathers them with gets in a fence epoch,
 * then checks ||L L^T - A||_F / ||A||_F below {@link #TOLERANCE}.
 *
 * <h2>Running</h2>
 * <pre>
 * bin/rmarun -n 4 -cp examples/target/rma4j-examples.jar \
 *     org.rma4j.examples.notified.TileCholesky [variant|all] [tiles tileSize]
 * </pre>
 * Defaults: all variants, {@value #DEFAULT_TILES} x {@value #DEFAULT_TILES} tiles of
 * {@value #DEFAULT_TILE_SIZE} x {@value #DEFAULT_TILE_SIZE} (8 KiB tiles, the paper's transfer size).
 * Rank 0 prints one line per variant, e.g.
 * {@code cholesky notified: 8x8 tiles of 32x32 (N=256), 4 ranks, 12.3 ms, 0.45 GFLOPS, residual 3.1e-17: VERIFIED};
 * exit status 1 if a residual is too large, 2 for bad arguments. The time is the factorization's,
 * between two barriers, after {@link #warmUp} has compiled the tile kernels; GFLOPS counts N^3 / 3
 * operations.
 */
public final class TileCholesky {
    /** Default tiles per side (T). */
    public static final int DEFAULT_TILES = 8;
    /** Default tile side (b). */
    public static final int DEFAULT_TILE_SIZE = 32;
    /** Largest accepted ||L L^T - A||_F / ||A||_F. */
    public static final double TOLERANCE = 1e-10;
    /** The variants, in the order {@code all} runs them. */
    public static final List<Sync> VARIANTS = List.of(Sync.NOTIFIED, Sync.PUT_FLUSH, Sync.SEND_RECV);

    private static final String PROGRAM = "TileCholesky";
    /** Tiles per side of the warm-up matrix. */
    private static final int WARM_UP_TILES = 4;
    /** Warm-up factorizations. */
    private static final int WARM_UP_RUNS = 2;

    private TileCholesky() {
    }

    /**
     * The outcome of {@link #run} at one rank.
     *
     * @param factor        at rank 0 the gathered L (N x N, row by row, zero above the diagonal); null
     *                      at the other ranks.
     * @param residual      at rank 0 ||L L^T - A||_F / ||A||_F; NaN at the other ranks.
     * @param tilesReceived the panel tiles this rank received.
     * @param elapsedNanos  this rank's time for the factorization, between two barriers.
     */
    public record Result(double[] factor, double residual, long tilesReceived, long elapsedNanos) {
    }

    /**
     * Factorizes the test matrix of T x T tiles of b x b as the calling rank of {@code job}, gathers L
     * at rank 0 and checks it there. Collective: every rank calls it with the same arguments.
     *
     * @throws IllegalArgumentException if tiles or tileSize is below 1 (at every rank, before any
     *                                  collective call).
     */
    public static Result run(final RmaJob job, final Sync sync, final int tiles, final int tileSize) {
        check(tiles, tileSize);
        final CholeskyLayout layout = new CholeskyLayout(tiles, tileSize);
        final SpdMatrix matrix = new SpdMatrix(tiles * tileSize);
        final CholeskyEngine engine = new CholeskyEngine(job.rank(), job.size(), tiles, tileSize, matrix);
        final Window window = job.allocate(layout.windowBytes(), CholeskyLayout.DISP_UNIT);
        warmUp(tileSize);
        final long elapsedNanos;
        try (TileTransport transport = open(sync, job, window, layout)) {
            job.barrier();
            final long start = System.nanoTime();
            engine.factorize(transport);
            job.barrier();
            elapsedNanos = System.nanoTime() - start;
        }
        final double[] factor = gather(job, window, layout, engine, tiles, tileSize);
        window.free();
        final double residual = factor == null ? Double.NaN : matrix.relativeResidual(factor);
        return new Result(factor, residual, engine.tilesReceived(), elapsedNanos);
    }

    /**
     * Factorizes a small matrix of tiles of {@code tileSize} alone, twice, so that the timed run does
     * not include the JIT compilation of the tile kernels. Not collective; no communication.
     */
    static void warmUp(final int tileSize) {
        for (int repeat = 0; repeat < WARM_UP_RUNS; repeat++) {
            new CholeskyEngine(0, 1, WARM_UP_TILES, tileSize, new SpdMatrix(WARM_UP_TILES * tileSize)).factorize(null);
        }
    }

    /**
     * Collective: the transport of {@code sync} over the tile window.
     */
    static TileTransport open(final Sync sync, final RmaJob job, final Window window, final CholeskyLayout layout) {
        return sync == Sync.SEND_RECV ? new TileSendRecv(job, layout) : TileTransports.open(sync, window, layout);
    }

    /**
     * Collective: every rank stores its tiles of L in its window; rank 0 gets them all in a fence epoch.
     *
     * @return at rank 0 L, N x N row by row; null elsewhere.
     */
    static double[] gather(final RmaJob job, final Window window, final CholeskyLayout layout,
        final CholeskyEngine engine, final int tiles, final int tileSize) {
        final MemorySegment mine = window.segment();
        for (int j = 0; j < tiles; j++) {
            for (int i = j; i < tiles; i++) {
                final double[] tile = engine.ownedTile(i, j);
                if (tile != null) {
                    MemorySegment.copy(tile, 0, mine, JAVA_DOUBLE, layout.tileOffset(i, j), tile.length);
                }
            }
        }
        // The fence orders the local stores above before rank 0's gets.
        window.fence(Rma.MODE_NOPRECEDE);
        double[] factor = null;
        if (job.rank() == 0) {
            final int order = tiles * tileSize;
            factor = new double[order * order];
            final double[] tile = new double[tileSize * tileSize];
            for (int j = 0; j < tiles; j++) {
                for (int i = j; i < tiles; i++) {
                    window.get(tile, 0, tile.length, CholeskyEngine.owner(j, job.size()), layout.tileOffset(i, j));
                    for (int r = 0; r < tileSize; r++) {
                        final int to = (i * tileSize + r) * order + j * tileSize;
                        System.arraycopy(tile, r * tileSize, factor, to, tileSize);
                    }
                }
            }
        }
        window.fence(Rma.MODE_NOSUCCEED);
        return factor;
    }

    /**
     * @return whether a residual passes ({@code <} {@link #TOLERANCE}; NaN fails).
     */
    public static boolean verified(final double residual) {
        return residual < TOLERANCE;
    }

    /**
     * @return billions of floating-point operations per second of a factorization of T x T tiles of b x b
     *         that took {@code elapsedNanos}, counting N^3 / 3 operations for N = T b.
     */
    public static double gflops(final int tiles, final int tileSize, final long elapsedNanos) {
        final double order = (double)tiles * tileSize;
        return order * order * order / 3 / Math.max(1, elapsedNanos);
    }

    /**
     * @return the line rank 0 prints for one variant.
     */
    static String summary(final Sync sync, final int tiles, final int tileSize, final int ranks, final Result result) {
        return String.format(Locale.ROOT,
            "cholesky %s: %dx%d tiles of %dx%d (N=%d), %d %s, %.1f ms, %.2f GFLOPS, " + "residual %.1e: %s",
            sync.label(), tiles, tiles, tileSize, tileSize, tiles * tileSize, ranks, ranks == 1 ? "rank" : "ranks",
            result.elapsedNanos() / 1e6, gflops(tiles, tileSize, result.elapsedNanos()), result.residual(),
            verified(result.residual()) ? "VERIFIED" : "FAILED");
    }

    private static void check(final int tiles, final int tileSize) {
        if (tiles < 1) {
            throw new IllegalArgumentException("tiles=" + tiles + " must be >= 1");
        }
        if (tileSize < 1) {
            throw new IllegalArgumentException("tileSize=" + tileSize + " must be >= 1");
        }
        if ((long)tiles * tileSize > 4096) {
            throw new IllegalArgumentException("N = tiles x tileSize = " + (long)tiles * tileSize
                + " exceeds 4096 (every rank holds the N x N generator matrix)");
        }
    }

    /**
     * Runs the selected variants and prints one line per variant at rank 0.
     *
     * @param args {@code [variant|all] [tiles tileSize]}.
     */
    public static void main(final String[] args) {
        Programs.main(PROGRAM, "[" + Sync.ALL + "|" + Sync.labels(VARIANTS) + "] [tiles tileSize]  (defaults "
            + Sync.ALL + " " + DEFAULT_TILES + " " + DEFAULT_TILE_SIZE + ")", args, (arguments, ranks) -> {
                Programs.checkArgumentCount(arguments, 3);
                final List<Sync> variants = Sync.select(arguments.length > 0 ? arguments[0] : Sync.ALL, VARIANTS);
                final int tiles = Programs.intArgument(arguments, 1, "tiles", DEFAULT_TILES, 1);
                final int tileSize = Programs.intArgument(arguments, 2, "tileSize", DEFAULT_TILE_SIZE, 1);
                check(tiles, tileSize);
                return job -> {
                    boolean passed = true;
                    for (final Sync sync : variants) {
                        final Result result = run(job, sync, tiles, tileSize);
                        if (job.rank() == 0) {
                            System.out.println(summary(sync, tiles, tileSize, job.size(), result));
                            passed &= verified(result.residual());
                        }
                    }
                    return passed;
                };
            });
    }
}
