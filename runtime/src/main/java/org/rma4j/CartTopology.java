package org.rma4j;

import java.util.Arrays;

/**
 * A Cartesian grid (MPI-3.1 section 7.5): its dimensions and periodicity, with the standard's row-major
 * numbering of ranks (the last coordinate varies fastest, section 7.5.1), and MPI_DIMS_CREATE. Immutable.
 */
final class CartTopology {
    private final int[] dims;
    private final boolean[] periods;

    CartTopology(final int[] dims, final boolean[] periods) {
        this.dims = dims.clone();
        this.periods = periods.clone();
    }

    /**
     * Checks the arguments of MPI_CART_CREATE.
     *
     * @return the grid.
     * @throws RmaException DIMS for a missing or non-positive extent, ARG for periods of another length,
     *                      TOPOLOGY for a grid larger than the communicator.
     */
    static CartTopology of(final String call, final int[] dims, final boolean[] periods, final int size) {
        if (dims == null || periods == null || dims.length != periods.length) {
            throw new RmaException(dims == null ? ErrorClass.DIMS : ErrorClass.ARG,
                call + " dims " + Arrays.toString(dims) + " and periods " + Arrays.toString(periods)
                    + " must have one entry per dimension");
        }
        long cells = 1;
        for (int d = 0; d < dims.length; d++) {
            if (dims[d] <= 0) {
                throw new RmaException(ErrorClass.DIMS, call + " dims[" + d + "]=" + dims[d] + " must be positive");
            }
            cells *= dims[d];
            if (cells > size) {
                throw new RmaException(ErrorClass.TOPOLOGY, call + " grid " + Arrays.toString(dims) + " has more"
                    + " cells than the communicator's " + size + " ranks");
            }
        }
        return new CartTopology(dims, periods);
    }

    int ndims() {
        return dims.length;
    }

    int[] dims() {
        return dims.clone();
    }

    boolean[] periods() {
        return periods.clone();
    }

    /**
     * @return the number of ranks of the grid.
     */
    int cells() {
        int cells = 1;
        for (final int extent : dims) {
            cells *= extent;
        }
        return cells;
    }

    /**
     * MPI_CART_COORDS: the coordinates of {@code rank}, row-major.
     */
    int[] coords(final int rank) {
        if (rank < 0 || rank >= cells()) {
            throw new RmaException(ErrorClass.RANK, "cartCoords rank=" + rank + " is outside 0.." + (cells() - 1));
        }
        final int[] coords = new int[dims.length];
        int rest = rank;
        for (int d = dims.length - 1; d >= 0; d--) {
            coords[d] = rest % dims[d];
            rest /= dims[d];
        }
        return coords;
    }

    /**
     * MPI_CART_RANK: the rank at {@code coords}; a coordinate outside a periodic dimension wraps around.
     *
     * @throws RmaException ARG for coordinates of another length or outside a non-periodic dimension.
     */
    int rank(final int[] coords) {
        if (coords == null || coords.length != dims.length) {
            throw new RmaException(ErrorClass.ARG,
                "cartRank coords " + Arrays.toString(coords) + " must have " + dims.length + " entries");
        }
        int rank = 0;
        for (int d = 0; d < dims.length; d++) {
            int c = coords[d];
            if (periods[d]) {
                c = Math.floorMod(c, dims[d]);
            } else if (c < 0 || c >= dims[d]) {
                throw new RmaException(ErrorClass.ARG, "cartRank coords[" + d + "]=" + c + " is outside 0.."
                    + (dims[d] - 1) + " of a non-periodic dimension");
            }
            rank = rank * dims[d] + c;
        }
        return rank;
    }

    /**
     * MPI_CART_SHIFT from {@code rank}: the neighbours {@code disp} steps back (source) and forth (dest)
     * along {@code direction}, {@link Rma#PROC_NULL} past the edge of a non-periodic dimension.
     *
     * @throws RmaException DIMS for a direction outside 0..ndims-1.
     */
    CartCommunicator.Shift shift(final int rank, final int direction, final int disp) {
        if (direction < 0 || direction >= dims.length) {
            throw new RmaException(ErrorClass.DIMS,
                "cartShift direction=" + direction + " is outside 0.." + (dims.length - 1));
        }
        final int[] coords = coords(rank);
        return new CartCommunicator.Shift(neighbour(coords, direction, -(long)disp),
            neighbour(coords, direction, disp));
    }

    private int neighbour(final int[] coords, final int direction, final long step) {
        final long c = coords[direction] + step;
        if (!periods[direction] && (c < 0 || c >= dims[direction])) {
            return Rma.PROC_NULL;
        }
        final int[] moved = coords.clone();
        moved[direction] = (int)Math.floorMod(c, (long)dims[direction]);
        return rank(moved);
    }

    /**
     * @return the grid of the dimensions {@code remain} keeps (MPI_CART_SUB).
     */
    CartTopology sub(final boolean[] remain) {
        final int kept = (int)java.util.stream.IntStream.range(0, remain.length).filter(d -> remain[d]).count();
        final int[] subDims = new int[kept];
        final boolean[] subPeriods = new boolean[kept];
        int k = 0;
        for (int d = 0; d < dims.length; d++) {
            if (remain[d]) {
                subDims[k] = dims[d];
                subPeriods[k++] = periods[d];
            }
        }
        return new CartTopology(subDims, subPeriods);
    }

    /**
     * @return the color of MPI_CART_SUB: the rank of {@code coords} in the grid of the dropped dimensions.
     */
    int subColor(final int[] coords, final boolean[] remain) {
        int color = 0;
        for (int d = 0; d < dims.length; d++) {
            if (!remain[d]) {
                color = color * dims[d] + coords[d];
            }
        }
        return color;
    }

    /**
     * @return a digest of the grid, which every member of its communicator must pass alike.
     */
    long digest() {
        return 31L * Arrays.hashCode(dims) + Arrays.hashCode(periods);
    }

    /**
     * MPI_DIMS_CREATE (MPI-3.1 section 7.5.2): fills the zero entries of {@code dims} so that their product
     * with the others is {@code nnodes}, as close to each other as possible, in non-increasing order.
     *
     * @return a new array; {@code dims} is unchanged.
     * @throws RmaException DIMS for a negative entry, or when the non-zero entries do not divide nnodes;
     *                      ARG for nnodes < 1.
     */
    static int[] dimsCreate(final int nnodes, final int[] dims) {
        if (nnodes < 1) {
            throw new RmaException(ErrorClass.ARG, "dimsCreate nnodes=" + nnodes + " must be positive");
        }
        if (dims == null) {
            throw new RmaException(ErrorClass.DIMS, "dimsCreate dims is null");
        }
        long fixed = 1;
        int free = 0;
        for (int d = 0; d < dims.length; d++) {
            if (dims[d] < 0) {
                throw new RmaException(ErrorClass.DIMS, "dimsCreate dims[" + d + "]=" + dims[d] + " is negative");
            }
            if (dims[d] == 0) {
                free++;
            } else {
                fixed *= dims[d];
            }
        }
        if (fixed > nnodes || nnodes % fixed != 0 || free == 0 && fixed != nnodes) {
            throw new RmaException(ErrorClass.DIMS, "dimsCreate: the fixed dimensions of " + Arrays.toString(dims)
                + " (product " + fixed + ") do not divide nnodes=" + nnodes);
        }
        final int[] best = new int[free];
        if (free > 0) {
            final int rest = (int)(nnodes / fixed);
            final int[] divisors = java.util.stream.IntStream.rangeClosed(1, rest).takeWhile(f -> (long)f * f <= rest)
                .filter(f -> rest % f == 0).flatMap(f -> java.util.stream.IntStream.of(f, rest / f)).distinct().boxed()
                .sorted(java.util.Comparator.reverseOrder()).mapToInt(Integer::intValue).toArray();
            balance(divisors, rest, free, 0, Integer.MAX_VALUE, new int[free], best, new int[] {Integer.MAX_VALUE});
        }
        final int[] result = dims.clone();
        int next = 0;
        for (int d = 0; d < result.length; d++) {
            if (result[d] == 0) {
                result[d] = best[next++];
            }
        }
        return result;
    }

    /**
     * Finds the non-increasing factorization of {@code rest} into the remaining entries, from
     * {@code divisors} (of the whole product, descending), with the smallest difference between the
     * largest and the smallest factor.
     */
    private static void balance(final int[] divisors, final int rest, final int slots, final int at, final int limit,
        final int[] current, final int[] best, final int[] spread) {
        if (at == slots - 1) {
            if (rest <= limit) {
                current[at] = rest;
                if (current[0] - rest < spread[0]) {
                    spread[0] = current[0] - rest;
                    System.arraycopy(current, 0, best, 0, slots);
                }
            }
            return;
        }
        for (final int factor : divisors) {
            if (factor > limit || rest % factor != 0) {
                continue;
            }
            // NOTE: the entries are non-increasing, so the rest is at most this factor to the remaining slots.
            if (Math.pow(factor, slots - at) < rest) {
                return;
            }
            current[at] = factor;
            balance(divisors, rest / factor, slots, at + 1, factor, current, best, spread);
        }
    }
}
