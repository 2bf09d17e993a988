package org.rma4j;

import org.rma4j.events.RmaWaitEvent;
import org.rma4j.events.Waits;
import org.rma4j.shm.ControlFile;
import org.rma4j.shm.WaitState;

/**
 * Publishes the point-to-point wait (lock, lockAll, PSCW start and wait) a rank is blocked in as its
 * {@link WaitState}, for the launcher's reports of a hung job. {@link #begin} only records the call in
 * this object (plain stores of ints, the fast path: no reference is stored unless a recording times the
 * call); the wait's liveness check calls {@link #publish} on the slow path, which writes the control file
 * once per wait (again only if the awaited peer changed); {@link #end} counts the call in the window's
 * statistics and clears the control file only if something was published.
 *
 * <p>Not thread-safe: one per window; threads that lock the same window concurrently may report each
 * other's wait (a diagnostic, never a synchronization).
 */
final class WaitPublication {
    /** {@link #kind} while no wait is in progress. */
    private static final int NONE = -1;
    /** The published call of each {@link Waits} kind a window waits in (null: not one of these). */
    private static final WaitState.Call[] CALLS = new WaitState.Call[Waits.KINDS];

    static {
        CALLS[Waits.LOCK] = WaitState.Call.LOCK;
        CALLS[Waits.LOCK_ALL] = WaitState.Call.LOCK_ALL;
        CALLS[Waits.START] = WaitState.Call.START;
        CALLS[Waits.WAIT] = WaitState.Call.WAIT;
    }

    private final ControlFile control;
    private final int rank;
    private final int window;
    private final WindowCounters counters;
    /** The {@link Waits} kind of the wait in progress, or {@link #NONE}. */
    private int kind = NONE;
    /** The peer waited for now. */
    private int peer;
    /** The peer named in the control file while {@link #published}. */
    private int publishedPeer;
    private boolean published;
    private long sinceMillis;
    /** The event of a wait a recording times, else null. */
    private RmaWaitEvent event;

    WaitPublication(final ControlFile control, final int rank, final int window, final WindowCounters counters) {
        this.counters = counters;
        this.control = control;
        this.rank = rank;
        this.window = window;
    }

    /**
     * A wait of {@code kind} ({@link Waits#LOCK}, {@link Waits#LOCK_ALL}, {@link Waits#START}, {@link Waits#WAIT})
     * for {@code peer} may begin. The caller passes a constant kind, one of those.
     */
    void begin(final int kind, final int peer) {
        assert CALLS[kind] != null : "no published wait of kind " + kind;
        this.kind = kind;
        this.peer = peer;
        if (Waits.timed(kind)) {
            // NOTE: a reference store (with the collector's barriers) only while a recording times the call: an
            // uncontended lock + unlock costs about as much as these stores.
            event = Waits.begin(kind);
        }
    }

    /**
     * From the wait's liveness check: publishes the wait, unless it is published already for the same peer.
     *
     * @param awaited the peer waited for now (for PSCW, the first whose post or complete is missing).
     */
    void publish(final int awaited) {
        if (kind == NONE || published && awaited == publishedPeer) {
            return;
        }
        if (!published) {
            sinceMillis = System.currentTimeMillis();
        }
        peer = awaited;
        publishedPeer = awaited;
        control.publishWait(rank, new WaitState(CALLS[kind], window, awaited, 0, sinceMillis));
        published = true;
    }

    /**
     * The wait goes on for {@code peer} (lockAll, from one target's lock to the next); the next liveness check
     * publishes it.
     */
    void awaiting(final int peer) {
        this.peer = peer;
    }

    /**
     * From the wait's liveness check: publishes the wait for the peer given to {@link #begin} or
     * {@link #awaiting}.
     */
    void publish() {
        publish(peer);
    }

    /**
     * A blocking call of {@code kind} that did not have to wait (no {@link #begin}): counted as one that did.
     */
    void countUnblocked(final int kind) {
        counters.countWait(kind);
    }

    /**
     * The wait is over (done or failed).
     */
    void end() {
        final RmaWaitEvent timed = event;
        if (timed == null) {
            counters.countWait(kind);
        } else {
            event = null;
            counters.end(timed, peer, -1, CALLS[kind].callName());
        }
        kind = NONE;
        if (published) {
            published = false;
            control.clearWait(rank);
        }
    }
}
