package org.rma4j.examples.stencil;

import org.rma4j.Group;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.examples.stencil.StripLayout.Axis;
import org.rma4j.examples.stencil.StripStencil.Result;

/**
 * The Jacobi stencil of {@link JacobiFence} with general active target synchronization (MPI-3.1
 * section 11.5.2): each rank synchronizes with its two neighbours only, instead of with the whole job
 * at every fence. Section 4.1 (Figure 11, right) of Hoefler et al., "Remote Memory Access Programming
 * in MPI-3", recommends it for stencils with few, fixed neighbours.
 *
 * <h2>What it demonstrates</h2>
 * <ul>
 *   <li>Neighbour groups: {@code Group.of(up, down)}, without the {@link Rma#PROC_NULL} neighbour of
 *   the first and last rank (a group holds ranks of the job only).</li>
 *   <li>One exposure epoch ({@link Window#post}, {@link Window#await} = MPI_Win_wait) and one access
 *   epoch ({@link Window#start}, {@link Window#complete}) per iteration over the same group: post
 *   says "my halos may be written", start waits for the neighbours' posts, complete says "my puts are
 *   done", wait returns when the neighbours' puts into my halos are done ({@link PscwExchange}).</li>
 *   <li>Double buffering is what makes this safe: a rank posts the buffer of phase p + 1 only after it
 *   finished iteration p, which read the other buffer, and the buffer being filled was last read in
 *   iteration p - 1.</li>
 *   <li>After the last iteration, a fence with {@link Rma#MODE_NOPRECEDE} opens the epoch in which rank
 *   0 gathers the grid and compares it with {@link Jacobi#sequential} (bit for bit).</li>
 * </ul>
 *
 * <h2>Running</h2>
 * <pre>
 * bin/rmarun -n 4 -cp examples/target/rma4j-examples.jar org.rma4j.examples.stencil.JacobiPscw [nx ny iterations]
 * </pre>
 * Arguments, defaults, decomposition, exit statuses and the summary line (named {@code jacobi-pscw})
 * are those of {@link JacobiFence}.
 */
public final class JacobiPscw {
    /** The stencil: horizontal strips, halos in post / start / complete / wait epochs. */
    static final StripStencil STENCIL = new StripStencil("jacobi-pscw", "JacobiPscw", Axis.ROWS,
        (job, window, layout) -> new PscwExchange(window, layout));

    private JacobiPscw() {
    }

    /**
     * Runs the parallel stencil as the calling rank of {@code job} and gathers the grid at rank 0;
     * see {@link JacobiFence#run}. {@link Group} and epoch objects are per rank, so thread-mode ranks
     * may run it concurrently.
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
