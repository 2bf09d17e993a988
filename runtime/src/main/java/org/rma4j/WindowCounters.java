package org.rma4j;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.rma4j.events.RmaWaitEvent;
import org.rma4j.events.Waits;

/**
 * One rank's counters of one window, read as {@link WindowStatistics} (the MPI_T performance variables
 * of rma4j): operations and bytes per target, blocking calls and their time. The window's operation
 * paths call {@link #count(int, int, long)} with a constant kind and its blocking calls {@link #end}, one line
 * each.
 *
 * <p>Threads: communication calls on one window may run in several threads of the rank (see
 * {@link Window}), so the counters are striped per thread, as a {@code LongAdder} stripes its cells:
 * each thread counts in cells of its own (a {@code ThreadLocal}, registered for the snapshot on the
 * thread's first count) with plain increments published by opaque stores; the cells of the thread that
 * counted last are cached in a field, so that a window used by one thread at a time (the usual case)
 * finds them with one comparison. A snapshot sums every thread's cells with opaque loads. The cost on
 * the op path is that comparison and two increments of fields in one cache line (about 1 ns of an
 * uncontended fetch-and-op's 10; bench/README), and the code of that comparison, the increments and their exits
 * to the interpreter, which made a contiguous put's compiled code too large for its callers to inline. So
 * counting is off unless {@link WindowStatistics#ENABLED_PROP_NAME} is true for the process: {@link #ENABLED} is
 * a constant, so the JIT drops the counting from every path when it is off (as MPICH builds its MPI_T
 * performance variables out unless configured with them, and Open MPI its software performance counters unless
 * configured with {@code --enable-spc}).
 */
final class WindowCounters {
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    /** Operation kind of {@link #count(int, int, long)}: {@link WindowStatistics.Operation#PUT}. */
    static final int PUT = 0;
    /** {@link WindowStatistics.Operation#GET}. */
    static final int GET = 1;
    /** {@link WindowStatistics.Operation#ACCUMULATE}. */
    static final int ACCUMULATE = 2;
    /** {@link WindowStatistics.Operation#ATOMIC}. */
    static final int ATOMIC = 3;
    /** {@link WindowStatistics.Operation#NOTIFIED}. */
    static final int NOTIFIED = 4;

    static {
        // NOTE: the operation kinds are constants, so the op path indexes its cells without a lookup.
        if (WindowStatistics.Operation.PUT.ordinal() != PUT || WindowStatistics.Operation.GET.ordinal() != GET
            || WindowStatistics.Operation.ACCUMULATE.ordinal() != ACCUMULATE
            || WindowStatistics.Operation.ATOMIC.ordinal() != ATOMIC
            || WindowStatistics.Operation.NOTIFIED.ordinal() != NOTIFIED) {
            throw new AssertionError("WindowStatistics.Operation and WindowCounters differ");
        }
        // NOTE: the window's wait kinds are the first kinds of Waits, in the same order.
        if (WindowStatistics.Wait.LOCK.ordinal() != Waits.LOCK
            || WindowStatistics.Wait.LOCK_ALL.ordinal() != Waits.LOCK_ALL
            || WindowStatistics.Wait.FENCE.ordinal() != Waits.FENCE
            || WindowStatistics.Wait.START.ordinal() != Waits.START
            || WindowStatistics.Wait.WAIT.ordinal() != Waits.WAIT
            || WindowStatistics.Wait.NOTIFICATION.ordinal() != Waits.NOTIFY_WAIT
            || WindowStatistics.Wait.FULL_LANE.ordinal() != Waits.FULL_LANE) {
            throw new AssertionError("WindowStatistics.Wait and Waits differ");
        }
    }

    /** Whether this process counts: {@link WindowStatistics#ENABLED_PROP_NAME}, read once. */
    static final boolean ENABLED = Boolean.parseBoolean(setting());

    /** {@link Waits#FENCE}. */
    static final int FENCE = Waits.FENCE;
    /** {@link Waits#FULL_LANE}. */
    static final int FULL_LANE = Waits.FULL_LANE;
    /** {@link Waits#BARRIER}. */
    static final int BARRIER = Waits.BARRIER;

    private final int window;
    private final int rank;
    private final int ranks;
    private final List<Cells> cells = new CopyOnWriteArrayList<>();
    private final ThreadLocal<Cells> threadCells;
    /** The cells of the thread that counted last (a racy cache: each Cells names its thread). */
    private Cells recent;

    /** One thread's counters. */
    private static final class Cells {
        final Thread thread = Thread.currentThread();
        /** Per operation kind and target: count, bytes (see {@link WindowStatistics}). */
        final long[] operations;
        /** Per wait kind: count, nanoseconds. */
        final long[] waits = new long[WindowStatistics.waitKinds() * 2];

        Cells(final int ranks) {
            operations = new long[WindowStatistics.operationKinds() * ranks * 2];
        }
    }

    WindowCounters(final int window, final int rank, final int ranks) {
        this.window = window;
        this.rank = rank;
        this.ranks = ranks;
        this.threadCells = ThreadLocal.withInitial(() -> {
            final Cells mine = new Cells(ranks);
            cells.add(mine);
            return mine;
        });
        this.recent = threadCells.get();
    }

    /**
     * Counts one operation of {@code call} to {@code target} over {@code bytes} of target memory, if
     * {@code place} is not null (null: PROC_NULL, nothing done).
     *
     * @return {@code place}.
     */
    <T> T counted(final String call, final int target, final long bytes, final T place) {
        if (place != null) {
            count(call, target, bytes);
        }
        return place;
    }

    /**
     * Counts one operation of {@code call} to {@code target} over {@code bytes} of target memory.
     */
    void count(final String call, final int target, final long bytes) {
        if (!ENABLED) {
            return;
        }
        final int kind = kindOf(call);
        if (kind >= 0) {
            count(kind, target, bytes);
        }
    }

    /**
     * Counts one operation of {@code kind} ({@link #PUT}, {@link #GET}, {@link #ACCUMULATE}, {@link #ATOMIC},
     * {@link #NOTIFIED}) to {@code target} over {@code bytes} of target memory: the op path's form.
     */
    void count(final int kind, final int target, final long bytes) {
        if (!ENABLED) {
            return;
        }
        final long[] operations = cells().operations;
        final int index = (kind * ranks + target) * 2;
        add(operations, index, 1);
        add(operations, index + 1, bytes);
    }

    /**
     * Ends the event of a blocking call begun with {@link Waits#begin} and counts the call.
     */
    void end(final RmaWaitEvent event, final int peer, final int tag, final String call) {
        final long durationNs = Waits.end(event, rank, window, peer, tag, call);
        final int kind = event.kind();
        if (ENABLED && kind < WindowStatistics.waitKinds()) {
            final long[] waits = cells().waits;
            add(waits, kind * 2, 1);
            if (durationNs > 0) {
                add(waits, kind * 2 + 1, durationNs);
            }
        }
    }

    /**
     * Counts a blocking call of {@code kind} (a window's {@link Waits} kind) that was not timed.
     */
    void countWait(final int kind) {
        if (!ENABLED) {
            return;
        }
        add(cells().waits, kind * 2, 1);
    }

    /**
     * Begins the event of a blocking call of {@code kind} (a {@link Waits} kind): {@link Waits#begin}.
     */
    static RmaWaitEvent begin(final int kind) {
        return Waits.begin(kind);
    }

    /**
     * Ends the event of a blocking call on the job (no window, no peer): {@link Waits#end}.
     */
    static void endOnJob(final RmaWaitEvent event, final int rank, final String call) {
        Waits.end(event, rank, -1, -1, -1, call);
    }

    /**
     * @throws RmaException OTHER if this process does not count ({@link #ENABLED}).
     */
    WindowStatistics snapshot() {
        if (!ENABLED) {
            throw new RmaException(ErrorClass.OTHER,
                "window statistics are off in this process (-D" + WindowStatistics.ENABLED_PROP_NAME + "=" + setting()
                    + "); run it with -D" + WindowStatistics.ENABLED_PROP_NAME + "=true (off by default)");
        }
        final long[] operations = new long[WindowStatistics.operationKinds() * ranks * 2];
        final long[] waits = new long[WindowStatistics.waitKinds() * 2];
        for (final Cells thread : cells) {
            sum(operations, thread.operations);
            sum(waits, thread.waits);
        }
        return new WindowStatistics(window, rank, ranks, operations, waits);
    }

    private static String setting() {
        return System.getProperty(WindowStatistics.ENABLED_PROP_NAME, "false");
    }

    private Cells cells() {
        Cells mine = recent;
        if (mine.thread != Thread.currentThread()) {
            mine = threadCells.get();
            recent = mine;
        }
        return mine;
    }

    private static void add(final long[] counters, final int index, final long delta) {
        // NOTE: one writer per cell (its thread): a plain read, an opaque store for the snapshot's opaque load.
        LONGS.setOpaque(counters, index, counters[index] + delta);
    }

    private static void sum(final long[] into, final long[] from) {
        for (int i = 0; i < into.length; i++) {
            into[i] += (long)LONGS.getOpaque(from, i);
        }
    }

    @SuppressWarnings("StringEquality")
    private static int kindOf(final String call) {
        // NOTE: the window passes its calls' names as literals (interned): the usual one matches by identity,
        // without the string switch's hash and equals.
        if (call == "putNotify") {
            return NOTIFIED;
        }
        return switch (call) {
            case "put" -> PUT;
            case "get" -> GET;
            case "accumulate", "getAccumulate" -> ACCUMULATE;
            case "fetchAndOp", "compareAndSwap" -> ATOMIC;
            case "putNotify", "getNotify", "accumulateNotify", "fetchAndOpNotify", "putNotifyCounter",
                "getNotifyCounter", "accumulateNotifyCounter" -> NOTIFIED;
            default -> -1;
        };
    }
}
