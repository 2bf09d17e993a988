package org.rma4j.events;

/**
 * The one begin / end helper of the wait events: a blocking call begins its event with
 * {@link #begin(int)} and ends it with {@link #end}, which commits it if it is enabled and lasted at
 * least its threshold, and returns the call's duration for the window's wait counters.
 *
 * <p>Cost: {@link #begin} allocates one small event object and reads {@link System#nanoTime()} (for
 * the window's wait counters), then {@link #end} reads it again; with no recording, or below the
 * threshold, nothing else happens. The calls that often return without waiting, or whose whole cost is
 * a few clock reads (lock and lockAll, fence and barrier, PSCW's start and wait, a notification request's
 * await and waitAny, a notified access waiting for room in its lane, a Messaging receive or send), are timed only
 * while a recording enables their event;
 * else they are only counted.
 * Safe from any thread: each timed call has its own event object.
 */
public final class Waits {
    /** lock (MPI_WIN_LOCK). */
    public static final int LOCK = 0;
    /** lockAll (MPI_WIN_LOCK_ALL). */
    public static final int LOCK_ALL = 1;
    /** fence (MPI_WIN_FENCE). */
    public static final int FENCE = 2;
    /** start (MPI_WIN_START). */
    public static final int START = 3;
    /** wait (MPI_WIN_WAIT). */
    public static final int WAIT = 4;
    /** NotifyRequest await, waitAny, waitAll. */
    public static final int NOTIFY_WAIT = 5;
    /** A notified access waiting for room in its lane at the target. */
    public static final int FULL_LANE = 6;
    /** barrier (MPI_BARRIER). */
    public static final int BARRIER = 7;
    /** A Messaging receive. */
    public static final int RECV = 8;
    /** A Messaging send. */
    public static final int SEND = 9;
    /** The number of kinds. */
    public static final int KINDS = 10;

    /**
     * The default threshold of every rma4j event: a call that waits less is not recorded, so that a
     * recording of a busy job is not flooded by uncontended locks and fences. A settings file (such as
     * the runtime's {@code rma4j.jfc}) may lower it to {@code 0 ms}.
     */
    public static final String DEFAULT_THRESHOLD = "1 ms";

    /**
     * Per kind timed only while a recording enables its event: the shared stand-in of an untimed call, and an
     * instance that tells whether the event type is enabled (null for the kinds that are always timed).
     */
    private static final RmaWaitEvent[] UNTIMED = new RmaWaitEvent[KINDS];
    private static final RmaWaitEvent[] PROBES = new RmaWaitEvent[KINDS];

    static {
        for (final int kind : new int[] {LOCK, LOCK_ALL, FENCE, START, WAIT, BARRIER, NOTIFY_WAIT, FULL_LANE, RECV,
            SEND}) {
            UNTIMED[kind] = untimed(kind);
            PROBES[kind] = create(kind);
        }
    }

    private Waits() {
    }

    private static RmaWaitEvent untimed(final int kind) {
        final RmaWaitEvent event = create(kind);
        event.kind = kind;
        event.untimed = true;
        return event;
    }

    /**
     * @return whether a blocking call of {@code kind} is timed now: always for the kinds not named in the class
     *         comment, for those only while a recording enables their event.
     */
    public static boolean timed(final int kind) {
        final RmaWaitEvent probe = kind >= 0 && kind < KINDS ? PROBES[kind] : null;
        return probe == null || probe.isEnabled();
    }

    /**
     * Begins the event of a blocking call of {@code kind}.
     *
     * @return the event, to pass to {@link #end}.
     */
    public static RmaWaitEvent begin(final int kind) {
        if (!timed(kind)) {
            // NOTE: an uncontended lock + unlock, or an await whose notification is there, costs about as much as
            // two clock reads: such calls are timed only while a recording enables their event.
            return UNTIMED[kind];
        }
        final RmaWaitEvent event = create(kind);
        event.kind = kind;
        event.startNs = System.nanoTime();
        event.begin();
        return event;
    }

    private static RmaWaitEvent create(final int kind) {
        return switch (kind) {
            case LOCK, LOCK_ALL -> new LockWaitEvent();
            case FENCE -> new FenceEvent();
            case START -> new PscwStartEvent();
            case WAIT -> new PscwWaitEvent();
            case NOTIFY_WAIT -> new NotifyWaitEvent();
            case FULL_LANE -> new FullLaneEvent();
            case BARRIER -> new BarrierEvent();
            case RECV -> new MessagingReceiveEvent();
            case SEND -> new MessagingSendEvent();
            default -> throw new IllegalArgumentException("no wait event of kind " + kind);
        };
    }

    /**
     * Ends the event of a blocking call; commits it if a recording enables it and the call lasted at least
     * the event's threshold.
     *
     * @param event  from {@link #begin}.
     * @param rank   the rank that waited.
     * @param window the window's number, or -1 for a call on the job.
     * @param peer   the rank waited for, or -1.
     * @param tag    the tag waited for, or -1.
     * @param call   the call, e.g. {@code "lock(EXCLUSIVE)"}.
     * @return the call's duration in nanoseconds, or -1 for a call that was not timed (no recording enables
     *         its event; see the class comment).
     */
    public static long end(final RmaWaitEvent event, final int rank, final int window, final int peer, final int tag,
        final String call) {
        if (event.untimed) {
            return -1;
        }
        final long durationNs = System.nanoTime() - event.startNs;
        event.end();
        if (event.shouldCommit()) {
            event.rank = rank;
            event.window = window;
            event.peer = peer;
            event.tag = tag;
            event.call = call;
            event.commit();
        }
        return durationNs;
    }
}
