package org.rma4j.examples.stencil;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;

import java.lang.foreign.MemorySegment;

/**
 * The arithmetic of the Jacobi examples, shared by the parallel stencils ({@link JacobiFence},
 * {@link JacobiPscw}, {@link JacobiPassive}, {@link JacobiColumns}) and the sequential reference
 * {@link #sequential}: all run the same {@link #relaxRow} kernel on rows of doubles laid out row after
 * row in a {@link MemorySegment}, so a parallel run and the sequential one add the same numbers in the
 * same order and agree bit for bit.
 *
 * <p>The problem: Laplace's equation on a grid of {@code nx} columns by {@code ny} rows. The border is
 * fixed, {@link #TOP} on the top row (y = 0, corners included) and {@link #EDGE} on the other three
 * edges; the interior starts at {@link #INTERIOR}. One Jacobi iteration replaces every interior point
 * by the average of its four neighbours in the previous iterate.
 */
public final class Jacobi {
    /** Fixed value of the top row (y = 0). */
    public static final double TOP = 1.0;
    /** Fixed value of the left and right columns and of the bottom row. */
    public static final double EDGE = 0.0;
    /** Initial value of interior points. */
    public static final double INTERIOR = 0.0;
    /** Smallest grid side: one interior point needs a border on each side. */
    public static final int MIN_SIDE = 3;

    private static final long DOUBLE = Double.BYTES;

    private Jacobi() {
    }

    /**
     * @return the value of point (x, y) before the first iteration.
     */
    public static double initialValue(final int x, final int y, final int nx, final int ny) {
        if (y == 0) {
            return TOP;
        }
        if (y == ny - 1 || x == 0 || x == nx - 1) {
            return EDGE;
        }
        return INTERIOR;
    }

    /**
     * @return whether row {@code y} is updated by the iteration (it is not a border row).
     */
    public static boolean isInteriorRow(final int y, final int ny) {
        return y > 0 && y < ny - 1;
    }

    /**
     * Stores the initial values of grid row {@code y} into row {@code row} of {@code grid}.
     */
    public static void initializeRow(final MemorySegment grid, final long row, final int y, final int nx,
        final int ny) {
        final long base = row * nx * DOUBLE;
        for (int x = 0; x < nx; x++) {
            grid.set(JAVA_DOUBLE, base + x * DOUBLE, initialValue(x, y, nx, ny));
        }
    }

    /**
     * The kernel: computes the interior points (x = 1 .. nx-2) of row {@code row} of {@code dst} from
     * rows {@code row - 1}, {@code row}, {@code row + 1} of {@code src}. Both segments hold rows of
     * {@code nx} doubles; the border columns of {@code dst} are left as they are.
     */
    public static void relaxRow(final MemorySegment src, final MemorySegment dst, final long row, final int nx) {
        relaxRow(src, dst, row, nx, 1, nx - 1);
    }

    /**
     * The kernel on part of a row: computes points {@code fromX .. toX - 1} of row {@code row} of
     * {@code dst} from rows {@code row - 1}, {@code row}, {@code row + 1} of {@code src}, where both
     * segments hold rows of {@code rowLength} doubles. The caller keeps the range one point inside the
     * row ({@code 1 <= fromX}, {@code toX <= rowLength - 1}); an empty range computes nothing. Each point
     * is computed exactly as by {@link #relaxRow(MemorySegment, MemorySegment, long, int)}, so a block
     * of columns agrees bit for bit with the whole row.
     */
    public static void relaxRow(final MemorySegment src, final MemorySegment dst, final long row, final int rowLength,
        final int fromX, final int toX) {
        final long stride = rowLength * DOUBLE;
        final long base = row * stride;
        for (int x = fromX; x < toX; x++) {
            final long at = base + x * DOUBLE;
            final double up = src.get(JAVA_DOUBLE, at - stride);
            final double down = src.get(JAVA_DOUBLE, at + stride);
            final double left = src.get(JAVA_DOUBLE, at - DOUBLE);
            final double right = src.get(JAVA_DOUBLE, at + DOUBLE);
            dst.set(JAVA_DOUBLE, at, 0.25 * (up + down + left + right));
        }
    }

    /**
     * The sequential reference: {@code iterations} Jacobi iterations on the whole grid in one thread.
     *
     * @return the grid, row y at {@code [y * nx, (y + 1) * nx)}.
     * @throws IllegalArgumentException if a side is below {@link #MIN_SIDE}, the grid does not fit an
     *                                  array, or iterations is negative.
     */
    public static double[] sequential(final int nx, final int ny, final int iterations) {
        checkProblem(nx, ny, iterations);
        double[] current = new double[nx * ny];
        double[] next = new double[nx * ny];
        for (int y = 0; y < ny; y++) {
            initializeRow(MemorySegment.ofArray(current), y, y, nx, ny);
            initializeRow(MemorySegment.ofArray(next), y, y, nx, ny);
        }
        for (int iteration = 0; iteration < iterations; iteration++) {
            final MemorySegment src = MemorySegment.ofArray(current);
            final MemorySegment dst = MemorySegment.ofArray(next);
            for (int y = 1; y < ny - 1; y++) {
                relaxRow(src, dst, y, nx);
            }
            final double[] swap = current;
            current = next;
            next = swap;
        }
        return current;
    }

    /**
     * @return the largest absolute difference between elements of two arrays of the same length, or
     *         NaN if some difference is NaN (so that a NaN never passes a {@code <=} check).
     */
    public static double maxAbsDiff(final double[] a, final double[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("lengths differ: " + a.length + " and " + b.length);
        }
        double max = 0.0;
        for (int i = 0; i < a.length; i++) {
            final double diff = Math.abs(a[i] - b[i]);
            if (Double.isNaN(diff)) {
                return Double.NaN;
            }
            if (diff > max) {
                max = diff;
            }
        }
        return max;
    }

    /**
     * @throws IllegalArgumentException if the grid or the iteration count is unusable.
     */
    static void checkProblem(final int nx, final int ny, final int iterations) {
        if (nx < MIN_SIDE || ny < MIN_SIDE) {
            throw new IllegalArgumentException("grid " + nx + "x" + ny + ": both sides must be >= " + MIN_SIDE);
        }
        if ((long)nx * ny > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("grid " + nx + "x" + ny + " has too many points for one array");
        }
        if (iterations < 0) {
            throw new IllegalArgumentException("iterations=" + iterations + " must be >= 0");
        }
    }
}
