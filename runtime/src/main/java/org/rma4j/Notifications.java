package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.rma4j.internal.WindowLayout;
import org.rma4j.notify.Matcher;
import org.rma4j.notify.Notification;
import org.rma4j.notify.NotificationHandler;
import org.rma4j.notify.NotifyRing;
import org.rma4j.notify.ProducerLiveness;
import org.rma4j.shm.ControlFile;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.WaitStrategy;

/**
 * One rank's notification endpoint of one window (Notified Access, Belli and Hoefler, sections III and
 * IV): the ring it consumes, producer handles on the other ranks' rings, the unexpected queue and the
 * started requests.
 *
 * <p>Arrival: {@link #progress()} drains the ring in arrival order. The data of a notified access is in
 * this rank's window before its notification is published (the origin writes it at the call); the
 * notification goes to the oldest started request that matches it, or to the unexpected queue. A request that starts takes matching notifications from the
 * unexpected queue first, oldest first, so matching order is arrival order throughout.
 *
 * <p>Sending: a full target ring is back-pressure, never deadlock: the sender keeps draining its own
 * ring into its unexpected queue while it waits for space, so two ranks filling each other's rings
 * both progress.
 *
 * <p>Thread-safe: the monitor guards the ring's consumer side, the unexpected queue and the active
 * requests, and is held only for bounded work (a drain of one lap, a match), never across a sleep. A
 * thread that waits drains and checks completion in one hold of the monitor, then waits on the ring's
 * signal word without it; a drain that completes a request while some thread waits signals that word.
 */
final class Notifications {
    /** Kinds of notified access, in the ring entry's user flags. */
    static final int KIND_PUT = 1;
    static final int KIND_GET = 2;
    static final int KIND_ACCUMULATE = 3;
    private final WindowState window;
    private final int rank;
    private final int capacity;
    private final ControlFile control;
    private final WaitStrategy waitStrategy;
    private final Liveness liveness;
    final NotifyWaitPublication waits;
    private final NotifyRing own;
    private final NotifyRing[] outgoing;
    private final Matcher unexpected = new Matcher();
    private final List<NotifyRequest> active = new ArrayList<>();
    private final NotificationHandler handler = this::arrived;
    private long skippedSlots;
    /** Threads of this rank in a wait on this endpoint (guarded by the monitor). */
    private int waiters;
    /** Whether the current drain completed a request (guarded by the monitor). */
    private boolean completedInDrain;
    /** Test hook: runs after a waiter's drain-and-check step, before it waits (never under the monitor). */
    private volatile Runnable beforeWait = () -> {
    };
    /** Test hook: runs when a send first finds its target's ring full, before it waits for room. */
    private volatile Runnable onFullRing = () -> {
    };

    Notifications(final WindowState window, final MemorySegment mapping, final int rank, final int ranks,
        final int capacity, final ControlFile control, final WaitStrategy waitStrategy, final Liveness liveness) {
        this.window = window;
        this.rank = rank;
        this.capacity = capacity;
        this.control = control;
        this.waitStrategy = waitStrategy;
        this.liveness = liveness;
        this.waits = new NotifyWaitPublication(control, rank, window);
        this.own = new NotifyRing(mapping, WindowLayout.notifyRingOffset(ranks, capacity, rank), capacity, rank,
            ProducerLiveness.of(control::isDead, () -> IntStream.range(0, ranks).anyMatch(control::isDead)),
            (index, producer) -> skipped(producer), NotifyRing.STUCK_CHECK_INTERVAL_NS_DEFAULT);
        this.outgoing = new NotifyRing[ranks];
        for (int target = 0; target < ranks; target++) {
            outgoing[target] = new NotifyRing(mapping, WindowLayout.notifyRingOffset(ranks, capacity, target), capacity,
                rank);
        }
    }

    /**
     * Sends one notification to {@code target}, waiting for ring space if needed. While the target's ring
     * is full this rank keeps draining its own ring (the target may be waiting for room in it), and waits
     * through the window's wait strategy: liveness of the target, the job's timeout, busy-spin honoured.
     */
    void notify(final String call, final int target, final int tag, final long displacement, final int length,
        final int flags, final MemorySegment inline) {
        final NotifyRing ring = outgoing[target];
        if (ring.offer(rank, tag, displacement, length, flags, inline)) {
            return;
        }
        final var fullRingEvent = WindowCounters.begin(WindowCounters.FULL_RING);
        onFullRing.run();
        final String what = call + ": room in the full notification ring of rank " + target;
        try {
            waitStrategy.awaitPolled(() -> {
                // NOTE: drain our own ring while the target's is full: the target may be waiting for room in ours.
                progress();
                return ring.offer(rank, tag, displacement, length, flags, inline);
            }, () -> {
                window.checkOpen(call);
                control.checkPeer(target, true);
            }, what);
        } catch (final RuntimeException e) {
            throw Failures.translate(e, rank, what);
        }
        window.counters().end(fullRingEvent, target, tag, call);
    }

    /**
     * Publishes, in this rank's own ring, a notification of {@code origin}, a rank on another node whose notified
     * access already took effect here (its request, applied by this rank's {@link TargetAgent}).
     *
     * @return false if the ring is full (nothing published; the agent offers it again later).
     */
    boolean deliver(final int origin, final int tag, final long displacement, final int length, final int flags) {
        return outgoing[rank].offer(origin, tag, displacement, length, flags, null);
    }

    /**
     * Drains the ring, one lap at most, and matches each arrival. One lap (every entry published when the
     * call began) so that producers refilling the ring as fast as it drains cannot keep one call moving
     * their notifications into the unbounded unexpected queue.
     */
    synchronized void progress() {
        drain(null, null);
    }

    /**
     * Drains the ring until {@code request} is complete, one lap at most (see {@link #progress()}).
     */
    synchronized void progressFor(final NotifyRequest request) {
        drain(request, null);
    }

    /**
     * Drains until {@code request} (if not null) is complete or one of {@code requests} (if not null) is,
     * one lap at most. Stopping at the completion leaves later arrivals in the ring instead of moving them
     * to the unexpected queue: the next request started takes them straight from the ring, without the
     * queue's copy and look-ups, and a full ring holds producers back. Arrival order is kept either way
     * (see {@link #start}). Caller holds the monitor.
     */
    private void drain(final NotifyRequest request, final NotifyRequest[] requests) {
        completedInDrain = false;
        if (request == null && requests == null) {
            own.drain(handler, capacity);
        } else {
            for (int i = 0; i < capacity && !done(request, requests) && own.drain(handler, 1) == 1; i++) {
                // one arrival at a time: the completion is checked between two
            }
        }
        if (completedInDrain && waiters > 0) {
            // NOTE: after the request's volatile completion: a waiting thread either sees it in its re-check
            // after announcing itself as a sleeper, or is woken here.
            own.wakeWaiters();
        }
    }

    private static boolean done(final NotifyRequest request, final NotifyRequest[] requests) {
        return request != null ? request.isComplete() : NotifyRequest.anyComplete(requests);
    }

    /**
     * Matches waiting notifications to a starting request, then lists it as active if it is not done. Only
     * the unexpected queue is searched; the ring is left to the next test or await. Arrival order is kept:
     * everything queued arrived before anything still in the ring, no active request matches a queued
     * notification, and the next drain offers the ring's entries to the active requests in start order,
     * the matching a drain before the start would give. A consumer with a backlog thus leaves new
     * notifications in the ring, whose being full holds the producers back.
     */
    synchronized void start(final NotifyRequest request) {
        takeUnexpected(request);
        if (!request.isComplete()) {
            active.add(request);
        }
    }

    private void takeUnexpected(final NotifyRequest request) {
        while (!request.isComplete()) {
            final Optional<Notification> waiting = unexpected.takeOldest(matcherSource(request.source()),
                matcherTag(request.tag()));
            if (waiting.isEmpty()) {
                break;
            }
            final Notification n = waiting.get();
            request.matched(n.source(), n.tag(), n.displacement(), n.length());
        }
    }

    synchronized void cancel(final NotifyRequest request) {
        active.remove(request);
    }

    /**
     * Drains and waits until {@code request} is complete. The drain and the completion check are one step
     * under this endpoint's monitor; the wait holds no monitor, so other threads of the rank can drain and
     * send meanwhile, and a thread that completes the request for this one wakes it.
     */
    void awaitComplete(final NotifyRequest request) {
        while (true) {
            synchronized (this) {
                drain(request, null);
                if (request.isComplete()) {
                    return;
                }
                waiters++;
            }
            try {
                beforeWait.run();
                own.await(waitStrategy, () -> request.isComplete() || headReady(), waits.liveness(liveness));
            } finally {
                leaveWait();
            }
        }
    }

    /**
     * MPI_WAITANY over requests of this endpoint: drains, then returns the index of the first complete
     * active request (-1 if none is active), in one step under the monitor; waits as
     * {@link #awaitComplete} does when none is complete.
     */
    int awaitAny(final NotifyRequest[] requests) {
        while (true) {
            synchronized (this) {
                drain(null, requests);
                final int done = NotifyRequest.firstComplete(requests);
                if (done != NotifyRequest.NONE_COMPLETE) {
                    return done;
                }
                waiters++;
            }
            try {
                beforeWait.run();
                own.await(waitStrategy, () -> NotifyRequest.anyComplete(requests) || headReady(),
                    waits.liveness(liveness));
            } finally {
                leaveWait();
            }
        }
    }

    /**
     * For waits over several endpoints: drains once (under the monitor).
     */
    synchronized void drainForWait() {
        progress();
    }

    /**
     * For waits over several endpoints: whether a notification waits in the ring, without draining it.
     */
    synchronized boolean headReady() {
        return own.isHeadReady();
    }

    /**
     * For waits over several endpoints: the liveness check of this endpoint's window.
     */
    void checkLiveness(final String call) {
        window.checkOpen(call);
        liveness.check();
    }

    /**
     * Sets the hook a waiting thread runs between its drain-and-check step and its wait (for tests that
     * force a notification or a second thread into that gap).
     */
    void beforeWait(final Runnable hook) {
        beforeWait = hook;
    }

    /**
     * Sets the hook a sending thread runs when it first finds its target's ring full (for tests that
     * let the target make room only once the sender waits for it).
     */
    void onFullRing(final Runnable hook) {
        onFullRing = hook;
    }

    int rank() {
        return rank;
    }

    WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    private synchronized void leaveWait() {
        waiters--;
    }

    /**
     * @return notifications waiting in the unexpected queue (after draining the ring).
     */
    synchronized int unexpectedCount() {
        progress();
        return unexpected.size();
    }

    /**
     * @return ring slots given up because their producer died before publishing them.
     */
    synchronized long skippedSlots() {
        return skippedSlots;
    }

    void checkOpen(final String call) {
        window.checkOpen(call);
    }

    private void arrived(final Notification notification) {
        final Iterator<NotifyRequest> requests = active.iterator();
        while (requests.hasNext()) {
            final NotifyRequest request = requests.next();
            if (request.matches(notification.source(), notification.tag())) {
                if (request.matched(notification.source(), notification.tag(), notification.displacement(),
                    notification.length())) {
                    requests.remove();
                    completedInDrain = true;
                }
                return;
            }
        }
        unexpected.add(notification);
    }

    private void skipped(final int producer) {
        skippedSlots++;
        System.err.println("rma4j: rank " + rank + " skipped a notification slot claimed by rank " + producer
            + ", which died before publishing it");
    }

    /**
     * @return this rank's producer handle on {@code target}'s ring (for fault-injection tests, which
     *         claim a slot and stop before publishing it).
     */
    NotifyRing outgoingRing(final int target) {
        return outgoing[target];
    }

    private static int matcherSource(final int source) {
        return source == Rma.ANY_SOURCE ? Matcher.ANY_SOURCE : source;
    }

    private static int matcherTag(final int tag) {
        return tag == Rma.ANY_TAG ? Matcher.ANY_TAG : tag;
    }
}
