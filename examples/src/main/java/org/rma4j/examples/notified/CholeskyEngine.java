package org.rma4j.examples.notified;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * One rank's part of the tile Cholesky task DAG of {@link TileCholesky}, run as a data flow.
 *
 * <h2>Tasks and ownership</h2>
 * Tile column j belongs to rank j mod P (1-D cyclic). For each step k the tasks are POTRF(k, k) and
 * TRSM(i, k), i > k, at the owner of column k (they need nothing from other ranks once column k is
 * up to date), and, for every pair k < j <= i, the update of tile (i, j) by panel k: SYRK(j, j) with
 * L(j, k), or GEMM(i, j) with L(i, k) and L(j, k), at the owner of column j. So panel tile L(i, k) is
 * needed by the owners of columns k + 1 .. i, and is published to those of them that are not its
 * producer ({@link #consumers}).
 *
 * <h2>Data flow</h2>
 * <pre>
 *   loop until every owned column is factored:
 *     if the lowest unfactored owned column j has all j updates on each of its tiles:
 *       POTRF(j, j); TRSM(i, j) for i > j; publish each L(i, j); then apply them locally, i ascending
 *     else:
 *       wait for any tile to arrive, learn from its tag which one, apply every update it enables
 * </pre>
 * An update by panel k that needs two panel tiles runs when the later of the two arrives, so every
 * update runs exactly once, in whatever order tiles come; the updates of one tile by different panels
 * commute (up to rounding). Every tile sent to this rank is needed by one of its columns, so all have
 * arrived when the last column is factored.
 *
 * <p>Not thread-safe; one per rank and run.
 */
final class CholeskyEngine {
    private final int rank;
    private final int ranks;
    private final int tiles;
    private final int tileSize;
    private final CholeskyLayout layout;
    /** Tile x of the lower triangle: an owned tile (A, then L), a received panel tile, or null. */
    private final double[][] store;
    /** Per owned tile: the panels whose update has been applied. */
    private final int[] updates;
    /** Per tile: whether the panel tile L(i, k) is here (owned and factored, or received). */
    private final boolean[] present;
    private int nextOwnedColumn;
    private long tilesReceived;

    /**
     * Generates this rank's tiles of {@code matrix}.
     */
    CholeskyEngine(final int rank, final int ranks, final int tiles, final int tileSize, final SpdMatrix matrix) {
        this.rank = rank;
        this.ranks = ranks;
        this.tiles = tiles;
        this.tileSize = tileSize;
        this.layout = new CholeskyLayout(tiles, tileSize);
        final int count = CholeskyLayout.tileIndex(tiles, 0);
        this.store = new double[count][];
        this.updates = new int[count];
        this.present = new boolean[count];
        for (int j = rank; j < tiles; j += ranks) {
            for (int i = j; i < tiles; i++) {
                store[CholeskyLayout.tileIndex(i, j)] = matrix.tile(i, j, tileSize);
            }
        }
        this.nextOwnedColumn = rank;
    }

    /**
     * @return the rank that owns tile column {@code column} in a job of {@code ranks}.
     */
    static int owner(final int column, final int ranks) {
        return column % ranks;
    }

    /**
     * @return the ranks other than the producer that need panel tile L(i, k), i > k: the owners of
     *         columns k + 1 .. i, ascending.
     */
    static int[] consumers(final int i, final int k, final int ranks) {
        final int producer = owner(k, ranks);
        return IntStream.rangeClosed(k + 1, i).map(j -> owner(j, ranks)).distinct().filter(r -> r != producer).sorted()
            .toArray();
    }

    /**
     * Runs this rank's tasks, publishing and receiving panel tiles through {@code transport} (which
     * may be null in a job of one rank: nothing is sent or received there).
     */
    void factorize(final TileTransport transport) {
        while (nextOwnedColumn < tiles) {
            if (columnReady(nextOwnedColumn)) {
                factorColumn(nextOwnedColumn, transport);
                nextOwnedColumn += ranks;
            } else {
                final TileTransport.Arrival arrival = transport.receive();
                final int i = layout.tagRow(arrival.tag());
                final int k = layout.tagColumn(arrival.tag());
                final double[] tile = new double[tileSize * tileSize];
                MemorySegment.copy(arrival.data(), JAVA_DOUBLE, 0, tile, 0, tile.length);
                store[CholeskyLayout.tileIndex(i, k)] = tile;
                tilesReceived++;
                arrived(i, k);
            }
        }
    }

    /**
     * @return the panel tiles this rank received.
     */
    long tilesReceived() {
        return tilesReceived;
    }

    /**
     * @return owned tile (i, j), or null if this rank does not own column j.
     */
    double[] ownedTile(final int i, final int j) {
        return owner(j, ranks) == rank ? store[CholeskyLayout.tileIndex(i, j)] : null;
    }

    private boolean columnReady(final int j) {
        for (int i = j; i < tiles; i++) {
            if (updates[CholeskyLayout.tileIndex(i, j)] < j) {
                return false;
            }
        }
        return true;
    }

    private void factorColumn(final int j, final TileTransport transport) {
        final double[] diagonal = store[CholeskyLayout.tileIndex(j, j)];
        TileKernels.potrf(diagonal, tileSize);
        for (int i = j + 1; i < tiles; i++) {
            TileKernels.trsm(diagonal, store[CholeskyLayout.tileIndex(i, j)], tileSize);
        }
        for (int i = j + 1; i < tiles; i++) {
            final int[] to = consumers(i, j, ranks);
            if (to.length > 0) {
                transport.publish(layout.tag(i, j), store[CholeskyLayout.tileIndex(i, j)], to);
            }
        }
        for (int i = j + 1; i < tiles; i++) {
            arrived(i, j);
        }
    }

    /**
     * Panel tile L(i, k) is here: runs every update of an owned tile that it completes.
     */
    private void arrived(final int i, final int k) {
        present[CholeskyLayout.tileIndex(i, k)] = true;
        final double[] lik = store[CholeskyLayout.tileIndex(i, k)];
        if (owner(i, ranks) == rank) {
            // L(i, k) as the second operand: SYRK of (i, i), GEMMs of (i2, i) whose L(i2, k) is here.
            final int diagonal = CholeskyLayout.tileIndex(i, i);
            TileKernels.syrk(lik, store[diagonal], tileSize);
            updates[diagonal]++;
            for (int i2 = i + 1; i2 < tiles; i2++) {
                if (present[CholeskyLayout.tileIndex(i2, k)]) {
                    gemm(i2, i, k);
                }
            }
        }
        // L(i, k) as the first operand: GEMMs of owned (i, j), k < j < i, whose L(j, k) is here.
        for (int j = k + 1; j < i; j++) {
            if (owner(j, ranks) == rank && present[CholeskyLayout.tileIndex(j, k)]) {
                gemm(i, j, k);
            }
        }
    }

    private void gemm(final int i, final int j, final int k) {
        final int target = CholeskyLayout.tileIndex(i, j);
        TileKernels.gemm(store[CholeskyLayout.tileIndex(i, k)], store[CholeskyLayout.tileIndex(j, k)], store[target],
            tileSize);
        updates[target]++;
    }

    @Override
    public String toString() {
        return "CholeskyEngine{rank=" + rank + "/" + ranks + ", tiles=" + tiles + "x" + tileSize + ", next column "
            + nextOwnedColumn + ", received " + tilesReceived + ", updates " + Arrays.toString(updates) + '}';
    }
}
