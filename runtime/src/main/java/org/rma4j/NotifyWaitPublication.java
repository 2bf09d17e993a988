package org.rma4j;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.rma4j.events.RmaWaitEvent;
import org.rma4j.events.Waits;
import org.rma4j.shm.ControlFile;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.WaitState;

/**
 * The waits on one rank's notification endpoint of one window (a {@link NotifyRequest} await, waitAny,
 * waitAll, and the Messaging receives and sends that wait on the endpoint of their Messaging object) as
 * the launcher's reports see them and as JFR events and window counters record them.
 *
 * <p>As {@link WaitPublication} does for locks and PSCW: {@link #begin} only records the wait in this
 * object; the wait's liveness check ({@link #liveness}, on the slow path of the ring's wait) writes the
 * rank's wait state in the control file once; {@link #end} clears it if it was written. The outermost
 * wait of a thread names the wait: a Messaging receive waits on a notification request of its own, and is
 * reported as the receive.
 *
 * <p>Thread-safe (the endpoint's waits may run in several threads of the rank); the first of concurrent
 * waits is the one reported (a diagnostic, never a synchronization). Lock-free, as {@link #begin} runs at
 * every wait: the reported thread is the one whose CAS set {@link #waiter}; only that thread reads and
 * writes the wait's fields until its {@link #end} gives {@code waiter} back with a release store.
 */
final class NotifyWaitPublication {
    private static final VarHandle WAITER;

    static {
        try {
            WAITER = MethodHandles.lookup().findVarHandle(NotifyWaitPublication.class, "waiter", Thread.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ControlFile control;
    private final int rank;
    private final WindowState window;
    /** The thread whose wait is recorded, or null. */
    @SuppressWarnings("unused")
    private volatile Thread waiter;
    /** The recorded wait (written and read by {@link #waiter} only). */
    private WaitState.Call call;
    private int peer;
    private int tag;
    private boolean published;
    private volatile Liveness publishing;

    NotifyWaitPublication(final ControlFile control, final int rank, final WindowState window) {
        this.control = control;
        this.rank = rank;
        this.window = window;
    }

    /**
     * MPI_WAIT on a notification request: {@link Notifications#awaitComplete} with its wait published,
     * recorded as a {@code org.rma4j.NotifyWait} event and counted.
     */
    static void awaitComplete(final Notifications endpoint, final NotifyRequest request) {
        final NotifyWaitPublication waits = endpoint.waits;
        final RmaWaitEvent event = Waits.begin(Waits.NOTIFY_WAIT);
        if (endpoint.completeNow(request)) {
            // NOTE: no wait, nothing to publish: counted unless it runs inside another recorded wait (a Messaging
            // receive's) or beside one, as the waits below are only when outermost.
            if ((Thread)WAITER.getOpaque(waits) == null) {
                waits.window.counters().end(event, request.source(), request.tag(), "NotifyRequest.await");
            }
            return;
        }
        final boolean outermost = waits.begin(WaitState.Call.NOTIFY_WAIT, request.source(), request.tag());
        try {
            endpoint.awaitComplete(request);
        } finally {
            waits.end(outermost);
            if (outermost) {
                waits.window.counters().end(event, request.source(), request.tag(), "NotifyRequest.await");
            }
        }
    }

    /**
     * MPI_WAITANY over requests of one endpoint: {@link Notifications#awaitAny}, published, recorded and
     * counted as {@link #awaitComplete}; the source and tag are the requests' if they all have the same,
     * else any.
     */
    static int awaitAny(final Notifications endpoint, final NotifyRequest[] requests) {
        int source = Integer.MIN_VALUE;
        int tag = Integer.MIN_VALUE;
        for (final NotifyRequest request : requests) {
            if (request != null) {
                source = source == Integer.MIN_VALUE || source == request.source() ? request.source() : Rma.ANY_SOURCE;
                tag = tag == Integer.MIN_VALUE || tag == request.tag() ? request.tag() : Rma.ANY_TAG;
            }
        }
        final NotifyWaitPublication waits = endpoint.waits;
        final RmaWaitEvent event = Waits.begin(Waits.NOTIFY_WAIT);
        final boolean outermost = waits.begin(WaitState.Call.NOTIFY_WAIT, source, tag);
        try {
            return endpoint.awaitAny(requests);
        } finally {
            waits.end(outermost);
            if (outermost) {
                waits.window.counters().end(event, source, tag, "NotifyRequest.waitAny");
            }
        }
    }

    /**
     * A Messaging receive or send waiting on this endpoint (its Messaging object's), published, and
     * recorded as a {@code org.rma4j.MessagingReceive} or {@code MessagingSend} event.
     *
     * @param peer the source (or {@link Rma#ANY_SOURCE}) or destination.
     */
    static void messagingWait(final NotifyWaitPublication waits, final boolean send, final int peer, final int tag,
        final Runnable wait) {
        final RmaWaitEvent event = Waits.begin(send ? Waits.SEND : Waits.RECV);
        final boolean outermost = waits.begin(send ? WaitState.Call.SEND : WaitState.Call.RECV, peer, tag);
        try {
            wait.run();
        } finally {
            waits.end(outermost);
            if (outermost) {
                Waits.end(event, waits.rank, -1, peer, tag, send ? "Messaging send" : "Messaging recv");
            }
        }
    }

    /**
     * A wait of {@code call} for {@code peer} and {@code tag} may begin.
     *
     * @return whether this is the outermost wait of this thread on the endpoint and no other thread's wait is
     *         recorded: pass it to {@link #end}.
     */
    boolean begin(final WaitState.Call call, final int peer, final int tag) {
        final Thread me = Thread.currentThread();
        if ((Thread)WAITER.getOpaque(this) != null || !WAITER.compareAndSet(this, null, me)) {
            return false;
        }
        this.call = call;
        this.peer = peer;
        this.tag = tag;
        return true;
    }

    /**
     * @param peers the endpoint's liveness check.
     * @return {@code peers} preceded by the publication of the wait of the calling thread.
     */
    Liveness liveness(final Liveness peers) {
        Liveness wrapped = publishing;
        if (wrapped == null) {
            wrapped = () -> {
                publish();
                peers.check();
            };
            publishing = wrapped;
        }
        return wrapped;
    }

    private void publish() {
        if ((Thread)WAITER.getOpaque(this) != Thread.currentThread() || published) {
            return;
        }
        // NOTE: a Messaging wait names no window: the window is its Messaging object's, not one of the program's.
        final int number = call == WaitState.Call.NOTIFY_WAIT ? window.number() : -1;
        control.publishWait(rank, new WaitState(call, number, peer, tag, System.currentTimeMillis()));
        published = true;
    }

    /**
     * The wait begun with {@link #begin} is over (done or failed).
     */
    void end(final boolean outermost) {
        if (!outermost) {
            return;
        }
        call = null;
        if (published) {
            published = false;
            control.clearWait(rank);
        }
        WAITER.setRelease(this, null);
    }
}
