package org.rma4j;

import java.time.Duration;
import java.util.Objects;
import org.rma4j.shm.WaitStrategy;

/**
 * How the blocking calls of a thread-mode job wait ({@link Rma#callThreads(int, java.nio.file.Path,
 * WaitOptions, Rma.RankFunction)}). Processes started by {@code rmarun} take the same settings from system
 * properties: {@code -Drma4j.wait=adaptive|backoff|busy-spin}, {@code -Drma4j.wait.spins=N},
 * {@code -Drma4j.wait.yields=N}, {@code -Drma4j.wait.timeout.ms=N}.
 *
 * <p>Every kind checks the liveness of the ranks waited for at least every 100 ms, so a failed peer ends
 * a wait with {@link RankFailedException}; a timeout ends it with {@link RmaTimeoutException}.
 *
 * <p>Immutable.
 */
public final class WaitOptions {
    /** How a waiting rank uses its core. */
    public enum Kind {
        /** Spins for a budget learned from recent waits, yields, then sleeps on a futex (the default). */
        ADAPTIVE,
        /** Spins {@link #spins()} times, yields {@link #yields()} times, then sleeps on a futex. */
        BACKOFF,
        /** Never sleeps: lowest latency, one core per waiting rank. */
        BUSY_SPIN
    }

    private final WaitStrategy strategy;

    private WaitOptions(final WaitStrategy strategy) {
        this.strategy = strategy;
    }

    /**
     * @return the settings of the system properties above (adaptive, no timeout when none is set).
     */
    public static WaitOptions defaults() {
        return new WaitOptions(WaitStrategy.defaultStrategy());
    }

    /**
     * @return {@link Kind#BUSY_SPIN} without timeout.
     */
    public static WaitOptions busySpin() {
        return new WaitOptions(WaitStrategy.busySpin());
    }

    /**
     * @param kind   how to wait.
     * @param spins  spins before yielding (BACKOFF) or between time checks (BUSY_SPIN), >= 0.
     * @param yields yields before sleeping (BACKOFF), >= 0.
     * @throws RmaException ARG for a null kind or a negative count.
     */
    public static WaitOptions of(final Kind kind, final int spins, final int yields) {
        if (kind == null || spins < 0 || yields < 0) {
            throw new RmaException(ErrorClass.ARG, "wait options kind=" + kind + ", spins=" + spins + ", yields="
                + yields + ": the kind must be given and the counts must be >= 0");
        }
        return new WaitOptions(new WaitStrategy(WaitStrategy.Kind.valueOf(kind.name()), spins, yields));
    }

    /**
     * @param timeout the longest any blocking call waits before it throws {@link RmaTimeoutException};
     *                {@link Duration#ZERO}: no timeout.
     * @return these options with that timeout.
     * @throws RmaException ARG for a negative timeout.
     */
    public WaitOptions withTimeout(final Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new RmaException(ErrorClass.ARG, "wait timeout " + timeout + " is negative");
        }
        return new WaitOptions(strategy.withTimeout(timeout.toNanos()));
    }

    /**
     * @return how a waiting rank uses its core.
     */
    public Kind kind() {
        return Kind.valueOf(strategy.kind().name());
    }

    /**
     * @return spins before yielding (BACKOFF) or between time checks (BUSY_SPIN).
     */
    public int spins() {
        return strategy.spins();
    }

    /**
     * @return yields before sleeping (BACKOFF).
     */
    public int yields() {
        return strategy.yields();
    }

    /**
     * @return the timeout of every blocking call, {@link Duration#ZERO} for none.
     */
    public Duration timeout() {
        return Duration.ofNanos(strategy.timeoutNs());
    }

    /**
     * @return the strategy of the shared-memory layer these options select.
     */
    WaitStrategy strategy() {
        return strategy;
    }

    @Override
    public String toString() {
        return "WaitOptions{" + strategy + '}';
    }
}
