package org.rma4j.examples.stencil;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;

import java.lang.foreign.MemorySegment;
import org.rma4j.Datatype;
import org.rma4j.Rma;
import org.rma4j.Window;

/**
 * One rank's part of the grid and its place in the rank's window: a strip of whole rows
 * ({@link Axis#ROWS}) or of whole columns ({@link Axis#COLUMNS}), with one halo line on each side
 * that holds a copy of the neighbour's edge line, and the operations of the stencil on it.
 *
 * <h2>Window layout</h2>
 * The window has displacement unit 8, so displacements count doubles. It holds two buffers; buffer
 * {@code b} (0 or 1) is a block of {@code height} rows of {@code width} doubles, stored row after row,
 * and local point (row, column) of buffer b is at displacement {@code (b * height + row) * width + column}.
 * With {@code L} the number of owned lines ({@link Strip#lines()}):
 * <pre>
 *   ROWS: height = L + 2, width = nx              COLUMNS: height = ny, width = L + 2
 *
 *   local row                                       local column
 *   0       top halo: last row of rank - 1          0       left halo: last column of rank - 1
 *   1..L    owned rows first .. first+L-1           1..L    owned columns first .. first+L-1
 *   L+1     bottom halo: first row of rank + 1      L+1     right halo: first column of rank + 1
 *           (all nx columns are owned)                      (all ny rows are owned)
 * </pre>
 * An owned point is written only by its rank's local stores; a halo line only by the neighbour's
 * put of its edge line into the same buffer, which a {@link HaloExchange} makes visible before the
 * halo is read. The low neighbour of the first rank and the high neighbour of the last are
 * {@link Rma#PROC_NULL}, so their puts do nothing and their halos keep what they were never given
 * (they are never read: they lie outside the grid). A row halo is one contiguous run of {@code nx}
 * doubles; a column halo is strided, described by {@link Datatype#vector} with the stride of the
 * window it lies in, so the origin and target types of a column put differ in stride when the two
 * strips differ in width.
 *
 * <p>Immutable; one per rank and run.
 */
final class StripLayout {
    /** Two buffers: iteration k reads buffer k % 2 and writes the other. */
    static final int BUFFERS = 2;
    /** One halo line on each side of the owned lines. */
    static final int HALO_LINES = 2;

    /** Which way the grid is cut into strips. */
    enum Axis {
        /** Horizontal strips: each rank owns consecutive whole rows. */
        ROWS("ny", "rows"),
        /** Vertical strips: each rank owns consecutive whole columns. */
        COLUMNS("nx", "columns");

        private final String side;
        private final String lines;

        Axis(final String side, final String lines) {
            this.side = side;
            this.lines = lines;
        }

        /**
         * @return the number of lines the grid has along this axis: ny rows or nx columns.
         */
        int lines(final int nx, final int ny) {
            return this == ROWS ? ny : nx;
        }

        /**
         * @throws IllegalArgumentException if the grid has fewer lines along this axis than there are
         *                                  ranks, so that some rank would own nothing.
         */
        void checkSplit(final int nx, final int ny, final int ranks) {
            final int total = lines(nx, ny);
            if (total < ranks) {
                throw new IllegalArgumentException(
                    side + "=" + total + " " + lines + " cannot be split among " + ranks + " ranks");
            }
        }
    }

    private final Axis axis;
    private final int nx;
    private final int ny;
    private final int ranks;
    private final Strip strip;
    private final int height;
    private final int width;
    private final int low;
    private final int high;
    /** The type of one halo line in this rank's window; null for rows (contiguous). */
    private final Datatype lineType;

    private StripLayout(final Axis axis, final int nx, final int ny, final int rank, final int ranks) {
        this.axis = axis;
        this.nx = nx;
        this.ny = ny;
        this.ranks = ranks;
        this.strip = Strip.of(rank, ranks, axis.lines(nx, ny));
        this.height = axis == Axis.ROWS ? strip.lines() + HALO_LINES : ny;
        this.width = axis == Axis.ROWS ? nx : strip.lines() + HALO_LINES;
        this.low = rank == 0 ? Rma.PROC_NULL : rank - 1;
        this.high = rank == ranks - 1 ? Rma.PROC_NULL : rank + 1;
        this.lineType = axis == Axis.ROWS ? null : Datatype.vector(ny, 1, width, Datatype.DOUBLE);
    }

    /**
     * @return the layout of {@code rank}'s strip of an {@code nx} x {@code ny} grid split among
     *         {@code ranks} ranks along {@code axis}.
     * @throws IllegalArgumentException if the grid is unusable or has fewer lines than ranks.
     */
    static StripLayout of(final Axis axis, final int rank, final int ranks, final int nx, final int ny) {
        Jacobi.checkProblem(nx, ny, 0);
        axis.checkSplit(nx, ny, ranks);
        if (rank < 0 || rank >= ranks) {
            throw new IllegalArgumentException("rank " + rank + " is outside 0.." + (ranks - 1));
        }
        return new StripLayout(axis, nx, ny, rank, ranks);
    }

    Axis axis() {
        return axis;
    }

    Strip strip() {
        return strip;
    }

    /**
     * @return rows of one buffer, halo rows included.
     */
    int height() {
        return height;
    }

    /**
     * @return doubles of one row of a buffer, halo columns included.
     */
    int width() {
        return width;
    }

    /**
     * @return the rank owning the lines before this strip, or {@link Rma#PROC_NULL}.
     */
    int low() {
        return low;
    }

    /**
     * @return the rank owning the lines after this strip, or {@link Rma#PROC_NULL}.
     */
    int high() {
        return high;
    }

    /**
     * @return the bytes of one buffer.
     */
    long bufferBytes() {
        return (long)height * width * Double.BYTES;
    }

    /**
     * @return the bytes of this rank's part of the window: both buffers.
     */
    long windowBytes() {
        return BUFFERS * bufferBytes();
    }

    /**
     * @return the displacement, in doubles, of local point (row, column) of {@code buffer}.
     */
    long disp(final int buffer, final int row, final int column) {
        return ((long)buffer * height + row) * width + column;
    }

    /**
     * @return {@code buffer} of this rank's window as a segment of {@link #bufferBytes()} bytes.
     */
    MemorySegment buffer(final Window window, final int buffer) {
        return window.segment().asSlice(buffer * bufferBytes(), bufferBytes());
    }

    /**
     * Stores the initial value of every owned point into {@code buffer} (one buffer of this layout).
     * Border points are never rewritten by {@link #relax}, so both buffers must be initialized.
     */
    void initialize(final MemorySegment buffer) {
        for (int row = firstOwnedRow(); row < endOwnedRow(); row++) {
            for (int column = firstOwnedColumn(); column < endOwnedColumn(); column++) {
                buffer.set(JAVA_DOUBLE, disp(0, row, column) * Double.BYTES,
                    Jacobi.initialValue(globalX(column), globalY(row), nx, ny));
            }
        }
    }

    /**
     * One Jacobi iteration on the owned interior points: reads {@code src} (its halos included) and
     * writes {@code dst}, both buffers of this layout.
     */
    void relax(final MemorySegment src, final MemorySegment dst) {
        // Owned columns that are interior columns of the grid (global x = 1 .. nx-2).
        final int xOffset = globalX(0);
        final int from = Math.max(firstOwnedColumn(), 1 - xOffset);
        final int to = Math.min(endOwnedColumn(), nx - 1 - xOffset);
        for (int row = firstOwnedRow(); row < endOwnedRow(); row++) {
            if (Jacobi.isInteriorRow(globalY(row), ny)) {
                Jacobi.relaxRow(src, dst, row, width, from, to);
            }
        }
    }

    /**
     * Puts this rank's first owned line of {@code buffer} into the high halo of the same buffer at the
     * low neighbour (nothing at the first rank).
     */
    void putToLow(final Window window, final int buffer) {
        final StripLayout target = low == Rma.PROC_NULL ? this : neighbour(low);
        putLine(window, firstLineDisp(buffer), low, target, target.highHaloDisp(buffer));
    }

    /**
     * Puts this rank's last owned line of {@code buffer} into the low halo of the same buffer at the
     * high neighbour (nothing at the last rank).
     */
    void putToHigh(final Window window, final int buffer) {
        final StripLayout target = high == Rma.PROC_NULL ? this : neighbour(high);
        putLine(window, lastLineDisp(buffer), high, target, target.lowHaloDisp(buffer));
    }

    /**
     * Reads the owned points of {@code buffer} of every rank's window into a grid: the gather at rank
     * 0, inside an access epoch to every rank.
     *
     * @return the grid, row y at {@code [y * nx, (y + 1) * nx)}.
     */
    double[] gather(final Window window, final int buffer) {
        final double[] grid = new double[nx * ny];
        for (int rank = 0; rank < ranks; rank++) {
            final StripLayout part = neighbour(rank);
            final Strip owned = part.strip();
            if (axis == Axis.ROWS) {
                window.get(grid, owned.first() * nx, owned.lines() * nx, rank, part.disp(buffer, 1, 0));
            } else {
                // The owned columns of every row: a block of lines doubles per row on both sides,
                // with the stride of the grid here and of the rank's buffer there.
                window.get(MemorySegment.ofArray(grid).asSlice((long)owned.first() * Double.BYTES), 1,
                    Datatype.vector(ny, owned.lines(), nx, Datatype.DOUBLE), rank, part.disp(buffer, 0, 1), 1,
                    Datatype.vector(ny, owned.lines(), part.width(), Datatype.DOUBLE));
            }
        }
        return grid;
    }

    /**
     * @return the displacement of the low halo line of {@code buffer} (local row 0 or column 0).
     */
    long lowHaloDisp(final int buffer) {
        return disp(buffer, 0, 0);
    }

    /**
     * @return the displacement of the high halo line of {@code buffer} (local row or column L + 1).
     */
    long highHaloDisp(final int buffer) {
        return axis == Axis.ROWS ? disp(buffer, strip.lines() + 1, 0) : disp(buffer, 0, strip.lines() + 1);
    }

    private long firstLineDisp(final int buffer) {
        return axis == Axis.ROWS ? disp(buffer, 1, 0) : disp(buffer, 0, 1);
    }

    private long lastLineDisp(final int buffer) {
        return axis == Axis.ROWS ? disp(buffer, strip.lines(), 0) : disp(buffer, 0, strip.lines());
    }

    private void putLine(final Window window, final long fromDisp, final int target, final StripLayout targetLayout,
        final long targetDisp) {
        final MemorySegment from = window.segment().asSlice(fromDisp * Double.BYTES);
        if (axis == Axis.ROWS) {
            window.put(from.asSlice(0, (long)nx * Double.BYTES), target, targetDisp);
        } else {
            window.put(from, 1, lineType, target, targetDisp, 1, targetLayout.lineType);
        }
    }

    private StripLayout neighbour(final int rank) {
        return new StripLayout(axis, nx, ny, rank, ranks);
    }

    private int firstOwnedRow() {
        return axis == Axis.ROWS ? 1 : 0;
    }

    private int endOwnedRow() {
        return axis == Axis.ROWS ? strip.lines() + 1 : ny;
    }

    private int firstOwnedColumn() {
        return axis == Axis.ROWS ? 0 : 1;
    }

    private int endOwnedColumn() {
        return axis == Axis.ROWS ? nx : strip.lines() + 1;
    }

    private int globalY(final int row) {
        return axis == Axis.ROWS ? strip.first() + row - 1 : row;
    }

    private int globalX(final int column) {
        return axis == Axis.ROWS ? column : strip.first() + column - 1;
    }
}
