package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.rma4j.internal.ArrivalBatch;
import org.rma4j.internal.WindowLayout;
import org.rma4j.notify.LaneProducer;
import org.rma4j.notify.Matcher;
import org.rma4j.notify.Notification;
import org.rma4j.notify.NotificationHandler;
import org.rma4j.notify.NotifyLanes;
import org.rma4j.notify.NotifyLanesLayout;
import org.rma4j.shm.BiasedLock;
import org.rma4j.shm.ControlFile;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.WaitWords;

/**
 * One rank's notification endpoint of one window (Notified Access, Belli and Hoefler, sections III and
 * IV): the lanes it consumes (one single-producer lane per origin, {@link NotifyLanes}), its own lane at
 * every other rank ({@link LaneProducer}), the unexpected queue and the started requests.
 *
 * <p>Arrival: {@link #progress()} drains the lanes in <em>delivery order</em>: each origin's notifications
 * in the order it issued them (per origin FIFO), and notifications of different origins in the order the
 * consumer finds them (the lane it served last while its turn lasts, then the next lanes with entries,
 * cyclically). There is no order across origins, as in MPI, whose non-overtaking rule holds per sender and
 * receiver only. The data of a notified access is in this rank's window before its notification is
 * published (the origin writes it at the call); the notification goes to the oldest started request that
 * matches it, or to the unexpected queue. A request that starts takes matching notifications from the
 * unexpected queue first, oldest first, so matching order is delivery order throughout.
 *
 * <p>Sending: this rank's lane at every target, its process-local lock and the wait for room in a full lane are
 * {@link NotifySends} ({@link #sends}); while it waits for room a sender drains this endpoint ({@link #progress()}).
 *
 * <p>Thread-safe: a guard (a {@link BiasedLock}, free of atomic instructions while one thread of the rank
 * uses the endpoint) protects the lanes' consumer side, the unexpected queue and the active
 * requests, and is held only for bounded work (a drain of one lap, a match), never across a sleep. A
 * thread that waits drains and checks completion in one hold of the guard, then waits on the lanes'
 * signal word without it; a drain that completes a request while some thread waits signals that word.
 */
final class Notifications {
    /** Kinds of notified access, in the entry's user flags. */
    static final int KIND_PUT = 1;
    static final int KIND_GET = 2;
    static final int KIND_ACCUMULATE = 3;
    /** The least size of the started-request list at which {@link #track} drops the freed requests. */
    private static final int MIN_PRUNE_AT = 16;
    private final WindowState window;
    private final int rank;
    /** Entries of one lap over every lane: what one {@link #progress()} drains at most. */
    private final int lap;
    private final ControlFile control;
    private final WaitStrategy waitStrategy;
    private final Liveness liveness;
    final NotifyWaitPublication waits;
    private final NotifyLanes own;
    /**
     * Producers of this rank's lanes of origins on other nodes, made at their first notification; used by this
     * rank's {@link TargetAgent} only ({@link #deliver}).
     */
    private final LaneProducer[] inbound;
    /** This rank's lanes at the other ranks: what its notified accesses publish in. */
    final NotifySends sends;
    private final MemorySegment mapping;
    private final int ranks;
    private final int laneCapacity;
    private final Matcher unexpected = new Matcher();
    private final ActiveRequests active = new ActiveRequests();
    /**
     * The requests started at least once and not yet found freed, for {@link #activeRequest()} when the window is
     * freed (guarded by the guard); pruned of freed ones when it has doubled since the last pruning.
     */
    private final List<NotifyRequest> started = new ArrayList<>();
    /** The size of {@link #started} at which {@link #track} drops the freed requests. */
    private int pruneAt = MIN_PRUNE_AT;
    private final NotificationHandler handler = this::arrived;
    /**
     * Guards the lanes' consumer side, the unexpected queue, the active requests and the fields marked so, for
     * bounded work only (a drain of one lap, a match), never across a sleep: biased to the rank's first thread
     * that takes it ({@link BiasedLock}), so a rank that sends, drains and waits from one thread takes it
     * without atomic instructions.
     */
    private final BiasedLock guard = new BiasedLock();
    /** Threads of this rank in a wait on this endpoint (guarded by the guard). */
    private int waiters;
    /** Whether the current drain completed a request (guarded by the guard). */
    private boolean completedInDrain;
    /** The request, or requests, a {@link #drain} stops at when complete (guarded by the guard). */
    private NotifyRequest drainingFor;
    private NotifyRequest[] drainingForAny;
    private final BooleanSupplier untilDone = this::notDone;
    /** Where {@link #drainTo} puts the arrivals no request matches, or null (guarded by the guard). */
    private ArrivalBatch batch;
    /** Arrivals in {@link #batch} so far (guarded by the guard). */
    private int batched;
    /** Test hook: runs after a waiter's drain-and-check step, before it waits (never under the guard). */
    private volatile Runnable beforeWait = () -> {
    };

    Notifications(final WindowState window, final MemorySegment mapping, final int rank, final int ranks,
        final int laneCapacity, final ControlFile control, final WaitStrategy waitStrategy, final Liveness liveness) {
        this.window = window;
        this.rank = rank;
        this.lap = ranks * laneCapacity;
        this.mapping = mapping;
        this.ranks = ranks;
        this.laneCapacity = laneCapacity;
        this.inbound = new LaneProducer[ranks];
        this.control = control;
        this.waitStrategy = waitStrategy;
        this.liveness = liveness;
        this.waits = new NotifyWaitPublication(control, rank, window);
        this.own = new NotifyLanes(mapping, WindowLayout.notifyLanesOffset(ranks, laneCapacity, rank), ranks,
            laneCapacity);
        // A producer of ours waiting for room in its full lane sleeps on its own signal word: wake it there.
        own.onRoom(origin -> {
            final long lanes = WindowLayout.notifyLanesOffset(ranks, laneCapacity, origin);
            WaitWords.signalOnce(mapping, lanes + NotifyLanesLayout.SIGNAL_OFFSET,
                lanes + NotifyLanesLayout.SLEEP_EPOCH_OFFSET, true);
        });
        this.sends = new NotifySends(window, mapping, rank, ranks, laneCapacity, control, waitStrategy, own,
            this::progress);
    }

    /**
     * Takes the guard, spinning, then yielding while another thread of the rank holds it (it holds it for
     * bounded work only).
     *
     * @return the token for {@link BiasedLock#unlock}.
     */
    private int enter() {
        int held = guard.tryLock();
        for (int attempt = 0; held == BiasedLock.NOT_TAKEN; attempt++) {
            if (attempt < 64) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
            held = guard.tryLock();
        }
        return held;
    }

    /**
     * Publishes, in this rank's lane of {@code origin}, a notification of {@code origin}, a rank on another node
     * whose notified access already took effect here (its request, applied by this rank's {@link TargetAgent}
     * after every earlier request of that origin, MPI's non-overtaking order on the link). The lane's one
     * producer is then this rank's agent: the origin's process does not map this rank's lanes, and the agent
     * runs on one thread at a time (the thread that polls the link, under the link's lock), so the lane keeps
     * one producer and the origin's notifications their order.
     *
     * @return false if the lane is full (nothing published; the agent offers it again at its next poll).
     */
    boolean deliver(final int origin, final int tag, final long displacement, final int length, final int flags) {
        LaneProducer producer = inbound[origin];
        if (producer == null) {
            producer = new LaneProducer(mapping, WindowLayout.notifyLanesOffset(ranks, laneCapacity, rank), ranks,
                laneCapacity, origin);
            inbound[origin] = producer;
        }
        return producer.offer(origin, tag, displacement, length, flags, null);
    }

    /**
     * Drains the lanes, one lap at most (one lane capacity per origin), and matches each arrival. One lap so
     * that producers refilling their lanes as fast as they drain cannot keep one call moving their
     * notifications into the unbounded unexpected queue.
     */
    void progress() {
        final int held = enter();
        try {
            drain(null, null);
        } finally {
            guard.unlock(held);
        }
    }

    /**
     * Drains the lanes until {@code request} is complete, one lap at most (see {@link #progress()}).
     */
    void progressFor(final NotifyRequest request) {
        final int held = enter();
        try {
            drain(request, null);
        } finally {
            guard.unlock(held);
        }
    }

    /**
     * Drains until {@code request} (if not null) is complete or one of {@code requests} (if not null) is,
     * one lap at most. Stopping at the completion leaves later arrivals in the lanes instead of moving them
     * to the unexpected queue: the next request started takes them straight from the lanes, without the
     * queue's copy and look-ups, and a full lane holds its producer back. Delivery order is kept either way
     * (see {@link #start}). Caller holds the guard.
     */
    private void drain(final NotifyRequest request, final NotifyRequest[] requests) {
        drain(request, requests, 0);
    }

    /**
     * {@link #drain(NotifyRequest, NotifyRequest[])} by a thread counted in {@link #waiters} ({@code self} 1) or
     * not (0): a waiter that completes a request wakes the others only, never itself (it sees the completion
     * when its poll returns).
     */
    private void drain(final NotifyRequest request, final NotifyRequest[] requests, final int self) {
        completedInDrain = false;
        if (request == null && requests == null) {
            own.drain(handler, lap);
        } else {
            // NOTE: the completion is checked between two arrivals (untilDone), through fields, not a capturing lambda.
            drainingFor = request;
            drainingForAny = requests;
            try {
                own.drainWhile(handler, lap, untilDone);
            } finally {
                drainingFor = null;
                drainingForAny = null;
            }
        }
        if (completedInDrain && waiters > self) {
            // NOTE: after the request's volatile completion: a waiting thread either sees it in its re-check
            // after announcing itself as a sleeper, or is woken here. The full fence of the wake is off the
            // path of a lone waiter that completes its own request (a latency-bound exchange).
            own.wakeWaiters();
        }
    }

    private boolean notDone() {
        final NotifyRequest request = drainingFor;
        return request != null ? !request.isComplete() : !NotifyRequest.anyComplete(drainingForAny);
    }

    /**
     * Matches waiting notifications to a starting request, then lists it as active if it is not done. Only
     * the unexpected queue is searched; the lanes are left to the next test or await. Delivery order is kept:
     * everything queued was delivered before anything still in the lanes, no active request matches a queued
     * notification, and the next drain offers the lanes' entries to the active requests in start order,
     * the matching a drain before the start would give. A consumer with a backlog thus leaves new
     * notifications in the lanes, whose being full holds the producers back.
     */
    void start(final NotifyRequest request) {
        final int held = enter();
        try {
            if (!request.tracked) {
                track(request);
            }
            request.reset();
            if (!unexpected.isEmpty()) {
                takeUnexpected(request);
            }
            if (!request.isComplete()) {
                active.add(request);
            }
        } finally {
            guard.unlock(held);
        }
    }

    private void track(final NotifyRequest request) {
        if (started.size() >= pruneAt) {
            // NOTE: amortized: a removeIf per start (a scan and an allocation) would cost more than the start.
            started.removeIf(made -> made.state() == NotifyRequest.State.FREED);
            pruneAt = Math.max(MIN_PRUNE_AT, 2 * started.size());
        }
        started.add(request);
        request.tracked = true;
    }

    /**
     * @return a description of a notification request of this window that is active, or null.
     */
    String activeRequest() {
        final int held = enter();
        try {
            for (final NotifyRequest request : started) {
                if (request.state() == NotifyRequest.State.ACTIVE) {
                    return "notification request " + request + " is active";
                }
            }
            return null;
        } finally {
            guard.unlock(held);
        }
    }

    private void takeUnexpected(final NotifyRequest request) {
        while (!request.isComplete()) {
            final Optional<Notification> waiting = unexpected.takeOldest(matcherSource(request.source()),
                matcherTag(request.tag()));
            if (waiting.isEmpty()) {
                break;
            }
            final Notification notification = waiting.get();
            request.matched(notification.source(), notification.tag(), notification);
        }
    }

    void cancel(final NotifyRequest request) {
        final int held = enter();
        try {
            active.remove(request);
        } finally {
            guard.unlock(held);
        }
    }

    /**
     * @return the status of an active request's matches so far, read under the guard (drains may run in
     *         other threads).
     */
    NotifyRequest.Status statusOf(final NotifyRequest request) {
        final int held = enter();
        try {
            return request.snapshot();
        } finally {
            guard.unlock(held);
        }
    }

    /**
     * Drains until {@code request} is complete, one lap at most, without waiting: the first step of an await,
     * before anything about the wait is recorded (an await whose notification is there records nothing).
     *
     * @return whether it is complete.
     */
    boolean completeNow(final NotifyRequest request) {
        final int held = enter();
        try {
            drain(request, null);
            return request.isComplete();
        } finally {
            guard.unlock(held);
        }
    }

    /**
     * Drains and waits until {@code request} is complete. The drain and the completion check are one step
     * under this endpoint's guard, and so is every poll of the wait: while it spins, a waiting thread drains
     * (a poll that finds the notification has also matched it). The wait holds no guard or lane between
     * polls, so other threads of the rank can drain and send meanwhile, and a thread that completes the
     * request for this one wakes it.
     */
    void awaitComplete(final NotifyRequest request) {
        if (drainedComplete(request, false)) {
            return;
        }
        boolean left = false;
        try {
            beforeWait.run();
            own.await(waitStrategy, request.completion(), waits.liveness(liveness));
            left = true;
        } finally {
            if (!left) {
                leaveWait();
            }
        }
    }

    /**
     * One step of {@link #awaitComplete} under the guard: drains until {@code request} is complete and says
     * whether it is. On the way in ({@code waiting} false) an incomplete request makes this thread a waiter; a
     * waiter that sees the completion stops being one.
     */
    boolean drainedComplete(final NotifyRequest request, final boolean waiting) {
        final int held = enter();
        try {
            drain(request, null, waiting ? 1 : 0);
            final boolean complete = request.isComplete();
            if (complete == waiting) {
                waiters += waiting ? -1 : 1;
            }
            return complete;
        } finally {
            guard.unlock(held);
        }
    }

    /**
     * MPI_WAITANY over requests of this endpoint: drains, then returns the index of the first complete
     * active request (-1 if none is active), in one step under the guard; waits as {@link #awaitComplete}
     * does when none is complete.
     */
    int awaitAny(final NotifyRequest[] requests) {
        final int[] done = {NotifyRequest.NONE_COMPLETE};
        if (drainedAny(requests, done, false)) {
            return done[0];
        }
        boolean left = false;
        try {
            beforeWait.run();
            own.await(waitStrategy, () -> drainedAny(requests, done, true), waits.liveness(liveness));
            left = true;
        } finally {
            if (!left) {
                leaveWait();
            }
        }
        return done[0];
    }

    /**
     * {@link #drainedComplete} for {@link #awaitAny}: {@code done[0]} receives the index found.
     */
    private boolean drainedAny(final NotifyRequest[] requests, final int[] done, final boolean waiting) {
        final int held = enter();
        try {
            drain(null, requests, waiting ? 1 : 0);
            done[0] = NotifyRequest.firstComplete(requests);
            final boolean any = done[0] != NotifyRequest.NONE_COMPLETE;
            if (any == waiting) {
                waiters += waiting ? -1 : 1;
            }
            return any;
        } finally {
            guard.unlock(held);
        }
    }

    /**
     * The two-sided layer's receive path (see {@code RuntimeAccess#drainArrivals}): takes queued arrivals, then
     * drains the lanes, giving each arrival to a matching started request as {@link #progress()} does and
     * putting the others into {@code into} instead of the unexpected queue, until {@code into} is full.
     *
     * @return arrivals put into {@code into}.
     */
    int drainTo(final ArrivalBatch into) {
        final int held = enter();
        try {
            return drainLocked(into, 0);
        } finally {
            guard.unlock(held);
        }
    }

    /** {@link #drainTo} under the guard. */
    private int drainLocked(final ArrivalBatch into, final int self) {
        int taken = 0;
        try {
            while (taken < into.capacity() && !unexpected.isEmpty()) {
                into.set(taken++, unexpected.takeOldest(Matcher.ANY_SOURCE, Matcher.ANY_TAG).orElseThrow());
            }
            if (taken == into.capacity()) {
                return taken;
            }
            batch = into;
            batched = taken;
            completedInDrain = false;
            try {
                own.drain(handler, into.capacity() - taken);
            } finally {
                taken = batched;
                batch = null;
            }
            if (completedInDrain && waiters > self) {
                own.wakeWaiters();
            }
            return taken;
        } finally {
            into.taken(taken);
        }
    }

    /**
     * Waits until an arrival waits (queued, or in the lanes), as {@link #awaitComplete} waits, and takes arrivals
     * into {@code into} as {@link #drainTo} does, in the hold of the guard whose poll found them.
     *
     * @return arrivals put into {@code into} (0 if the arrivals found all went to started requests).
     */
    int awaitArrivals(final ArrivalBatch into) {
        if (arrivalsTaken(into, false)) {
            return into.taken();
        }
        try {
            own.await(waitStrategy, () -> arrivalsTaken(into, true), waits.liveness(liveness));
        } finally {
            leaveWait();
        }
        return into.taken();
    }

    /**
     * Under the guard: whether an arrival waited; if so, takes arrivals into {@code into} ({@link #drainTo}), which
     * keeps their number ({@link ArrivalBatch#taken()}). On the way in ({@code waiting} false), none makes this
     * thread a waiter.
     */
    private boolean arrivalsTaken(final ArrivalBatch into, final boolean waiting) {
        final int held = enter();
        try {
            final boolean ready = !unexpected.isEmpty() || own.isHeadReady();
            if (ready) {
                drainLocked(into, waiting ? 1 : 0);
            } else if (!waiting) {
                waiters++;
            }
            return ready;
        } finally {
            guard.unlock(held);
        }
    }

    /**
     * The Notified Access paper's probe (section III): drains the lanes (arrivals that no active request matches
     * join the unexpected queue) and returns the oldest queued notification from {@code source} with {@code tag}
     * ({@link Rma#ANY_SOURCE} / {@link Rma#ANY_TAG} allowed), without taking it; null if there is none.
     */
    Notification probe(final int source, final int tag) {
        final Notification[] found = {null};
        probeFinds(source, tag, found, true);
        return found[0];
    }

    /**
     * The blocking {@link #probe}: waits as {@link #awaitArrivals} does until a notification matches.
     */
    Notification awaitProbe(final int source, final int tag) {
        final Notification[] found = {null};
        if (probeFinds(source, tag, found, false)) {
            return found[0];
        }
        try {
            own.await(waitStrategy, () -> probeFinds(source, tag, found, true), waits.liveness(liveness));
        } finally {
            leaveWait();
        }
        return found[0];
    }

    /**
     * Under the guard: drains, then looks for a queued match into {@code found}; on the way in ({@code waiting}
     * false), none makes this thread a waiter.
     */
    private boolean probeFinds(final int source, final int tag, final Notification[] found, final boolean waiting) {
        final int held = enter();
        try {
            drain(null, null);
            found[0] = unexpected.peekOldest(matcherSource(source), matcherTag(tag)).orElse(null);
            if (found[0] == null && !waiting) {
                waiters++;
            }
            return found[0] != null;
        } finally {
            guard.unlock(held);
        }
    }

    /**
     * For waits over several endpoints: drains once (under the guard).
     */
    void drainForWait() {
        progress();
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

    int rank() {
        return rank;
    }

    WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    private void leaveWait() {
        final int held = enter();
        try {
            waiters--;
        } finally {
            guard.unlock(held);
        }
    }

    /**
     * @return notifications waiting in the unexpected queue (after draining the lanes).
     */
    int unexpectedCount() {
        final int held = enter();
        try {
            drain(null, null);
            return unexpected.size();
        } finally {
            guard.unlock(held);
        }
    }

    void checkOpen(final String call) {
        window.checkOpen(call);
    }

    private void arrived(final Notification notification) {
        final int source = notification.source();
        final int tag = notification.tag();
        for (NotifyRequest request = active.first(); request != null; request = request.nextActive) {
            if (request.matches(source, tag)) {
                if (request.matched(source, tag, notification)) {
                    active.remove(request);
                    completedInDrain = true;
                }
                return;
            }
        }
        if (batch != null) {
            batch.set(batched++, notification);
        } else {
            unexpected.add(notification);
        }
    }

    private static int matcherSource(final int source) {
        return source == Rma.ANY_SOURCE ? Matcher.ANY_SOURCE : source;
    }

    private static int matcherTag(final int tag) {
        return tag == Rma.ANY_TAG ? Matcher.ANY_TAG : tag;
    }
}
