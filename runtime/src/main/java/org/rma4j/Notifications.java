package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.rma4j.internal.WindowLayout;
import org.rma4j.notify.Matcher;
import org.rma4j.notify.Notification;
import org.rma4j.notify.NotificationHandler;
import org.rma4j.notify.NotifyRing;
import org.rma4j.notify.NotifyRingLayout;
import org.rma4j.notify.ProducerLiveness;
import org.rma4j.shm.ControlFile;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.WaitTimeoutException;

/**
 * One rank's notification endpoint of one window (Notified Access, Belli and Hoefler, sections III and
 * IV): the ring it consumes, producer handles on the other ranks' rings, the unexpected queue and the
 * started requests.
 *
 * <p>Arrival: {@link #progress()} drains the ring in arrival order. An inline put's payload is copied
 * into this rank's window first; then the notification goes to the oldest started request that
 * matches it, or to the unexpected queue. A request that starts takes matching notifications from the
 * unexpected queue first, oldest first, so matching order is arrival order throughout.
 *
 * <p>Sending: a full target ring is back-pressure, never deadlock: the sender keeps draining its own
 * ring into its unexpected queue while it waits for space, so two ranks filling each other's rings
 * both progress. Thread-safe (synchronized); the ring is consumed by one thread at a time.
 */
final class Notifications {
    /** Kinds of notified access, in the ring entry's user flags. */
    static final int KIND_PUT = 1;
    static final int KIND_GET = 2;
    static final int KIND_ACCUMULATE = 3;
    /** Flag: the entry carries the put's data inline, to be copied into the window on arrival. */
    static final int FLAG_INLINE = 1 << 4;

    /** Largest put that travels inside its notification. */
    static final int INLINE_CAPACITY = NotifyRingLayout.INLINE_CAPACITY;

    private final Window window;
    private final TargetMemory memory;
    private final int rank;
    private final int capacity;
    private final ControlFile control;
    private final WaitStrategy waitStrategy;
    private final Liveness liveness;
    private final NotifyRing own;
    private final NotifyRing[] outgoing;
    private final Matcher unexpected = new Matcher();
    private final List<NotifyRequest> active = new ArrayList<>();
    private final NotificationHandler handler = this::arrived;
    private long skippedSlots;

    Notifications(
        final Window window, final TargetMemory memory, final MemorySegment mapping, final int rank, final int ranks,
        final int capacity, final ControlFile control, final WaitStrategy waitStrategy) {
        this.window = window;
        this.memory = memory;
        this.rank = rank;
        this.capacity = capacity;
        this.control = control;
        this.waitStrategy = waitStrategy;
        this.liveness = control.liveness(rank, true);
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
     * Sends one notification to {@code target}, waiting for ring space if needed.
     */
    void notify(
        final String call, final int target, final int tag, final long displacement, final int length,
        final int flags, final MemorySegment inline) {
        final NotifyRing ring = outgoing[target];
        if (ring.offer(rank, tag, displacement, length, flags, inline)) {
            return;
        }
        int idle = 0;
        final long startNs = System.nanoTime();
        long lastCheckNs = startNs;
        while (!ring.offer(rank, tag, displacement, length, flags, inline)) {
            // NOTE: drain our own ring while the target's is full: the target may be waiting for room in ours.
            progress();
            if (idle < 50) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(Math.min(1_000_000L, 10_000L * (idle - 49)));
            }
            idle++;
            final long now = System.nanoTime();
            if (now - lastCheckNs > WaitStrategy.LIVENESS_PERIOD_NS) {
                window.checkOpenFor(call);
                control.checkPeer(target, true);
                lastCheckNs = now;
                if (waitStrategy.timeoutNs() > 0 && now - startNs >= waitStrategy.timeoutNs()) {
                    throw new WaitTimeoutException(call + ": room in the full notification ring of rank " + target,
                        now - startNs);
                }
            }
        }
    }

    /**
     * Drains the ring, one lap at most: copies inline payloads into the window and matches each arrival.
     * One lap (every entry published when the call began) so that producers refilling the ring as fast as
     * it drains cannot keep one call moving their notifications into the unbounded unexpected queue.
     */
    synchronized void progress() {
        own.drain(handler, capacity);
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
     * Blocks until the ring holds a notification, sleeping on its futex when idle.
     */
    synchronized void awaitArrival() {
        own.awaitNotEmpty(waitStrategy, liveness);
    }

    /**
     * Drains and waits until {@code request} is complete, in one hold of this endpoint's monitor: a
     * notification that arrives is matched without leaving and re-entering it (each costs an atomic
     * instruction on the receiver's critical path).
     */
    synchronized void awaitComplete(final NotifyRequest request) {
        while (true) {
            if (!request.isComplete()) {
                progress();
            }
            if (request.isComplete()) {
                return;
            }
            own.awaitNotEmpty(waitStrategy, liveness);
        }
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
        window.checkOpenFor(call);
    }

    private void arrived(final Notification notification) {
        if ((notification.flags() & FLAG_INLINE) != 0 && notification.inlineLength() > 0) {
            final TargetMemory.Place destination = memory.resolveInMapping("putNotify", rank,
                notification.displacement(), notification.inlineLength());
            notification.copyInlinePayloadTo(destination.mapping(), destination.offset());
        }
        final Iterator<NotifyRequest> requests = active.iterator();
        while (requests.hasNext()) {
            final NotifyRequest request = requests.next();
            if (request.matches(notification.source(), notification.tag())) {
                if (request.matched(notification.source(), notification.tag(), notification.displacement(),
                    notification.length())) {
                    requests.remove();
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
