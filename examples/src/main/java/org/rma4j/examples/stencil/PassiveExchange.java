package org.rma4j.examples.stencil;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import org.rma4j.Datatype;
import org.rma4j.Op;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.examples.SpinWait;

/**
 * Halo exchange in one passive-target epoch (MPI-3.1 section 11.5.3) with explicit notification,
 * used by {@link JacobiPassive}: the put protocol of section 4.1 (Figure 12) of the MPI-3 RMA paper
 * (put, flush, notify the target with a flag). No rank waits for any rank but its neighbours, and no
 * call is collective between {@link #begin()} and {@link #end()}.
 *
 * <p>Every rank holds {@code lockAll} on the stencil's window and on a window of notification counters
 * ({@link HaloFlagsLayout}) for the whole run. A phase at one rank:
 * <pre>
 *   put edge line to low,  flush(low)      the halo is complete in the neighbour's window
 *   put edge line to high, flush(high)
 *   accumulate(SUM 1) into low's FROM_HIGH,  flush(low)     notification: one more phase delivered
 *   accumulate(SUM 1) into high's FROM_LOW,  flush(high)
 *   poll own FROM_LOW, FROM_HIGH with fetch_and_op(NO_OP) + flush(self) until both reach phase + 1
 *   sync()                                 the local loads that follow see the neighbours' puts
 * </pre>
 * The counters count phases, so a notification is never taken for another phase's. The overwrite rule
 * of {@link HaloExchange} holds without a second halo per side: a rank puts phase p + 1 only after it
 * has seen the neighbour's phase p notification, which the neighbour sent after finishing iteration
 * p - 1, the last iteration that read the buffer phase p + 1 overwrites (buffer (p + 1) % 2 =
 * (p - 1) % 2). So a rank runs at most one phase ahead of its neighbours.
 *
 * <p>{@link #end()} releases both lock_all epochs, frees the counter window and opens the gather epoch
 * with a fence asserting {@link Rma#MODE_NOPRECEDE} and {@link Rma#MODE_NOPUT}.
 */
final class PassiveExchange implements HaloExchange {
    /** Origin of the notification: one long, 1. */
    private static final MemorySegment ONE = MemorySegment.ofArray(new long[] {1});

    private final RmaJob job;
    private final Window window;
    private final StripLayout layout;
    private final int rank;
    private Window flags;

    PassiveExchange(final RmaJob job, final Window window, final StripLayout layout) {
        this.job = job;
        this.window = window;
        this.layout = layout;
        this.rank = job.rank();
    }

    @Override
    public void begin() {
        flags = job.allocate(HaloFlagsLayout.RECORD_BYTES, HaloFlagsLayout.DISP_UNIT);
        flags.segment().set(JAVA_LONG, HaloFlagsLayout.FROM_LOW_OFFSET, 0L);
        flags.segment().set(JAVA_LONG, HaloFlagsLayout.FROM_HIGH_OFFSET, 0L);
        // The zeroed counters and the initialized buffers are seen by every rank after the barrier, before
        // the first accumulate or put can reach them.
        job.barrier();
        window.lockAll();
        flags.lockAll();
    }

    @Override
    public void exchange(final int buffer, final int phase, final boolean last) {
        final int low = layout.low();
        final int high = layout.high();
        layout.putToLow(window, buffer);
        window.flush(low);
        layout.putToHigh(window, buffer);
        window.flush(high);
        // NOTE: each halo put is flushed (complete at its target) before the notification that announces
        // it, so a neighbour that sees the counter advance finds the halo in place.
        notifyNeighbour(low, HaloFlagsLayout.FROM_HIGH_OFFSET);
        notifyNeighbour(high, HaloFlagsLayout.FROM_LOW_OFFSET);
        if (low != Rma.PROC_NULL) {
            awaitCount(HaloFlagsLayout.FROM_LOW_OFFSET, phase + 1);
        }
        if (high != Rma.PROC_NULL) {
            awaitCount(HaloFlagsLayout.FROM_HIGH_OFFSET, phase + 1);
        }
        // The halos are read by local loads: order them after the counter reads (Example 11.7's
        // MPI_Win_sync on the window they read).
        window.sync();
    }

    @Override
    public void end() {
        flags.unlockAll();
        window.unlockAll();
        flags.free();
        window.fence(Rma.MODE_NOPRECEDE | Rma.MODE_NOPUT);
    }

    private void notifyNeighbour(final int target, final long counterDisp) {
        flags.accumulate(ONE, 1, Datatype.LONG, target, counterDisp, 1, Datatype.LONG, Op.SUM);
        flags.flush(target);
    }

    /**
     * Polls this rank's counter at {@code counterDisp} until it reaches {@code phases}.
     */
    private void awaitCount(final long counterDisp, final long phases) {
        final SpinWait spin = new SpinWait();
        while (true) {
            final long received = flags.fetchAndOp(0L, rank, counterDisp, Op.NO_OP);
            flags.flush(rank);
            if (received >= phases) {
                return;
            }
            spin.idle();
        }
    }
}
