package org.rma4j.shm;

/**
 * The active phase of an {@link WaitStrategy.Kind#ADAPTIVE adaptive} wait, learned from the thread's
 * recent waits as HotSpot's adaptive monitor spinning and glibc's {@code PTHREAD_MUTEX_ADAPTIVE_NP} do.
 *
 * <p>Spin budget, updated when a wait ends ({@link #ended()}) from how long it took, {@code t}:
 * <ul>
 *   <li>the wait ended while spinning: the budget becomes at least {@code 2t};</li>
 *   <li>it spun its budget out (then yielded or slept) and ended within {@link #MAX_NS_DEFAULT}: the budget
 *   becomes {@code 2t}, since a spin that long would have seen the event without a sleep and a wake-up;</li>
 *   <li>it spun out and took longer than that, on a machine where other processes want the cores (a yield of
 *   this wait or of one of the last {@link #YIELD_PAUSE_WAITS} took a time slice, below) or with more ranks
 *   than CPUs: the budget halves, since no spin this thread allows would have helped and a spin holds a core
 *   that others are queued for (a partner that lost its core for a time slice);</li>
 *   <li>it spun out and took longer than that on a machine with cores to spare: the budget stands. The partner
 *   computes on a core of its own, and the waits of a data-flow job are a mix (the notification waits of the
 *   tile Cholesky of 2 ranks, 16x16 tiles: half within 2 µs, one in seven 0.2 ms or longer); halving on its long
 *   waits kept the budget at a few tens of microseconds, so that most waits longer than that slept and paid the
 *   futex wake-up, which for an idle virtual CPU is tens to hundreds of microseconds (a parked thread woken by
 *   another: p50 10-40, p99 110-190 µs on the 2-vCPU VM of bench/README).</li>
 * </ul>
 * Always between {@link #MIN_NS_DEFAULT} and {@link #MAX_NS_DEFAULT}. A thread whose partner answers within
 * microseconds keeps spinning and never pays a sleep and a wake-up; one whose partner is away for long stops
 * spinning. Growing the budget after a short sleep matters on a loaded machine: two partners that both
 * sleep pay a futex wake-up per message, several microseconds, and a budget learned only from waits that
 * ended while spinning would never climb above that latency and would leave them in that mode.
 *
 * <p>More ranks than CPUs ({@link #jobRanks}): a wait polls 16 times and then yields, whatever a yield costs,
 * until it is {@link #OVERSUBSCRIBED_YIELD_NS_DEFAULT} old, as an MPI library's progress loop does when
 * oversubscribed; then it sleeps, and a sleep never grows the budget. A spin would hold a core that the peer this
 * wait needs is queued for, and the time the peer then takes would teach a longer spin: a budget learned from whole
 * waits climbs to its largest value and every collective call takes that long. A yield that takes a time slice
 * here gave the core to another rank of the job, most likely the one this wait needs, which then runs on until it
 * waits itself; a sleeper instead is woken by each notification and preempts its writer after every message (a
 * pipeline of 8 ranks on 2 cores ran at 0.40 GMOPS with sleeps after expensive yields, 0.81 yielding only).
 *
 * <p>Yield, in a job of no more ranks than CPUs: after the spin, up to {@code yields} yields, which let a partner
 * that shares the core run at once when the other runnable threads are short-lived. A yield that took longer than
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
    /**
     * Default largest spin budget: a thread blocked for long spins at most this per wait before it sleeps. A
     * millisecond: waits of a data-flow job on cores of its own last up to milliseconds (see the class comment),
     * and a rank blocked for long spins one millisecond per wait before it sleeps (in a wait of a second, a tenth
     * of a percent of a core).
     */
    static final long MAX_NS_DEFAULT = 1_000_000;
    /** The spin budget of a thread's first wait. */
    static final long INITIAL_NS = 20_000;
    /** A yield that takes longer than this handed the core to another process for a time slice. */
    static final long EXPENSIVE_YIELD_NS = 50_000;
    /** Waits that skip yielding after an expensive yield. */
    static final int YIELD_PAUSE_WAITS = 64;
    /** System property: how long a wait of a job with more ranks than CPUs yields before it sleeps, in ns. */
    static final String OVERSUBSCRIBED_YIELD_NS_PROP_NAME = "rma4j.wait.oversubscribed.yield.ns";
    /** Default of {@link #OVERSUBSCRIBED_YIELD_NS_PROP_NAME}. */
    static final long OVERSUBSCRIBED_YIELD_NS_DEFAULT = 1_000_000;

    private static final long MIN_NS = Long.getLong(MIN_NS_PROP_NAME, MIN_NS_DEFAULT);
    private static final long MAX_NS = Math.max(MIN_NS, Long.getLong(MAX_NS_PROP_NAME, MAX_NS_DEFAULT));
    /** {@link #OVERSUBSCRIBED_YIELD_NS_PROP_NAME}; a test hook may change it. */
    static volatile long oversubscribedYieldNs = Long.getLong(OVERSUBSCRIBED_YIELD_NS_PROP_NAME,
        OVERSUBSCRIBED_YIELD_NS_DEFAULT);
    private static final ThreadLocal<AdaptiveSpin> CURRENT = ThreadLocal.withInitial(AdaptiveSpin::new);
    /** CPUs of the machine (not only those this process may run on: a rank bound to one core has a core). */
    static final int ONLINE_CPUS = onlineCpus();
    /** Whether the job in this process has more ranks than the machine has CPUs ({@link #jobRanks}). */
    private static volatile boolean oversubscribed;

    private long spinNs = Math.min(MAX_NS, Math.max(MIN_NS, INITIAL_NS));
    private int yieldPause;
    private long waitStartNs;
    /** Whether {@link #waitStartNs} is set: the clock is read first at the 64th spin, or when asked for. */
    private boolean clocked;
    private boolean spunOut;
    private boolean yielding;
    private int yieldsDone;

    /**
     * @return the calling thread's instance, ready for a wait that starts now.
     */
    static AdaptiveSpin begin() {
        final AdaptiveSpin spin = CURRENT.get();
        // NOTE: no clock read here: a wait that ends within 64 spins (a latency-bound exchange) reads none at all.
        spin.clocked = false;
        spin.spunOut = false;
        spin.yielding = false;
        spin.yieldsDone = 0;
        if (spin.yieldPause > 0) {
            spin.yieldPause--;
        }
        return spin;
    }

    /**
     * @return when the current wait began ({@link System#nanoTime()}): its first clock read (at the 64th spin, or
     *         now); the spins before it are not counted.
     */
    long waitStartNs() {
        if (!clocked) {
            sinceStartNs();
        }
        return waitStartNs;
    }

    /**
     * @return the time since the wait's first clock read, which this read is if there was none (one clock read).
     */
    private long sinceStartNs() {
        final long now = System.nanoTime();
        if (!clocked) {
            waitStartNs = now;
            clocked = true;
        }
        return now - waitStartNs;
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
            // NOTE: with more ranks than CPUs, 16 spins are the whole spin, a poll before the first yield. Else the
            // clock is read every 64 spins: a spin is a few to tens of nanoseconds, a clock read 20 to 60 (profiles of
            // a spinning fence showed half its samples in clock_gettime when it was read every 16).
            if (oversubscribed ? (iteration & 15) != 15 : (iteration & 63) != 63 || sinceStartNs() < spinNs) {
                Thread.onSpinWait();
                return true;
            }
            spunOut = true;
            if (yields == 0 || yieldPause > 0 && !oversubscribed) {
                return false;
            }
            yielding = true;
        }
        return oversubscribed ? yieldWhileYoung() : yieldOnce(yields);
    }

    /**
     * A yield of a wait of a job with more ranks than CPUs, whatever the yields before it cost.
     *
     * @return false once the wait is {@link #oversubscribedYieldNs} old: it should sleep.
     */
    private boolean yieldWhileYoung() {
        if (sinceStartNs() >= oversubscribedYieldNs) {
            return false;
        }
        Thread.yield();
        yieldsDone++;
        return true;
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
            return false;
        }
        return true;
    }

    /**
     * The current wait ended (its condition came true): learns the spin budget from its duration.
     */
    void ended() {
        if (!clocked) {
            if (spunOut) {
                ended(MAX_NS); // with more ranks than CPUs, spun out without a clock read: the budget shrinks
            }
            return; // ended within its first 64 spins: the budget stands
        }
        ended(System.nanoTime() - waitStartNs);
    }

    /**
     * {@link #ended()} for a wait that took {@code waitedNs}.
     */
    void ended(final long waitedNs) {
        if (!spunOut) {
            spinNs = Math.min(MAX_NS, Math.max(spinNs, 2 * waitedNs));
        } else if (!oversubscribed && waitedNs < MAX_NS) {
            spinNs = Math.min(MAX_NS, Math.max(MIN_NS, 2 * waitedNs));
        } else if (oversubscribed || yieldPause > 0) {
            spinNs = Math.max(MIN_NS, spinNs / 2);
        }
        // NOTE: else a long wait on a machine with cores to spare: the budget stands (class comment).
    }

    long spinNs() {
        return spinNs;
    }

    /**
     * @return yields of the current wait so far.
     */
    int yieldsDone() {
        return yieldsDone;
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
}
