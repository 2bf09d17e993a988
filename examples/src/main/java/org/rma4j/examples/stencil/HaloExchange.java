package org.rma4j.examples.stencil;

import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;

/**
 * How a {@link StripStencil} moves halos between neighbouring ranks: the synchronization that varies
 * between the Jacobi examples while the decomposition ({@link StripLayout}) and the kernel
 * ({@link Jacobi}) stay the same. One instance per rank and run, obtained from a {@link Factory}.
 *
 * <p>The stencil calls, at every rank in the same order: {@link #begin()} once, then
 * {@link #exchange} for phases 0, 1, .., iterations (phase 0 sends the initial values, phase p the
 * result of iteration p - 1, in buffer {@code p % 2}), each after this rank's stores to the buffer are
 * done, then {@link #end()} once.
 *
 * <p>Contract of {@link #exchange}: it puts this rank's edge lines of the buffer into the neighbours'
 * halos of the same buffer (with {@link StripLayout#putToLow} and {@link StripLayout#putToHigh}) and
 * returns only when this rank's halos of that buffer hold its neighbours' edge lines of the same phase
 * and may be loaded. A put of phase p + 1 overwrites the halos of the buffer the neighbour read in
 * iteration p - 1, so an implementation must not let it land before the neighbour finished that
 * iteration; double buffering makes one synchronization per phase enough for that.
 */
interface HaloExchange {
    /**
     * Opens the synchronization. Called once by every rank after both buffers are initialized by
     * local stores.
     */
    void begin();

    /**
     * One halo exchange; see the class comment.
     *
     * @param buffer the buffer whose halos are exchanged, {@code phase % 2}.
     * @param phase  0 for the initial values, p for the result of iteration p - 1.
     * @param last   whether this is the last phase of the run.
     */
    void exchange(int buffer, int phase, boolean last);

    /**
     * Ends the synchronization after the last exchange. On return a fence epoch is open at every
     * rank in which no put or accumulate reaches any window (the gather's gets), to be closed by a
     * fence with {@link Rma#MODE_NOSTORE} | {@link Rma#MODE_NOSUCCEED}.
     */
    void end();

    /** Creates the exchange of one rank for one run. */
    @FunctionalInterface
    interface Factory {
        /**
         * @param job    the rank's job; collective calls (a window of its own) are allowed in
         *               {@link #begin()} and {@link #end()}.
         * @param window the stencil's window.
         * @param layout this rank's strip.
         */
        HaloExchange open(RmaJob job, Window window, StripLayout layout);
    }
}
