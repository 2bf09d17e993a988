package org.rma4j.shm;

/**
 * The active phase of an {@link WaitStrategy.Kind#ADAPTIVE adaptive} wait, learned from the thread's
 * recent waits as HotSpot's adaptive monitor spinning and glibc's {@code PTHREAD_MUTEX_ADAPTIVE_NP} do.
 *
 * <p>Spin: a wait that ended while spinning after {@code t} ns keeps the spin budget at least {@code 2t}
 * (up to {@link #MAX_NS_DEFAULT}); a wait that spun its whole budget halves it (down to
 * {@link #MIN_NS_DEFAULT}). A thread whose partner answers within microseconds keeps spinning and never
 * pays a sleep and a wake-up; one whose partner is descheduled soon stops spinning.
 *
 * <p>Yield: after the spin, up to {@code yields} yields, which let a partner that shares the core run at
 * once when the other runnable threads are short-lived. A yield that took longer than
 * {@link #EXPENSIVE_YIELD_NS} means a busy process used a time slice: the wait goes to sleep at once, and the
 * thread's next {@link #YIELD_PAUSE_WAITS} waits skip yielding (a futex sleeper is woken by its writer,
 * which on a loaded machine is far quicker than a yield that hands the core away for a slice).
 *
 * <p>One instance per thread, which runs one wait at a time; not thread-safe.
 */
final class AdaptiveSpin {
    /** System property: the least spin budget in nanoseconds. */
    static final String MIN_NS_PROP_NAME = "rma4j.wait.spin.min.ns";
    /** Default least spin budget: about the cost of a futex sleep and wake-up. */
    static final long MIN_NS_DEFAULT = 2_000;
    /** System property: the largest spin budget in nanoseconds. */
    static final String MAX_NS_PROP_NAME = "rma4j.wait.spin.max.ns";
    /** Default largest spin budget: a thread blocked for long spins at most this per wait before it sleeps. */
    static final long MAX_NS_DEFAULT = 200_000;
    /** The spin budget of a thread's first wait. */
    static final long INITIAL_NS = 20_000;
    /** A yield that takes longer than this handed the core to another process for a time slice. */
    static final long EXPENSIVE_YIELD_NS = 50_000;
    /** Waits that skip yielding after an expensive yield. */
    static final int YIELD_PAUSE_WAITS = 64;

    private static final long MIN_NS = Long.getLong(MIN_NS_PROP_NAME, MIN_NS_DEFAULT);
    private static final long MAX_NS = Math.max(MIN_NS, Long.getLong(MAX_NS_PROP_NAME, MAX_NS_DEFAULT));
    private static final ThreadLocal<AdaptiveSpin> CURRENT = ThreadLocal.withInitial(AdaptiveSpin::new);

    private long spinNs = Math.min(MAX_NS, Math.max(MIN_NS, INITIAL_NS));
    private int yieldPause;
    private long waitStartNs;
    private boolean yielding;
    private int yieldsDone;

    /**
     * @return the calling thread's instance, ready for a wait that starts now.
     */
    static AdaptiveSpin begin() {
        final AdaptiveSpin spin = CURRENT.get();
        spin.waitStartNs = System.nanoTime();
        spin.yielding = false;
        spin.yieldsDone = 0;
        if (spin.yieldPause > 0) {
            spin.yieldPause--;
        }
        return spin;
    }

    /**
     * @return when the current wait began ({@link System#nanoTime()}).
     */
    long waitStartNs() {
        return waitStartNs;
    }

    /**
     * One step of the active phase: a spin or a yield.
     *
     * @param iteration steps taken so far in this wait.
     * @param yields    most yields after the spin.
     * @return false once the wait should sleep.
     */
    boolean step(final long iteration, final int yields) {
        if (!yielding) {
            // NOTE: the clock is read every 16 spins: a spin is tens of nanoseconds, a clock read about 20.
            if ((iteration & 15) != 15 || System.nanoTime() - waitStartNs < spinNs) {
                Thread.onSpinWait();
                return true;
            }
            spinNs = Math.max(MIN_NS, spinNs / 2);
            if (yieldPause > 0 || yields == 0) {
                return false;
            }
            yielding = true;
        }
        if (yieldsDone >= yields) {
            return false;
        }
        final long before = System.nanoTime();
        Thread.yield();
        yieldsDone++;
        if (System.nanoTime() - before > EXPENSIVE_YIELD_NS) {
            yieldPause = YIELD_PAUSE_WAITS;
            return false;
        }
        return true;
    }

    /**
     * The current wait ended in its active phase.
     */
    void succeeded() {
        if (!yielding) {
            spinNs = Math.min(MAX_NS, Math.max(spinNs, 2 * (System.nanoTime() - waitStartNs)));
        }
    }

    long spinNs() {
        return spinNs;
    }
}
