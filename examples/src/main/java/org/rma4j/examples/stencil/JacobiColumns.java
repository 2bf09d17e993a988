package org.rma4j.examples.stencil;

import java.lang.foreign.MemorySegment;
import org.rma4j.Datatype;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.examples.stencil.StripLayout.Axis;
import org.rma4j.examples.stencil.StripStencil.Result;

/**
 * The Jacobi stencil of {@link JacobiFence} cut the other way: vertical strips, one per rank, whose
 * halos are columns, strided in memory and moved with derived datatypes (MPI-3.1 section 11.3 with
 * chapter 4's MPI_TYPE_VECTOR), in fence epochs.
 *
 * <h2>What it demonstrates</h2>
 * <ul>
 *   <li>A column of a row-major block as {@code Datatype.vector(ny, 1, rowLength, Datatype.DOUBLE)}:
 *   {@code ny} blocks of one double, {@code rowLength} doubles apart.</li>
 *   <li>A typed put ({@link Window#put(MemorySegment, long, Datatype, int, long, long, Datatype)}) whose
 *   origin and target types differ: the stride is the row length of each side's block, which differ
 *   when the strips differ in width (with 37 columns among 4 ranks, 10 + 2 and 9 + 2 doubles). The
 *   two types match because they hold the same number of doubles.</li>
 *   <li>A typed get for the gather: the owned columns of a rank's block,
 *   {@code vector(ny, columns, width)}, read into the full grid as {@code vector(ny, columns, nx)}.</li>
 *   <li>Fence epochs as in {@link JacobiFence} ({@link FenceExchange}).</li>
 * </ul>
 *
 * <h2>Decomposition</h2>
 * The {@code nx} columns (border columns included) are split into vertical strips of {@code nx / ranks}
 * or {@code nx / ranks + 1} columns. The window of a rank with {@code columns} columns holds two buffers
 * of {@code ny} rows of {@code columns + 2} doubles ({@link StripLayout}):
 * <pre>
 *   local column    0           1 .. columns                     columns + 1
 *                   left halo   owned columns first .. first+columns-1   right halo
 *   row y of buffer b starts at displacement (b * ny + y) * (columns + 2)
 * </pre>
 *
 * <h2>Running</h2>
 * <pre>
 * bin/rmarun -n 4 -cp examples/target/rma4j-examples.jar org.rma4j.examples.stencil.JacobiColumns [nx ny iterations]
 * </pre>
 * Arguments, defaults, exit statuses and the summary line (named {@code jacobi-columns}) are those of
 * {@link JacobiFence}, except that {@code nx} (not {@code ny}) must be at least the number of ranks.
 * Ranks at the left and right edges use {@link Rma#PROC_NULL} for their missing neighbour.
 */
public final class JacobiColumns {
    /** The stencil: vertical strips, column halos in fence epochs. */
    static final StripStencil STENCIL = new StripStencil("jacobi-columns", "JacobiColumns", Axis.COLUMNS,
        (job, window, layout) -> new FenceExchange(window, layout));

    private JacobiColumns() {
    }

    /**
     * Runs the parallel stencil as the calling rank of {@code job} and gathers the grid at rank 0;
     * see {@link JacobiFence#run}.
     *
     * @throws IllegalArgumentException as {@link JacobiFence#run}, with columns in place of rows.
     */
    public static Result run(final RmaJob job, final int nx, final int ny, final int iterations) {
        return STENCIL.run(job, nx, ny, iterations);
    }

    /**
     * Runs the stencil on every rank, verifies at rank 0 and prints the summary line there.
     *
     * @param args {@code [nx [ny [iterations]]]}.
     */
    public static void main(final String[] args) {
        STENCIL.runProgram(args);
    }
}
