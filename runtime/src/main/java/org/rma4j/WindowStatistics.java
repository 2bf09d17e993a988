package org.rma4j;

import java.util.Arrays;
import java.util.Objects;

/**
 * A snapshot of one rank's counters of one window: operations and bytes per target, and the blocking
 * calls it made with their total time. rma4j's analogue of the MPI tool information interface's
 * performance variables (MPI_T pvars, MPI-3.1 section 14.3.7): counters a tool reads while the program
 * runs, without changing what it does. Obtained from {@link Window#statistics()}.
 *
 * <p>Immutable. The counts are this rank's as origin: a put to rank 2 counts in
 * {@code operations(PUT, 2)} of the putting rank, not of rank 2. Operations to
 * {@link Rma#PROC_NULL} and calls that fail their checks are not counted. A snapshot taken while other
 * threads of the rank communicate on the window may miss their latest operations (each count is read
 * once, not all at one instant).
 *
 * <p>Counting is off by default: a process started with {@code -Drma4j.statistics=true}
 * ({@link #ENABLED_PROP_NAME}; e.g. {@code rmarun --jvm-opt=-Drma4j.statistics=true}) counts, at about 1 ns per
 * operation; in any other process {@link Window#statistics()} throws {@link RmaException} OTHER and the
 * operations pay nothing for the counters.
 */
public final class WindowStatistics {
    /**
     * The system property that turns the counters of every window of the process on ({@code true}) or off (any
     * other value, and the default). Read once, when the first window is created.
     */
    public static final String ENABLED_PROP_NAME = "rma4j.statistics";

    /** The kinds of operation counted. */
    public enum Operation {
        /** put, rput, typed put (MPI_PUT, MPI_RPUT). */
        PUT,
        /** get, rget, typed get (MPI_GET, MPI_RGET). */
        GET,
        /** accumulate and getAccumulate (MPI_ACCUMULATE, MPI_GET_ACCUMULATE and their request forms). */
        ACCUMULATE,
        /** fetchAndOp and compareAndSwap (MPI_FETCH_AND_OP, MPI_COMPARE_AND_SWAP). */
        ATOMIC,
        /** Notified accesses: putNotify, getNotify, accumulateNotify, fetchAndOpNotify. */
        NOTIFIED
    }

    /** The kinds of blocking call counted, with their time. */
    public enum Wait {
        /** lock (MPI_WIN_LOCK), without MODE_NOCHECK. */
        LOCK,
        /** lockAll (MPI_WIN_LOCK_ALL), without MODE_NOCHECK. */
        LOCK_ALL,
        /** fence (MPI_WIN_FENCE); its time only while a JFR recording enables {@code org.rma4j.Fence}. */
        FENCE,
        /** start (MPI_WIN_START), without MODE_NOCHECK; its time only while a recording enables {@code org.rma4j.PscwStart}. */
        START,
        /** wait (MPI_WIN_WAIT); its time only while a recording enables {@code org.rma4j.PscwWait}. */
        WAIT,
        /** NotifyRequest await, and waitAny / waitAll over requests of this window only. */
        NOTIFICATION,
        /** A notified access that found this rank's notification lane at its target full and waited for room. */
        FULL_LANE
    }

    private static final int OPERATIONS = Operation.values().length;
    private static final int WAITS = Wait.values().length;

    private final int window;
    private final int rank;
    private final int ranks;
    private final long[] operations;
    private final long[] waits;

    /**
     * @param operations per operation kind and target, count then bytes: index
     *                   {@code ((kind * ranks) + target) * 2}.
     * @param waits      per wait kind, count then nanoseconds: index {@code kind * 2}.
     */
    WindowStatistics(final int window, final int rank, final int ranks, final long[] operations, final long[] waits) {
        this.window = window;
        this.rank = rank;
        this.ranks = ranks;
        this.operations = operations.clone();
        this.waits = waits.clone();
    }

    /**
     * @return the window's number in its job (in order of creation, from 0).
     */
    public int window() {
        return window;
    }

    /**
     * @return the rank these counters are of.
     */
    public int rank() {
        return rank;
    }

    /**
     * @return the number of ranks of the window (targets 0 .. ranks - 1).
     */
    public int ranks() {
        return ranks;
    }

    /**
     * @return the number of operations of {@code kind} this rank made to {@code target}.
     * @throws RmaException RANK for a target outside the window.
     */
    public long operations(final Operation kind, final int target) {
        return operations[index(kind, target)];
    }

    /**
     * @return the bytes of target memory the operations of {@code kind} to {@code target} spanned.
     * @throws RmaException RANK for a target outside the window.
     */
    public long bytes(final Operation kind, final int target) {
        return operations[index(kind, target) + 1];
    }

    /**
     * @return the number of operations of {@code kind} to every target.
     */
    public long operations(final Operation kind) {
        long sum = 0;
        for (int target = 0; target < ranks; target++) {
            sum += operations(kind, target);
        }
        return sum;
    }

    /**
     * @return the bytes of the operations of {@code kind} to every target.
     */
    public long bytes(final Operation kind) {
        long sum = 0;
        for (int target = 0; target < ranks; target++) {
            sum += bytes(kind, target);
        }
        return sum;
    }

    /**
     * @return the number of blocking calls of {@code kind} made (whether or not they had to wait).
     */
    public long waits(final Wait kind) {
        return waits[Objects.requireNonNull(kind, "kind").ordinal() * 2];
    }

    /**
     * @return the total time in nanoseconds spent in the blocking calls of {@code kind}. LOCK and LOCK_ALL
     *         calls are timed only while a JFR recording enables {@code org.rma4j.LockWait}, NOTIFICATION
     *         calls only while one enables {@code org.rma4j.NotifyWait}, FULL_LANE waits only while one enables
     *         {@code org.rma4j.FullNotifyLane} (timing an uncontended lock, an await whose notification has
     *         arrived, or a lane that has room again after a few spins, would double its cost); their count is
     *         always kept.
     */
    public long waitNs(final Wait kind) {
        return waits[Objects.requireNonNull(kind, "kind").ordinal() * 2 + 1];
    }

    private int index(final Operation kind, final int target) {
        Objects.requireNonNull(kind, "kind");
        if (target < 0 || target >= ranks) {
            throw new RmaException(ErrorClass.RANK,
                "statistics of target " + target + " of a window of " + ranks + " ranks");
        }
        return (kind.ordinal() * ranks + target) * 2;
    }

    static int operationKinds() {
        return OPERATIONS;
    }

    static int waitKinds() {
        return WAITS;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof WindowStatistics that && window == that.window && rank == that.rank
            && ranks == that.ranks && Arrays.equals(operations, that.operations) && Arrays.equals(waits, that.waits);
    }

    @Override
    public int hashCode() {
        return Objects.hash(window, rank, ranks, Arrays.hashCode(operations), Arrays.hashCode(waits));
    }

    /**
     * @return e.g. {@code "window 0 of rank 1: PUT 3 ops 24 B [0: 3/24]; LOCK 2 waits 0.1 ms"}, non-zero
     *         counters only.
     */
    @Override
    public String toString() {
        final StringBuilder text = new StringBuilder("window ").append(window).append(" of rank ").append(rank)
            .append(':');
        for (final Operation kind : Operation.values()) {
            if (operations(kind) == 0) {
                continue;
            }
            text.append(' ').append(kind).append(' ').append(operations(kind)).append(" ops ").append(bytes(kind))
                .append(" B [");
            String separator = "";
            for (int target = 0; target < ranks; target++) {
                if (operations(kind, target) != 0) {
                    text.append(separator).append(target).append(": ").append(operations(kind, target)).append('/')
                        .append(bytes(kind, target));
                    separator = ", ";
                }
            }
            text.append("];");
        }
        for (final Wait kind : Wait.values()) {
            if (waits(kind) != 0) {
                text.append(' ').append(kind).append(' ').append(waits(kind)).append(" waits ")
                    .append(String.format(java.util.Locale.ROOT, "%.3f ms", waitNs(kind) / 1e6)).append(';');
            }
        }
        return text.toString();
    }
}
