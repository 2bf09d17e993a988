package org.rma4j.examples;

/**
 * The idle step of a loop that polls window memory for a value another rank writes: a
 * {@link Thread#onSpinWait()} hint on every call and a {@link Thread#yield()} every
 * {@link #YIELD_INTERVAL} calls, so that a job with more ranks than cores (a thread-mode job of four
 * ranks on two cores, say) lets the rank it waits for run.
 *
 * <p>Not thread-safe: one instance per polling thread.
 */
public final class SpinWait {
    /** Calls of {@link #idle()} between two yields. */
    public static final int YIELD_INTERVAL = 64;

    private int spins;

    /**
     * Waits a moment before the next poll.
     */
    public void idle() {
        if (++spins % YIELD_INTERVAL == 0) {
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
    }

    /**
     * @return how many times {@link #idle()} was called since construction.
     */
    public int spins() {
        return spins;
    }
}
