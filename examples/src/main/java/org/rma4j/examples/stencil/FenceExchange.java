package org.rma4j.examples.stencil;

import org.rma4j.Rma;
import org.rma4j.Window;

/**
 * Halo exchange in fence epochs (MPI-3.1 section 11.5.1), used by {@link JacobiFence} and
 * {@link JacobiColumns}: every phase's puts are issued in one epoch and completed everywhere by the
 * fence that closes it, which also opens the next.
 *
 * <p>The first fence asserts {@link Rma#MODE_NOPRECEDE} (no RMA call before it); the fence after the
 * last phase asserts {@link Rma#MODE_NOPUT}, since the epoch it opens only gathers. The fence is a
 * barrier: a rank issues its puts of phase p + 1 (after its iteration p) only after the fence of phase
 * p, which every rank reaches after its iteration p - 1, so the overwrite rule of {@link HaloExchange}
 * holds.
 */
final class FenceExchange implements HaloExchange {
    private final Window window;
    private final StripLayout layout;

    FenceExchange(final Window window, final StripLayout layout) {
        this.window = window;
        this.layout = layout;
    }

    @Override
    public void begin() {
        // Local stores of the initial values are complete at every rank after this fence.
        window.fence(Rma.MODE_NOPRECEDE);
    }

    @Override
    public void exchange(final int buffer, final int phase, final boolean last) {
        layout.putToLow(window, buffer);
        layout.putToHigh(window, buffer);
        // Completes this phase's puts everywhere; the epoch it opens serves the next phase, or after the
        // last one the gather, in which no put reaches any window.
        window.fence(last ? Rma.MODE_NOPUT : 0);
    }

    @Override
    public void end() {
        // The last exchange's fence opened the gather epoch.
    }
}
