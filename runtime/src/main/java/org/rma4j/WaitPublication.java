package org.rma4j;

import org.rma4j.events.RmaWaitEvent;
import org.rma4j.shm.ControlFile;
import org.rma4j.shm.WaitState;

/**
 * Publishes the point-to-point wait (lock, lockAll, PSCW start and wait) a rank is blocked in as its
 * {@link WaitState}, for the launcher's reports of a hung job. {@link #begin} only records the call in
 * this object (plain stores, the fast path); the wait's liveness check calls {@link #publish} on the
 * slow path, which writes the control file once per wait (again only if the awaited peer changed);
 * {@link #end} clears the control file only if something was published.
 *
 * <p>Not thread-safe: one per window; threads that lock the same window concurrently may report each
 * other's wait (a diagnostic, never a synchronization).
 */
final class WaitPublication {
    private final ControlFile control;
    private final int rank;
    private final int window;
    private WaitState.Call call;
    private int peer;
    private boolean published;
    private long sinceMillis;
    private final WindowCounters counters;
    private RmaWaitEvent event;

    WaitPublication(final ControlFile control, final int rank, final int window, final WindowCounters counters) {
        this.counters = counters;
        this.control = control;
        this.rank = rank;
        this.window = window;
    }

    /**
     * A wait of {@code call} for {@code peer} may begin.
     */
    void begin(final WaitState.Call call, final int peer) {
        this.call = call;
        this.peer = peer;
        this.event = WindowCounters.begin(WindowCounters.kindOf(call));
    }

    /**
     * From the wait's liveness check: publishes the wait, unless it is published already for the same peer.
     *
     * @param awaited the peer waited for now (for PSCW, the first whose post or complete is missing).
     */
    void publish(final int awaited) {
        if (call == null || published && awaited == peer) {
            return;
        }
        if (!published) {
            sinceMillis = System.currentTimeMillis();
        }
        peer = awaited;
        control.publishWait(rank, new WaitState(call, window, awaited, 0, sinceMillis));
        published = true;
    }

    /**
     * From the wait's liveness check: publishes the wait for the peer given to {@link #begin}.
     */
    void publish() {
        publish(peer);
    }

    /**
     * The wait is over (done or failed).
     */
    void end() {
        counters.end(event, peer, -1, call.callName());
        call = null;
        if (published) {
            published = false;
            control.clearWait(rank);
        }
    }
}
