package org.rma4j.shm;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.IntPredicate;

/**
 * How a blocked caller waits for a {@link WaitWords wait word} to reach a state.
 *
 * <p>{@link Kind#ADAPTIVE} (the default) spins for a time budget learned from the thread's recent waits,
 * yields while yielding is cheap, then sleeps on the word's futex ({@link AdaptiveSpin}); {@link Kind#BACKOFF} spins {@link #spins()} times,
 * yields {@link #yields()} times, then sleeps. Both wake at least every {@link #LIVENESS_PERIOD_NS} to run
 * their {@link Liveness} check: with more ranks than cores no waiter burns a core or depends on being
 * scheduled. {@link Kind#BUSY_SPIN} never sleeps (lowest latency, one core per waiter) and runs the
 * liveness check on the same period.
 *
 * <p>A strategy may carry a timeout ({@link #TIMEOUT_PROP_NAME} job-wide, or {@link #withTimeout}):
 * a wait that lasts longer throws {@link WaitTimeoutException}. The timeout is checked with the
 * liveness checks, so it is honoured to within {@link #LIVENESS_PERIOD_NS}.
 *
 * <p>A strategy may carry a <em>poller</em> ({@link #withPoller}): work that must go on while a thread waits,
 * such as driving the progress of a network library whose peers' operations are applied only while some
 * thread of this process calls into it. It runs at every round of the active phase of a wait (every spin or
 * yield) and before every sleep; the word or condition is checked after it. With a <em>polling time</em>
 * ({@link #withPoller(Runnable, long)}) a wait whose active phase is over keeps polling and yielding, without
 * sleeping, for that long (or for ever), as an MPI library's blocking calls do.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class WaitStrategy {
    /** System property selecting the kind: {@code adaptive}, {@code backoff} or {@code busy-spin}. */
    public static final String KIND_PROP_NAME = "rma4j.wait";
    /** Default kind. */
    public static final String KIND_DEFAULT = "adaptive";
    /** System property: spins before yielding. */
    public static final String SPINS_PROP_NAME = "rma4j.wait.spins";
    /** Default spins before yielding. */
    public static final int SPINS_DEFAULT = 200;
    /** System property: yields before sleeping. */
    public static final String YIELDS_PROP_NAME = "rma4j.wait.yields";
    /** Default yields before sleeping. */
    public static final int YIELDS_DEFAULT = 50;

    /** System property: job-wide timeout of every blocking call in milliseconds (0: none). */
    public static final String TIMEOUT_PROP_NAME = "rma4j.wait.timeout.ms";
    /** Default timeout: none. */
    public static final long TIMEOUT_DEFAULT = 0;

    /** First park of {@link #awaitPolled} once spinning and yielding are over. */
    public static final long POLL_PARK_MIN_NS = TimeUnit.MICROSECONDS.toNanos(10);
    /** Longest park of {@link #awaitPolled}: how late it may see its condition become true. */
    public static final long POLL_PARK_MAX_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /** Longest a waiter goes without checking its peers' liveness. */
    public static final long LIVENESS_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(100);
    /**
     * A waiter that neither sleeps nor parks reads the clock for its liveness and timeout checks once per
     * {@code CHECK_SPINS + 1} rounds (a mask): about every few to tens of microseconds, far within
     * {@link #LIVENESS_PERIOD_NS}, while a clock read per few rounds would be a large share of a spin.
     */
    private static final long CHECK_SPINS = 1023;
    /** A wait's polling phase has not started (or the strategy has none). */
    private static final long NOT_POLLING = Long.MIN_VALUE;

    /**
     * System property, a test mode: {@code true} makes a wait throw {@link IllegalStateException} when its
     * futex sleep ran out {@link #LIVENESS_PERIOD_NS} and the condition was then found true, i.e. the
     * condition came true without the wake that must follow it (a lost wake-up, which otherwise costs only
     * latency because sleepers re-check every period).
     */
    public static final String LOST_WAKE_UP_FAILS_PROP_NAME = "rma4j.wait.lostWakeUpFails";
    /** Default: a lost wake-up is only counted. */
    public static final boolean LOST_WAKE_UP_FAILS_DEFAULT = false;

    /** The waiting policies. */
    public enum Kind {
        /**
         * Spin for a time budget learned from this thread's recent waits, yield up to {@link #yields()} times
         * while yields return quickly, then futex sleep ({@link AdaptiveSpin}).
         */
        ADAPTIVE,
        /** Spin a fixed number of times, then yield a fixed number of times, then futex sleep. */
        BACKOFF,
        /** Spin only. */
        BUSY_SPIN
    }

    private static final WaitStrategy DEFAULT = fromSystemProperties();
    /** An epoch offset that means none: the signal word has no sleep epoch (its writers use {@link WaitWords#signal}). */
    public static final long NO_EPOCH = -1;
    private static final boolean LOST_WAKE_UP_FAILS = Boolean
        .parseBoolean(System.getProperty(LOST_WAKE_UP_FAILS_PROP_NAME, Boolean.toString(LOST_WAKE_UP_FAILS_DEFAULT)));
    /** Sleeps that ran out their period and then found the condition true, in this JVM. */
    private static final AtomicLong RECHECK_WAKES = new AtomicLong();

    private final Kind kind;
    private final int spins;
    private final int yields;
    private final long timeoutNs;
    /** Run at every round of a wait, or null. */
    private final Runnable poller;
    /** With a poller: how long a wait polls and yields after its active phase before it sleeps; < 0: for ever. */
    private final long pollingNs;

    /**
     * @param kind   the policy.
     * @param spins  spins before yielding (BACKOFF) or between time checks (BUSY_SPIN).
     * @param yields yields before sleeping (BACKOFF).
     */
    public WaitStrategy(final Kind kind, final int spins, final int yields) {
        this(kind, spins, yields, 0);
    }

    /**
     * @param kind      the policy.
     * @param spins     spins before yielding (BACKOFF) or between time checks (BUSY_SPIN).
     * @param yields    yields before sleeping (BACKOFF).
     * @param timeoutNs longest wait before {@link WaitTimeoutException}; 0 for none.
     */
    public WaitStrategy(final Kind kind, final int spins, final int yields, final long timeoutNs) {
        this(kind, spins, yields, timeoutNs, null, 0);
    }

    private WaitStrategy(final Kind kind, final int spins, final int yields, final long timeoutNs,
        final Runnable poller, final long pollingNs) {
        if (spins < 0 || yields < 0 || timeoutNs < 0) {
            throw new IllegalArgumentException(
                "spins=" + spins + ", yields=" + yields + " and timeoutNs=" + timeoutNs + " must be >= 0");
        }
        this.kind = kind;
        this.spins = spins;
        this.yields = yields;
        this.timeoutNs = timeoutNs;
        this.poller = poller;
        this.pollingNs = pollingNs;
    }

    /**
     * @return the same strategy with a timeout (0: none).
     */
    public WaitStrategy withTimeout(final long timeoutNs) {
        return new WaitStrategy(kind, spins, yields, timeoutNs, poller, pollingNs);
    }

    /**
     * @param poller run at every round of the active phase of a wait and before every sleep (see the class
     *               comment); it must not block, and what it throws ends the wait.
     * @return the same strategy with {@code poller}.
     */
    public WaitStrategy withPoller(final Runnable poller) {
        return withPoller(poller, 0);
    }

    /**
     * @param poller    as in {@link #withPoller(Runnable)}.
     * @param pollingNs how long a wait goes on polling and yielding once its active phase is over, before it
     *                  sleeps: 0 sleeps at once, as without a poller; a negative value never sleeps (the poller
     *                  runs at every round of every wait, at the price of a core per waiting thread).
     * @return the same strategy with {@code poller}.
     */
    public WaitStrategy withPoller(final Runnable poller, final long pollingNs) {
        return new WaitStrategy(kind, spins, yields, timeoutNs, java.util.Objects.requireNonNull(poller, "poller"),
            pollingNs);
    }

    /**
     * @return how long a wait polls after its active phase before it sleeps (0: not at all, negative: for ever).
     */
    public long pollingNs() {
        return pollingNs;
    }

    /**
     * @return the poller of this strategy, or null.
     */
    public Runnable poller() {
        return poller;
    }

    /**
     * @return the longest a wait may take before {@link WaitTimeoutException}, 0 for no limit.
     */
    public long timeoutNs() {
        return timeoutNs;
    }

    /**
     * @return the strategy configured by the {@code rma4j.wait*} system properties.
     */
    public static WaitStrategy defaultStrategy() {
        return DEFAULT;
    }

    /**
     * @return a strategy that never sleeps.
     */
    public static WaitStrategy busySpin() {
        return new WaitStrategy(Kind.BUSY_SPIN, SPINS_DEFAULT, 0);
    }

    public Kind kind() {
        return kind;
    }

    public int spins() {
        return spins;
    }

    public int yields() {
        return yields;
    }

    /**
     * Waits until {@code done} accepts the int value of the wait word at {@code offset}, read with
     * volatile semantics, and returns that value. Returns at once if it already does.
     *
     * @param segment  the mapping holding the wait word.
     * @param offset   offset of the word's value (the sleeper count follows it).
     * @param done     the condition on the value.
     * @param liveness run at least every {@link #LIVENESS_PERIOD_NS} while waiting.
     * @return the accepted value.
     * @throws PeerFailedException from {@code liveness}.
     */
    public int awaitInt(final MemorySegment segment, final long offset, final IntPredicate done,
        final Liveness liveness) {
        final int first = Words.getIntVolatile(segment, offset);
        if (done.test(first)) {
            return first;
        }
        // NOTE: the awaited word is its own signal word: a writer changes it, then wakes announced
        // sleepers (WaitWords.wakeAll), and a sleeper's futex wait returns at once if it changed since read.
        final int[] accepted = {first};
        awaitCondition(segment, offset, () -> {
            final int value = Words.getIntVolatile(segment, offset);
            accepted[0] = value;
            return done.test(value);
        }, liveness, false, false, NO_EPOCH, null);
        return accepted[0];
    }

    /**
     * {@link #awaitInt} for a caller that keeps its condition in an object of its own, made once: waits until
     * {@code done} returns true, where {@code done} reads the wait word at {@code offset} itself (its writers change
     * the word, then wake announced sleepers, {@link WaitWords#wakeAll}). Allocates nothing, unlike a predicate
     * that captures the value it waits to pass.
     *
     * @throws PeerFailedException from {@code liveness}.
     */
    public void awaitWord(final MemorySegment segment, final long offset, final BooleanSupplier done,
        final Liveness liveness) {
        awaitCondition(segment, offset, done, liveness, false, false, NO_EPOCH, null);
    }

    /**
     * Waits until {@code done} returns true, sleeping on the signal word at {@code signalOffset} once
     * spinning and yielding are over. For conditions that are not a function of one word (a ring's
     * next slot, say): writers make the condition true and then call {@link WaitWords#signal}, which
     * bumps the signal word and wakes sleepers only when a sleeper announced itself.
     *
     * @param segment      the mapping holding the signal word.
     * @param signalOffset offset of the signal wait word.
     * @param done         the condition, evaluated with whatever ordering it needs (acquire loads).
     * @param liveness     run at least every {@link #LIVENESS_PERIOD_NS} while waiting.
     * @throws PeerFailedException from {@code liveness}.
     */
    public void awaitCondition(final MemorySegment segment, final long signalOffset, final BooleanSupplier done,
        final Liveness liveness) {
        awaitCondition(segment, signalOffset, done, liveness, false);
    }

    /**
     * {@link #awaitCondition(MemorySegment, long, BooleanSupplier, Liveness)} for conditions whose writers may
     * signal with {@link WaitWords#signalAsymmetric}: with {@code asymmetric} true, a waiter about to sleep
     * issues {@link Membarrier#globalExpedited()} between announcing itself and re-checking the condition,
     * instead of a full fence (the protocol in {@link WaitWords}). The system call costs microseconds, on the
     * way to a futex sleep only.
     *
     * @param asymmetric whether writers may skip their fence (requires
     *                   {@link Membarrier#isGlobalExpeditedSupported()}).
     * @throws IllegalStateException if {@code asymmetric} and the membarrier call fails.
     */
    public void awaitCondition(final MemorySegment segment, final long signalOffset, final BooleanSupplier done,
        final Liveness liveness, final boolean asymmetric) {
        awaitCondition(segment, signalOffset, done, liveness, asymmetric, true, NO_EPOCH, null);
    }

    /**
     * {@link #awaitCondition(MemorySegment, long, BooleanSupplier, Liveness, boolean)} for a signal word whose
     * writers wake at most once per sleep ({@link WaitWords#signalOnce}): before sleeping, a waiter records the
     * signal value it will sleep on at {@code epochOffset} (after announcing itself, before its fence).
     *
     * @param epochOffset offset of the word's sleep epoch (an int beside the wait word).
     */
    public void awaitCondition(final MemorySegment segment, final long signalOffset, final BooleanSupplier done,
        final Liveness liveness, final boolean asymmetric, final long epochOffset) {
        awaitCondition(segment, signalOffset, done, liveness, asymmetric, true, epochOffset, null);
    }

    /**
     * {@link #awaitCondition(MemorySegment, long, BooleanSupplier, Liveness, boolean, long)} that runs
     * {@code beforeSleep} before each sleep, ahead of the announcement and its fence: for a waiter that must
     * tell its writers to signal it (a flag they load after making the condition true), but need not while it
     * spins, so that a short wait writes nothing the writers read.
     */
    public void awaitCondition(final MemorySegment segment, final long signalOffset, final BooleanSupplier done,
        final Liveness liveness, final boolean asymmetric, final long epochOffset, final Runnable beforeSleep) {
        awaitCondition(segment, signalOffset, done, liveness, asymmetric, true, epochOffset, beforeSleep);
    }

    /**
     * @param signalApart whether the signal word is apart from the condition (a writer bumps it only to wake a
     *                    sleeper it saw), so that a bump seen after a timed-out sleep proves a late wake, not a
     *                    lost one; false where the word is the condition itself ({@link #awaitInt}).
     */
    private void awaitCondition(final MemorySegment segment, final long signalOffset, final BooleanSupplier done,
        final Liveness liveness, final boolean asymmetric, final boolean signalApart, final long epochOffset,
        final Runnable beforeSleep) {
        if (done.getAsBoolean()) {
            return;
        }
        final AdaptiveSpin adaptive = kind == Kind.ADAPTIVE ? AdaptiveSpin.begin() : null;
        // NOTE: otherwise the clock is first read at the first periodic check: a wait that ends within a
        // few spins, the common case of a latency-bound exchange, then reads no clock at all.
        long startNs = 0;
        long lastCheckNs = 0;
        boolean clockStarted = false;
        boolean sleeping = false;
        long pollingSinceNs = NOT_POLLING;
        long iteration = 0;
        while (true) {
            poll();
            if (!sleeping) {
                if (pollingSinceNs != NOT_POLLING) {
                    sleeping = !pollOn(pollingSinceNs);
                } else if (!backOff(iteration, adaptive)) {
                    pollingSinceNs = startPolling();
                    sleeping = pollingSinceNs == NOT_POLLING;
                }
            }
            if (sleeping
                && sleepOnSignal(segment, signalOffset, done, asymmetric, signalApart, epochOffset, beforeSleep)
                || done.getAsBoolean()) {
                if (adaptive != null && pollingSinceNs == NOT_POLLING) {
                    adaptive.ended();
                }
                return;
            }
            iteration++;
            if ((iteration & CHECK_SPINS) == 0 || sleeping) {
                final long now = System.nanoTime();
                if (!clockStarted) {
                    clockStarted = true;
                    startNs = adaptive != null ? adaptive.waitStartNs() : now;
                    // a waiter that already slept a period checks at once, as before its first sleep
                    lastCheckNs = sleeping ? now - LIVENESS_PERIOD_NS : startNs;
                }
                if (now - lastCheckNs >= LIVENESS_PERIOD_NS) {
                    if (periodicCheck(done, liveness, startNs, now, null, signalOffset)) {
                        return;
                    }
                    lastCheckNs = now;
                }
            }
        }
    }

    /**
     * One sleep of {@link #awaitCondition}: runs {@code beforeSleep} (if not null), announces a sleeper on the
     * signal word, fences (a membarrier if {@code asymmetric}), re-checks {@code done} and sleeps on the word for at
     * most one liveness period.
     *
     * @return whether {@code done} held (the wait is over).
     */
    private boolean sleepOnSignal(final MemorySegment segment, final long signalOffset, final BooleanSupplier done,
        final boolean asymmetric, final boolean signalApart, final long epochOffset, final Runnable beforeSleep) {
        if (beforeSleep != null) {
            beforeSleep.run();
        }
        final int signal = Words.getIntVolatile(segment, signalOffset);
        final boolean woken;
        WaitWords.addSleeper(segment, signalOffset);
        if (epochOffset != NO_EPOCH) {
            // NOTE: before the fence, like the announcement: a writer that sees this sleeper sees the epoch too.
            WaitWords.recordEpoch(segment, epochOffset, signal);
        }
        try {
            // NOTE: announce first, then re-check: a writer that made the condition true after
            // this check sees the sleeper, bumps the signal and wakes this thread. The fence keeps
            // the condition's loads (often acquire loads, which may move before a volatile RMW in
            // the Java memory model) after the announcement, pairing with the fence in signal. The
            // asymmetric form also orders every registered writer's release store and its load of the
            // sleeper count around this point (WaitWords, "Asymmetric protocol").
            if (asymmetric) {
                Membarrier.globalExpedited();
            } else {
                VarHandle.fullFence();
            }
            if (done.getAsBoolean()) {
                return true;
            }
            woken = Futex.wait(segment, signalOffset, signal, LIVENESS_PERIOD_NS);
        } finally {
            WaitWords.removeSleeper(segment, signalOffset);
        }
        if (!woken && done.getAsBoolean()) {
            // NOTE: a writer that saw this sleeper bumped the value before waking it; one that did so just after the
            // sleep timed out was late, not lost.
            if (!signalApart || Words.getIntVolatile(segment, signalOffset) == signal) {
                recheckWake(signalOffset);
            }
            return true;
        }
        return false;
    }

    /**
     * One step of the active phase of a wait: a spin or a yield.
     *
     * @return false once the active phase is over and the waiter should sleep.
     */
    private boolean backOff(final long iteration, final AdaptiveSpin adaptive) {
        switch (kind) {
            case BUSY_SPIN -> Thread.onSpinWait();
            case ADAPTIVE -> {
                return adaptive.step(iteration, yields);
            }
            case BACKOFF -> {
                if (iteration < spins) {
                    Thread.onSpinWait();
                } else if (iteration < (long)spins + yields) {
                    Thread.yield();
                } else {
                    return false;
                }
            }
            default -> throw new IllegalStateException(kind.toString());
        }
        return true;
    }

    /**
     * Waits until {@code done} returns true when there is no single word to sleep on (a condition over
     * several mappings): spins and yields as {@link #awaitCondition} does, then parks for a period that
     * grows from {@link #POLL_PARK_MIN_NS} to {@link #POLL_PARK_MAX_NS}, so a long wait costs little CPU and
     * an event is seen within {@code POLL_PARK_MAX_NS}. Runs {@code liveness} and honours the timeout like
     * every other wait ({@link Kind#BUSY_SPIN} never parks).
     *
     * @param done     the condition.
     * @param liveness run at least every {@link #LIVENESS_PERIOD_NS} while waiting.
     * @param what     what is awaited, for the timeout's message.
     * @throws PeerFailedException from {@code liveness}.
     * @throws WaitTimeoutException naming {@code what}.
     */
    public void awaitPolled(final BooleanSupplier done, final Liveness liveness, final String what) {
        if (done.getAsBoolean()) {
            return;
        }
        final AdaptiveSpin adaptive = kind == Kind.ADAPTIVE ? AdaptiveSpin.begin() : null;
        final long startNs = System.nanoTime();
        long lastCheckNs = startNs;
        long parkNs = POLL_PARK_MIN_NS;
        boolean parking = false;
        long pollingSinceNs = NOT_POLLING;
        long iteration = 0;
        while (true) {
            poll();
            if (!parking) {
                if (pollingSinceNs != NOT_POLLING) {
                    parking = !pollOn(pollingSinceNs);
                } else if (!backOff(iteration, adaptive)) {
                    pollingSinceNs = startPolling();
                    parking = pollingSinceNs == NOT_POLLING;
                }
            }
            if (parking) {
                LockSupport.parkNanos(parkNs);
                parkNs = Math.min(POLL_PARK_MAX_NS, parkNs * 2);
            }
            if (done.getAsBoolean()) {
                if (adaptive != null && pollingSinceNs == NOT_POLLING) {
                    adaptive.ended();
                }
                return;
            }
            iteration++;
            if ((iteration & CHECK_SPINS) == 0 || parking) {
                final long now = System.nanoTime();
                if (now - lastCheckNs >= LIVENESS_PERIOD_NS) {
                    if (periodicCheck(done, liveness, startNs, now, what, -1)) {
                        return;
                    }
                    lastCheckNs = now;
                }
            }
        }
    }

    private void poll() {
        final Runnable work = poller;
        if (work != null) {
            work.run();
        }
    }

    /**
     * The end of a wait's active phase: starts its polling phase if the strategy has one.
     *
     * @return the polling phase's start, or {@link #NOT_POLLING} if the wait should sleep now.
     */
    private long startPolling() {
        if (poller == null || pollingNs == 0) {
            return NOT_POLLING;
        }
        Thread.yield();
        return System.nanoTime();
    }

    /**
     * One round of a polling phase (the poller ran): yields.
     *
     * @return false once the phase is over and the wait should sleep.
     */
    private boolean pollOn(final long sinceNs) {
        if (pollingNs > 0 && System.nanoTime() - sinceNs >= pollingNs) {
            return false;
        }
        Thread.yield();
        return true;
    }

    /**
     * @return how many sleeps in this JVM ran out {@link #LIVENESS_PERIOD_NS} and then found their
     *         condition true: wakes that arrived only through the periodic re-check.
     */
    static long recheckWakes() {
        return RECHECK_WAKES.get();
    }

    private static void recheckWake(final long signalOffset) {
        RECHECK_WAKES.incrementAndGet();
        if (LOST_WAKE_UP_FAILS) {
            throw new IllegalStateException(
                "lost wake-up: the condition signalled through the word at offset " + signalOffset
                    + " came true while its sleeper was not woken (" + LOST_WAKE_UP_FAILS_PROP_NAME + "=true)");
        }
    }

    /**
     * The periodic part of a wait: runs {@code liveness}, then checks the timeout. A failure or timeout
     * is thrown only if {@code done} is still false (the event may have come meanwhile).
     *
     * @param what         what is awaited, for the timeout's message, or null for the word at
     *                     {@code signalOffset}.
     * @return true if {@code done} became true while a failure or timeout was being raised.
     */
    private boolean periodicCheck(final BooleanSupplier done, final Liveness liveness, final long startNs,
        final long nowNs, final String what, final long signalOffset) {
        try {
            liveness.check();
        } catch (final PeerFailedException e) {
            if (done.getAsBoolean()) {
                return true;
            }
            throw e;
        }
        if (timedOut(startNs, nowNs)) {
            if (done.getAsBoolean()) {
                return true;
            }
            throw what != null
                ? new WaitTimeoutException(what, nowNs - startNs)
                : timeout(startNs, nowNs, signalOffset);
        }
        return false;
    }

    private boolean timedOut(final long startNs, final long nowNs) {
        return timeoutNs > 0 && nowNs - startNs >= timeoutNs;
    }

    private static WaitTimeoutException timeout(final long startNs, final long nowNs, final long offset) {
        return new WaitTimeoutException("the word at offset " + offset + " of a shared mapping to change",
            nowNs - startNs);
    }

    private static WaitStrategy fromSystemProperties() {
        final String kind = System.getProperty(KIND_PROP_NAME, KIND_DEFAULT).trim().toLowerCase(Locale.ROOT);
        final int spins = Integer.getInteger(SPINS_PROP_NAME, SPINS_DEFAULT);
        final int yields = Integer.getInteger(YIELDS_PROP_NAME, YIELDS_DEFAULT);
        final long timeoutNs = Long.getLong(TIMEOUT_PROP_NAME, TIMEOUT_DEFAULT) * 1_000_000L;
        return switch (kind) {
            case "adaptive" -> new WaitStrategy(Kind.ADAPTIVE, spins, yields, timeoutNs);
            case "backoff" -> new WaitStrategy(Kind.BACKOFF, spins, yields, timeoutNs);
            case "busy-spin", "busyspin", "spin" -> new WaitStrategy(Kind.BUSY_SPIN, spins, 0, timeoutNs);
            default -> throw new IllegalArgumentException(
                KIND_PROP_NAME + "=" + kind + " is not one of adaptive, backoff, busy-spin");
        };
    }

    @Override
    public String toString() {
        return "WaitStrategy{" + kind + ", spins=" + spins + ", yields=" + yields
            + (timeoutNs > 0 ? ", timeout=" + timeoutNs / 1_000_000 + " ms" : "") + (poller != null ? ", polling" : "")
            + '}';
    }
}
