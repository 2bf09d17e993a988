package org.rma4j.examples.notified;

/**
 * One rank's part of the window of {@link TileCholesky}: displacement unit 1 (byte displacements),
 * for T x T tiles of b x b doubles. Tile (i, j), i >= j, has index i (i + 1) / 2 + j.
 * <pre>
 *   byte offset          field                            written by
 *     0                  COUNTER (long)                   producers: fetch_and_op SUM 1 claims a RING entry
 *     8..255             padding                                    (putflush variant only)
 *   256                  RING[e] (long),                  the producer that claimed e: accumulate REPLACE
 *                        0 <= e < T (T - 1) / 2             of tag + 1 (0: not yet written) (putflush)
 *   TILES = 256 + 8 T (T - 1) / 2, rounded up to 128
 *   TILES + 8 b^2 x      TILE[x] (b^2 doubles), one       the producer of a panel tile this rank needs,
 *                        per tile of the lower triangle     once; this rank's own tiles, after factoring
 * </pre>
 * Publication: a producer puts (or putNotifies) a tile before it announces it: in the putflush variant
 * it flushes the tile, then writes its tag into the ring entry it claimed; this rank reads ring entries
 * in order with fetch_and_op(NO_OP) and then loads the tile. Each tile slot is written once, so a
 * consumer never needs to hand a slot back. A rank receives at most T (T - 1) / 2 tiles, so the ring
 * never wraps. The counter (every producer) sits two cache lines before the ring.
 */
final class CholeskyLayout {
    /** Displacement of the ring counter. */
    static final long COUNTER_OFFSET = 0;
    /** Displacement of ring entry 0. */
    static final long RING_OFFSET = 256;
    /** Displacement unit of the window. */
    static final int DISP_UNIT = 1;

    private final int tiles;
    private final int tileSize;
    private final long tilesOffset;

    /**
     * @param tiles    T, tiles per side.
     * @param tileSize b, rows (and columns) per tile.
     */
    CholeskyLayout(final int tiles, final int tileSize) {
        this.tiles = tiles;
        this.tileSize = tileSize;
        final long ringEnd = RING_OFFSET + (long)Long.BYTES * ringEntries();
        this.tilesOffset = (ringEnd + 127) / 128 * 128;
    }

    /**
     * @return entries of the ring: the panel tiles below the diagonal, T (T - 1) / 2.
     */
    int ringEntries() {
        return tiles * (tiles - 1) / 2;
    }

    /**
     * @return the displacement of ring entry {@code entry}.
     */
    long ringOffset(final int entry) {
        return RING_OFFSET + (long)entry * Long.BYTES;
    }

    /**
     * @return the index of tile (i, j), i >= j, in the lower triangle.
     */
    static int tileIndex(final int i, final int j) {
        return i * (i + 1) / 2 + j;
    }

    /**
     * @return the bytes of one tile.
     */
    long tileBytes() {
        return (long)tileSize * tileSize * Double.BYTES;
    }

    /**
     * @return the displacement of tile (i, j).
     */
    long tileOffset(final int i, final int j) {
        return tilesOffset + tileIndex(i, j) * tileBytes();
    }

    /**
     * @return the bytes of one rank's part.
     */
    long windowBytes() {
        return tilesOffset + (long)tiles * (tiles + 1) / 2 * tileBytes();
    }

    /**
     * @return the tag that names tile (i, k): i T + k (its row and its step, the panel it belongs to).
     */
    int tag(final int i, final int k) {
        return i * tiles + k;
    }

    /**
     * @return the row i of the tile named by {@code tag}.
     */
    int tagRow(final int tag) {
        return tag / tiles;
    }

    /**
     * @return the column (step) k of the tile named by {@code tag}.
     */
    int tagColumn(final int tag) {
        return tag % tiles;
    }
}
