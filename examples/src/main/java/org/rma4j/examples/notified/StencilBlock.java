package org.rma4j.examples.notified;

/**
 * One rank's columns of the Sync_p2p grid of the Parallel Research Kernels (Mattson and Van der
 * Wijngaart, github.com/ParRes/Kernels, MPI1/Synch_p2p): columns {@code lo .. hi-1} of an m x n grid,
 * stored row by row with one extra column on the left that holds A(lo-1, j). Boundary values A(i, 0) =
 * i and A(0, j) = j; every other point is A(i, j) = A(i-1, j) + A(i, j-1) - A(i-1, j-1).
 *
 * <p>The computed columns 1 .. m-1 are split evenly over the ranks, and rank 0 also holds the boundary
 * column 0. So A(0, 0), which the corner feedback changes every pass, is only read at rank 0, by
 * A(1, 1): a rank holding column 0 alone would leave A(0, 0) in its right neighbour's halo unchanged.
 *
 * <p>Not thread-safe; one per rank.
 */
final class StencilBlock {
    private final int rows;
    private final int lo;
    private final int hi;
    private final int width;
    private final int firstComputed;
    private final double[] values;

    /**
     * The block of {@code rank}: computed columns {@code 1 + rank (m - 1) / ranks} up to
     * {@code 1 + (rank + 1) (m - 1) / ranks}, and column 0 at rank 0.
     */
    StencilBlock(final int rank, final int ranks, final int columns, final int rows) {
        this.rows = rows;
        this.lo = rank == 0 ? 0 : 1 + (int)((long)rank * (columns - 1) / ranks);
        this.hi = 1 + (int)((long)(rank + 1) * (columns - 1) / ranks);
        this.width = hi - lo + 1;
        // Local column c holds global column lo - 1 + c; global column 0 is boundary, never computed.
        this.firstComputed = lo == 0 ? 2 : 1;
        this.values = new double[width * rows];
        for (int c = 0; c < width; c++) {
            values[c] = lo - 1 + c;
        }
        if (lo == 0) {
            for (int j = 0; j < rows; j++) {
                values[j * width + 1] = j;
            }
        }
    }

    /**
     * @return the first global column of the block.
     */
    int lo() {
        return lo;
    }

    /**
     * @return one past the last global column of the block.
     */
    int hi() {
        return hi;
    }

    /**
     * Stores A(lo-1, row), received from the left neighbour.
     */
    void setLeft(final int row, final double value) {
        values[row * width] = value;
    }

    /**
     * Computes the block's points of {@code row} from left to right.
     *
     * @return A(hi-1, row), the value the right neighbour needs.
     */
    double computeRow(final int row) {
        final int at = row * width;
        final int above = at - width;
        // NOTE: A(i, j-1) and A(i-1, j-1) stay in locals: the chain from one point to the next is the add and the
        // subtract only, not also a load of the value just stored (the same operations in the same order).
        double left = values[at + firstComputed - 1];
        double aboveLeft = values[above + firstComputed - 1];
        for (int c = firstComputed; c < width; c++) {
            final double aboveHere = values[above + c];
            left = left + aboveHere - aboveLeft;
            values[at + c] = left;
            aboveLeft = aboveHere;
        }
        return left;
    }

    /**
     * @return A(hi-1, n-1): at the last rank, the top right corner of the grid.
     */
    double corner() {
        return values[(rows - 1) * width + width - 1];
    }

    /**
     * Sets A(0, 0) (at rank 0): the negated corner of the previous pass, which makes the next pass
     * depend on the whole previous one.
     */
    void setOrigin(final double value) {
        values[1] = value;
    }

    /**
     * @return A(0, 0) (at rank 0).
     */
    double origin() {
        return values[1];
    }
}
