package org.rma4j;

/**
 * A communicator with a Cartesian topology (MPI-3.1 section 7.5), made by
 * {@link Communicator#cartCreate}: its ranks are the cells of a grid of {@link #dims()}, numbered in
 * row-major order (the last coordinate varies fastest), each dimension periodic or not. Stencil codes
 * find their neighbours with {@link #cartShift}.
 */
public final class CartCommunicator extends Communicator {
    /**
     * The neighbours of MPI_CART_SHIFT: the rank to receive from and the rank to send to, each
     * {@link Rma#PROC_NULL} past the edge of a non-periodic dimension.
     *
     * @param source the rank {@code disp} steps back along the direction.
     * @param dest   the rank {@code disp} steps forth.
     */
    public record Shift(int source, int dest) {
    }

    private final CartTopology grid;

    CartCommunicator(final CommContext context, final CartTopology grid) {
        super(context);
        this.grid = grid;
    }

    /** @return MPI_CARTDIM_GET: the number of dimensions. */
    public int ndims() {
        return grid.ndims();
    }

    /** @return the extent of each dimension (MPI_CART_GET). */
    public int[] dims() {
        return grid.dims();
    }

    /** @return whether each dimension is periodic (MPI_CART_GET). */
    public boolean[] periods() {
        return grid.periods();
    }

    /** @return this rank's coordinates (MPI_CART_GET). */
    public int[] coords() {
        return grid.coords(rank());
    }

    /**
     * MPI_CART_COORDS.
     *
     * @throws RmaException RANK for a rank outside the communicator.
     */
    public int[] cartCoords(final int rank) {
        return grid.coords(rank);
    }

    /**
     * MPI_CART_RANK: the rank at {@code coords}; coordinates of a periodic dimension wrap around.
     *
     * @throws RmaException ARG for coordinates of another length or outside a non-periodic dimension.
     */
    public int cartRank(final int[] coords) {
        return grid.rank(coords);
    }

    /**
     * MPI_CART_SHIFT: the ranks {@code disp} steps before and after this one along {@code direction}.
     *
     * @throws RmaException DIMS for a direction outside 0..ndims()-1.
     */
    public Shift cartShift(final int direction, final int disp) {
        return grid.shift(rank(), direction, disp);
    }

    /**
     * MPI_CART_SUB: collective; the sub-grids that keep the dimensions {@code remainDims} marks, each a
     * Cartesian communicator of the ranks that share their coordinates in the dropped dimensions.
     *
     * @throws RmaException DIMS at every member if a member passed {@code remainDims} of another length;
     *                      ARG if the members passed different ones.
     */
    public CartCommunicator cartSub(final boolean[] remainDims) {
        RmaException error = null;
        if (remainDims == null || remainDims.length != grid.ndims()) {
            error = new RmaException(ErrorClass.DIMS, "cartSub remainDims " + java.util.Arrays.toString(remainDims)
                + " must have " + grid.ndims() + " entries");
        }
        final int color = error == null ? grid.subColor(coords(), remainDims) : 0;
        final long digest = error == null ? java.util.Arrays.hashCode(remainDims) : 0;
        final CommContext made = CommCreation.split(usable("cartSub"), "cartSub", color, rank(), digest, error);
        return new CartCommunicator(made, grid.sub(remainDims));
    }

    /** MPI_COMM_DUP of a Cartesian communicator: the copy has the same topology (section 6.4.2). */
    @Override
    public CartCommunicator dup() {
        return new CartCommunicator(CommCreation.split(usable("dup"), "dup", 0, rank(), 0, null), grid);
    }

    @Override
    public String toString() {
        return "Cartesian " + super.toString() + " " + java.util.Arrays.toString(grid.dims());
    }
}
