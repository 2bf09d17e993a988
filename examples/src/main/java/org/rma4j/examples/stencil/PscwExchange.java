package org.rma4j.examples.stencil;

import org.rma4j.Group;
import org.rma4j.Rma;
import org.rma4j.Window;

/**
 * Halo exchange with general active target synchronization (post / start / complete / wait, MPI-3.1
 * section 11.5.2), used by {@link JacobiPscw}: each rank synchronizes with its neighbours only.
 *
 * <p>Every phase is one exposure epoch of this rank's window to its neighbours and one access epoch
 * to them, over the same group {@code Group.of(low, high)} (the neighbours that exist):
 * <pre>
 *   post(neighbours)      my halos may now be written: I no longer read the buffer this phase fills
 *   start(neighbours)     waits for the neighbours' posts
 *   put, put              my edge lines into their halos
 *   complete()            my puts are done; lets their wait return
 *   wait()                (await) their puts into my halos are done and visible
 * </pre>
 * A rank posts phase p + 1 only after its iteration p, so a neighbour's put of phase p + 1 cannot
 * land in a halo it still reads in iteration p - 1 (the overwrite rule of {@link HaloExchange}); a
 * rank at the top or bottom has one neighbour, a job of one rank an empty group.
 *
 * <p>{@link #end()} opens the gather epoch with a fence: every PSCW epoch is closed by then, so it
 * asserts {@link Rma#MODE_NOPRECEDE} and {@link Rma#MODE_NOPUT}.
 */
final class PscwExchange implements HaloExchange {
    private final Window window;
    private final StripLayout layout;
    private final Group neighbours;

    PscwExchange(final Window window, final StripLayout layout) {
        this.window = window;
        this.layout = layout;
        this.neighbours = neighbours(layout.low(), layout.high());
    }

    /**
     * @return the group of the given ranks that are not {@link Rma#PROC_NULL}, in order.
     */
    static Group neighbours(final int low, final int high) {
        if (low == Rma.PROC_NULL && high == Rma.PROC_NULL) {
            return Group.EMPTY;
        }
        if (low == Rma.PROC_NULL) {
            return Group.of(high);
        }
        if (high == Rma.PROC_NULL) {
            return Group.of(low);
        }
        return Group.of(low, high);
    }

    @Override
    public void begin() {
        // Nothing: each phase opens its own epochs.
    }

    @Override
    public void exchange(final int buffer, final int phase, final boolean last) {
        window.post(neighbours, 0);
        window.start(neighbours, 0);
        layout.putToLow(window, buffer);
        layout.putToHigh(window, buffer);
        window.complete();
        window.await();
    }

    @Override
    public void end() {
        window.fence(Rma.MODE_NOPRECEDE | Rma.MODE_NOPUT);
    }
}
