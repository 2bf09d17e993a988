package org.rma4j.examples.stencil;

import org.rma4j.Op;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.examples.stencil.StripLayout.Axis;
import org.rma4j.examples.stencil.StripStencil.Result;

/**
 * The Jacobi stencil of {@link JacobiFence} in a single passive-target epoch (MPI-3.1 section
 * 11.5.3): the halos are put and flushed, and the neighbour is told by a flag: the put protocol for
 * passive-target stencils of section 4.1 (Figure 12) of Hoefler et al., "Remote Memory Access
 * Programming in MPI-3", in the global lock_all model of its section 2.6.2.
 *
 * <h2>What it demonstrates</h2>
 * <ul>
 *   <li>{@link Window#lockAll()} for the whole run: no epoch is opened or closed per iteration.</li>
 *   <li>{@link Window#flush(int)} to complete a put at its target before announcing it.</li>
 *   <li>Notification by an atomic counter in the neighbour's memory: {@link Window#accumulate} with
 *   {@link Op#SUM} of 1 per phase, and waiting by polling the own counter with
 *   {@link Window#fetchAndOp(long, int, long, Op)} and {@link Op#NO_OP} plus a flush, the standard way
 *   to read window memory that other ranks update ({@link PassiveExchange}, counters in
 *   {@link HaloFlagsLayout}).</li>
 *   <li>Why the counters count phases rather than being set and cleared, and how the double buffer
 *   covers the paper's second notification ("the target has to notify the source when the data can be
 *   overwritten in the next iteration"): the exchange is symmetric, and a rank puts phase p + 1 only
 *   after its neighbour's phase p notification, which the neighbour sent after its last read of the
 *   buffer being overwritten. So that notification serves as both.</li>
 *   <li>{@link Window#sync()} before loading halos that other ranks wrote (Example 11.7).</li>
 * </ul>
 * The gather at the end runs in a fence epoch after {@link Window#unlockAll()}, opened with
 * {@link Rma#MODE_NOPRECEDE}.
 *
 * <h2>Running</h2>
 * <pre>
 * bin/rmarun -n 4 -cp examples/target/rma4j-examples.jar org.rma4j.examples.stencil.JacobiPassive [nx ny iterations]
 * </pre>
 * Arguments, defaults, decomposition, exit statuses and the summary line (named
 * {@code jacobi-passive}) are those of {@link JacobiFence}.
 */
public final class JacobiPassive {
    /** The stencil: horizontal strips, halos put in one lock_all epoch and announced by counters. */
    static final StripStencil STENCIL = new StripStencil("jacobi-passive", "JacobiPassive", Axis.ROWS,
        PassiveExchange::new);

    private JacobiPassive() {
    }

    /**
     * Runs the parallel stencil as the calling rank of {@code job} and gathers the grid at rank 0;
     * see {@link JacobiFence#run}. Creates and frees two windows: the grid and the counters.
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
