package org.rma4j.shm;

/**
 * The active phase of an {@link WaitStrategy.Kind#ADAPTIVE adaptive} wait, learned from the thread's
 * recent waits as HotSpot's adaptive monitor spinning and glibc's {@code PTHREAD_MUTEX_ADAPTIVE_NP} do.
 *
 * <p>Spin budget, updated when a wait ends ({@link #ended()}) from how long it took, {@code t}:
 * <ul>
 *   <li>the wait ended while spinning: the budget becomes at least {@code 2t};</li>
 *   <li>it spun its budget out, found its core shared (below) or lost its core while spinning (a gap of
 *   {@link #PREEMPTED_NS} between two clock reads, which also ends the spin) and ended: the budget halves,
 *   since the spin held a core that another thread, perhaps the peer that makes the event, wanted;</li>
 *   <li>it spun out and ended within {@link #MAX_NS_DEFAULT}: the budget becomes {@code 2t}, since a spin
 *   that long would have seen the event without a sleep and a wake-up;</li>
 *   <li>it spun out and took longer: the budget halves, since no spin this thread allows would have helped
 *   (a partner that computes, blocks or lost its core for a time slice).</li>
 * </ul>
 * Always between {@link #MIN_NS_DEFAULT} and {@link #MAX_NS_DEFAULT}. A thread whose partner answers within
 * microseconds keeps spinning and never pays a sleep and a wake-up; one whose partner is away for long stops
 * spinning. Growing the budget after a short sleep matters on a loaded machine: two partners that both
 * sleep pay a futex wake-up per message, several microseconds, and a budget learned only from waits that
 * ended while spinning would never climb above that latency and would leave them in that mode.
 *
 * <p>Yield: after the spin, up to {@code yields} yields. What a yield costs tells who else wants the core:
 * <ul>
 *   <li>under {@link #SHARED_YIELD_NS}: nobody; the yield is a short spin;</li>
 *   <li>up to {@link #EXPENSIVE_YIELD_NS}: other threads that ran briefly, typically the job's own ranks
 *   when there are more of them than cores, one of which is the peer this wait needs. The core is
 *   <em>shared</em>: the thread's next {@link #SHARED_WAITS} waits skip the spin and go to yielding at once,
 *   as an MPI library's progress loop does when oversubscribed (a spin would only delay the peer), until a
 *   cheap yield shows the core free again;</li>
 *   <li>longer: a busy process used a time slice. The wait goes to sleep at once, and the thread's next
 *   {@link #YIELD_PAUSE_WAITS} waits skip yielding (a futex sleeper is woken by its writer, which on a
 *   loaded machine is far quicker than a yield that hands the core away for a slice).</li>
 * </ul>
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
    /** A yield that takes longer than this let another thread run: the core is shared. */
    static final long SHARED_YIELD_NS = 4_000;
    /** A gap this long between two clock reads of a spin (16 spins apart) means the thread lost its core. */
    static final long PREEMPTED_NS = 20_000;
    /** A yield that takes longer than this handed the core to another process for a time slice. */
    static final long EXPENSIVE_YIELD_NS = 50_000;
    /** Waits that skip yielding after an expensive yield. */
    static final int YIELD_PAUSE_WAITS = 64;
    /** Waits that skip spinning after a yield found the core shared. */
    static final int SHARED_WAITS = 64;

    private static final long MIN_NS = Long.getLong(MIN_NS_PROP_NAME, MIN_NS_DEFAULT);
    private static final long MAX_NS = Math.max(MIN_NS, Long.getLong(MAX_NS_PROP_NAME, MAX_NS_DEFAULT));
    private static final ThreadLocal<AdaptiveSpin> CURRENT = ThreadLocal.withInitial(AdaptiveSpin::new);
    /** CPUs of the machine (not only those this process may run on: a rank bound to one core has a core). */
    static final int ONLINE_CPUS = onlineCpus();
    /** Whether the job in this process has more ranks than the machine has CPUs ({@link #jobRanks}). */
    private static volatile boolean oversubscribed;

    private long spinNs = Math.min(MAX_NS, Math.max(MIN_NS, INITIAL_NS));
    private int yieldPause;
    private int sharedWaits;
    private long waitStartNs;
    private long lastCheckNs;
    private boolean spunOut;
    private boolean sharedSeen;
    private boolean yielding;
    private int yieldsDone;

    /**
     * @return the calling thread's instance, ready for a wait that starts now.
     */
    static AdaptiveSpin begin() {
        final AdaptiveSpin spin = CURRENT.get();
        spin.waitStartNs = System.nanoTime();
        spin.lastCheckNs = spin.waitStartNs;
        spin.spunOut = false;
        spin.sharedSeen = false;
        spin.yielding = false;
        spin.yieldsDone = 0;
        if (spin.yieldPause > 0) {
            spin.yieldPause--;
        }
        if (spin.sharedWaits > 0) {
            spin.sharedWaits--;
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
            // On a shared core the 16 spins are the whole spin, a poll before the first yield.
            if ((iteration & 15) != 15) {
                Thread.onSpinWait();
                return true;
            }
            if (sharedWaits == 0 && !oversubscribed) {
                final long now = System.nanoTime();
                final long sinceLastCheck = now - lastCheckNs;
                lastCheckNs = now;
                if (sinceLastCheck > PREEMPTED_NS) {
                    // NOTE: 16 spins take about a microsecond: the thread lost its core meanwhile, which another
                    // runnable thread wanted (perhaps the peer this wait needs), so spinning on is no use.
                    sharedSeen = true;
                } else if (now - waitStartNs < spinNs) {
                    Thread.onSpinWait();
                    return true;
                }
            }
            spunOut = true;
            if (yieldPause > 0 || yields == 0) {
                return false;
            }
            yielding = true;
        }
        return yieldOnce(yields);
    }

    private boolean yieldOnce(final int yields) {
        if (yieldsDone >= yields) {
            return false;
        }
        final long before = System.nanoTime();
        Thread.yield();
        yieldsDone++;
        return yielded(System.nanoTime() - before);
    }

    /**
     * Learns from a yield of the current wait that took {@code took} ns who else wants the core.
     *
     * @return false if the wait should sleep now.
     */
    boolean yielded(final long took) {
        if (took > EXPENSIVE_YIELD_NS) {
            yieldPause = YIELD_PAUSE_WAITS;
            sharedWaits = 0;
            return false;
        }
        if (took > SHARED_YIELD_NS) {
            sharedSeen = true;
            sharedWaits = SHARED_WAITS;
        } else {
            sharedWaits = 0;
        }
        return true;
    }

    /**
     * The current wait ended (its condition came true): learns the spin budget from its duration.
     */
    void ended() {
        ended(System.nanoTime() - waitStartNs);
    }

    /**
     * {@link #ended()} for a wait that took {@code waitedNs}.
     */
    void ended(final long waitedNs) {
        if (!spunOut) {
            spinNs = Math.min(MAX_NS, Math.max(spinNs, 2 * waitedNs));
        } else if (!sharedSeen && !oversubscribed && waitedNs < MAX_NS) {
            spinNs = Math.min(MAX_NS, Math.max(MIN_NS, 2 * waitedNs));
        } else {
            spinNs = Math.max(MIN_NS, spinNs / 2);
        }
    }

    long spinNs() {
        return spinNs;
    }

    /**
     * Records the number of ranks of the job this process belongs to: with more ranks than {@link #ONLINE_CPUS},
     * every adaptive wait of the process polls briefly and then yields, and a sleep does not grow the spin budget
     * (a rank that spins holds a core that a peer is waiting for).
     */
    static void jobRanks(final int ranks) {
        oversubscribed = ranks > ONLINE_CPUS;
    }

    /**
     * @return whether the job has more ranks than the machine has CPUs.
     */
    static boolean oversubscribed() {
        return oversubscribed;
    }

    private static int onlineCpus() {
        // NOTE: e.g. "0-1,4": the CPUs the kernel runs; availableProcessors() is those of this process's affinity.
        try {
            int count = 0;
            for (final String range : java.nio.file.Files
                .readString(java.nio.file.Path.of("/sys/devices/system/cpu/online")).trim().split(",")) {
                final String[] ends = range.split("-");
                count += ends.length == 1 ? 1 : Integer.parseInt(ends[1]) - Integer.parseInt(ends[0]) + 1;
            }
            return Math.max(count, Runtime.getRuntime().availableProcessors());
        } catch (final java.io.IOException | RuntimeException e) {
            return Runtime.getRuntime().availableProcessors();
        }
    }

    /**
     * @return whether the thread's waits skip the spin because a recent yield found the core shared.
     */
    boolean shared() {
        return sharedWaits > 0;
    }
}
