package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.LinkedHashSet;
import org.rma4j.internal.InlineWords;
import org.rma4j.notify.Notification;
import org.rma4j.notify.NotifyLanesLayout;

/**
 * A persistent notification request (Notified Access, Belli and Hoefler, IPDPS 2015, section III):
 * made by {@link Window#notifyInit}, it completes after {@code expectedCount} notified accesses to
 * this rank's part of the window that match its source and tag ({@link Rma#ANY_SOURCE} and
 * {@link Rma#ANY_TAG} match any). Matching is in delivery order; notifications that arrive while no
 * started request matches them wait in the window's unexpected queue for a later request.
 *
 * <p>Delivery order: the notifications of one origin are delivered in the order it issued them (each
 * origin has its own lane at this rank), so a request for one source sees that source's notified accesses
 * in program order. Notifications of different origins are delivered in the order this rank finds them,
 * not in the order they were sent, even when the sends were ordered by some other communication: as in
 * MPI, ordering holds per origin and target only. A request for {@link Rma#ANY_SOURCE} takes the oldest
 * delivered.
 *
 * <p>Lifecycle ({@link State}): {@link #start()} activates it (and matches waiting notifications
 * first); {@link #test()} / {@link #await()} complete it, after which it may be started again;
 * {@link #close()} frees it. Completion means every matched operation's data is in this rank's
 * window (a notified get's data has been read from it). A request is used by one thread at a time.
 *
 * <p>Unlike the requests of {@link Window#rput} and friends, these are persistent: the standard's
 * rules for RMA request handles do not apply (see DESIGN.md, "Decisions").
 */
public final class NotifyRequest implements Request, AutoCloseable {
    /** Lifecycle of a request. */
    public enum State {
        /** Made by notifyInit or completed: may be started. */
        INACTIVE,
        /** Started, matching notifications. */
        ACTIVE,
        /** Freed by close: every call raises REQUEST. */
        FREED
    }

    /**
     * What completed a request: the source and tag of the last matching notification and how many
     * matched (MPI_Status of the paper's interface), plus the target displacement and byte length of
     * that last notified access, so a consumer can tell which buffer it filled.
     */
    public record Status(int source, int tag, int count, long displacement, int length) {
    }

    private final Notifications endpoint;
    private final int source;
    private final int tag;
    private final int expectedCount;
    /**
     * The poll of a waiting thread ({@link Notifications#awaitComplete}), made at the first await that waits, not
     * at every await nor at every init (a request per message must stay cheap to make).
     */
    private BooleanSupplier completion;
    /** Returned by {@link #firstComplete} when no active request is complete. */
    static final int NONE_COMPLETE = -2;
    /** The status of a request that has matched nothing yet (no {@link #last}: {@link #matched} is 0). */
    private static final Status NO_MATCH = new Status(-1, -1, 0, -1, -1);

    private static final VarHandle COMPLETE;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            COMPLETE = lookup.findVarHandle(NotifyRequest.class, "complete", boolean.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private State state = State.INACTIVE;
    /** Whether its window's endpoint lists it (from its first start on; guarded by the endpoint's guard). */
    boolean tracked;
    /** Its place among its endpoint's {@link ActiveRequests} (guarded by the endpoint's guard). */
    boolean listed;
    NotifyRequest previousActive;
    NotifyRequest nextActive;
    /*
     * The last match's fields and the matches since the last start: written by whichever thread of the rank
     * drains, under the endpoint's guard, before the release store of complete; read under the guard (status()
     * of an incomplete request), or after an acquire load saw complete: no drain writes them again before the
     * owner starts the request again, so the owner reads one match's fields, never a mix. The Status record is
     * made when asked for, so a caller that ignores it allocates nothing.
     */
    private int matched;
    /** The last match's fields, made at the first match (a request only made and freed is a small object). */
    private LastMatch last;
    /**
     * Written by whichever thread of the rank drains (under the endpoint's guard, release store), read without
     * it by the request's owner and by waiting threads (acquire loads). A drain that completes a request another
     * thread waits for signals the lanes after this store (a full fence there), so a release store suffices.
     */
    private volatile boolean complete;

    NotifyRequest(final Notifications endpoint, final int source, final int tag, final int expectedCount) {
        this.endpoint = endpoint;
        this.source = source;
        this.tag = tag;
        this.expectedCount = expectedCount;
    }

    /**
     * MPI_START: activates the request; notifications already waiting in the unexpected queue are
     * matched first, oldest first.
     *
     * @throws RmaException REQUEST if the request is active or freed, WIN if its window was freed.
     */
    public void start() {
        check("start");
        if (state == State.ACTIVE) {
            throw new RmaException(ErrorClass.REQUEST, "start of an active notification request " + this);
        }
        state = State.ACTIVE;
        endpoint.start(this);
    }

    /**
     * MPI_TEST: makes progress on the window's notifications and returns whether the request has
     * completed; a completed request becomes inactive.
     *
     * @throws RmaException REQUEST if the request is not active or freed, WIN if its window was freed.
     */
    @Override
    public boolean test() {
        checkActive("test");
        if (!isComplete()) {
            endpoint.progressFor(this); // NOTE: not when complete: it would only move arrivals to the unexpected queue
        }
        return finishIfComplete();
    }

    /**
     * MPI_WAIT: blocks until the request completes (sleeping on the window's notification lanes when
     * idle) and returns its status; the request becomes inactive.
     *
     * @throws RmaException REQUEST if the request is not active or freed, WIN if its window was freed.
     * @throws RankFailedException if a rank of the job dies meanwhile.
     * @throws RmaTimeoutException after the job's wait timeout.
     */
    public Status await() {
        checkActive("await");
        try {
            NotifyWaitPublication.awaitComplete(endpoint, this);
            finishIfComplete();
            return status();
        } catch (final RuntimeException e) {
            throw Failures.translate(e, endpoint.rank(), "await of " + this);
        }
    }

    /**
     * @return the source, tag, count, displacement and length of the last match (-1 before any); the count is
     *         the matches since the last start.
     */
    public Status status() {
        return isComplete() || state != State.ACTIVE ? snapshot() : endpoint.statusOf(this);
    }

    /** @return whether the request is started and not complete ({@link State#ACTIVE}). */
    @Override
    public boolean isActive() {
        return state == State.ACTIVE;
    }

    /**
     * The data the last match carried in its notification: a notified put of up to {@value #INLINE_BYTES} bytes
     * ({@link Window#putNotify(MemorySegment, int, long, int)}, contiguous) sends a copy of its data inside the
     * notification as well as into the window, so the target can read it from the notification, which it has
     * in its cache already, instead of from the window's line, which the origin's store took away: one cache line
     * moves instead of two. The copy is the data as the origin wrote it at the call; the window holds the same
     * bytes unless a later operation changed them (operations take effect in program order). A notification
     * of a longer put, of a get or an accumulate carries none (0 bytes), nor does a request that never matched.
     * For an inactive or completed request: the last completion's data.
     *
     * @param into where the bytes go (at least as long as the last match's {@link Status#length()}, up to
     *             {@value #INLINE_BYTES}).
     * @return bytes copied: the last match's length if its data travelled inline, else 0.
     * @throws RmaException REQUEST if the request is active and not complete, or freed; COUNT if {@code into}
     *                      is too short.
     */
    public int inlineData(final MemorySegment into) {
        Objects.requireNonNull(into, "into");
        if (state == State.FREED || state == State.ACTIVE && !isComplete()) {
            throw new RmaException(ErrorClass.REQUEST, "inlineData of a request that has not completed: " + this);
        }
        final LastMatch match = last;
        final int length = match == null ? 0 : match.inlineLength;
        if (into.byteSize() < length) {
            throw new RmaException(ErrorClass.COUNT,
                "inlineData into " + into.byteSize() + " bytes, but the last " + "match carried " + length);
        }
        if (length > 0) {
            InlineWords.write(into, 0, length, match.inline0, match.inline1, match.inline2, match.inline3);
        }
        return length;
    }

    /** Most bytes a notification carries inline ({@link #inlineData}). */
    public static final int INLINE_BYTES = NotifyLanesLayout.INLINE_CAPACITY;

    /**
     * @return the lifecycle state.
     */
    public State state() {
        return state;
    }

    /**
     * MPI_REQUEST_FREE: frees the request; an active request stops matching. Idempotent.
     */
    @Override
    public void close() {
        if (state == State.ACTIVE) {
            endpoint.cancel(this);
        }
        state = State.FREED;
    }

    /**
     * Returns the index of a request that completed, or -1 if none did, after one round of progress.
     * Inactive and freed requests and nulls are skipped (MPI_TESTANY).
     */
    public static int testAny(final NotifyRequest... requests) {
        for (int i = 0; i < requests.length; i++) {
            final NotifyRequest request = requests[i];
            if (request != null && request.state == State.ACTIVE && request.test()) {
                return i;
            }
        }
        return -1;
    }

    /**
     * MPI_WAITANY: blocks until one active request completes and returns its index, or -1 if none is
     * active. Draining and checking every request for completion are one step, so a request that a drain
     * for another request completed is never waited for in vain.
     *
     * @throws RankFailedException if a rank of a request's window dies meanwhile.
     * @throws RmaTimeoutException after the job's wait timeout.
     */
    public static int waitAny(final NotifyRequest... requests) {
        for (final NotifyRequest request : requests) {
            if (request != null && request.state == State.ACTIVE) {
                request.check("waitAny");
            }
        }
        try {
            return awaitAny(requests);
        } catch (final RuntimeException e) {
            throw Failures.translate(e, rankOf(requests), "waitAny over " + requests.length + " notification requests");
        }
    }

    private static int rankOf(final NotifyRequest[] requests) {
        for (final NotifyRequest request : requests) {
            if (request != null) {
                return request.endpoint.rank();
            }
        }
        return -1;
    }

    private static int awaitAny(final NotifyRequest[] requests) {
        final Notifications shared = sharedEndpoint(requests);
        if (shared != null) {
            final int done = NotifyWaitPublication.awaitAny(shared, requests);
            return done == -1 ? -1 : finishAt(requests, done);
        }
        final Notifications[] endpoints = endpoints(requests);
        if (endpoints.length == 0) {
            return -1;
        }
        final int[] done = {NONE_COMPLETE};
        endpoints[0].waitStrategy().awaitPolled(() -> {
            for (final Notifications endpoint : endpoints) {
                endpoint.drainForWait();
            }
            done[0] = firstComplete(requests);
            return done[0] != NONE_COMPLETE;
        }, () -> {
            for (final Notifications endpoint : endpoints) {
                endpoint.checkLiveness("waitAny");
            }
        }, "waitAny over " + requests.length + " notification requests of " + endpoints.length + " windows");
        return done[0] == -1 ? -1 : finishAt(requests, done[0]);
    }

    /**
     * MPI_WAITALL: blocks until every active request has completed.
     */
    public static void waitAll(final NotifyRequest... requests) {
        while (waitAny(requests) >= 0) {
            // each completed request becomes inactive; loop until none is active
        }
    }

    boolean matches(final int notificationSource, final int notificationTag) {
        return (source == Rma.ANY_SOURCE || source == notificationSource)
            && (tag == Rma.ANY_TAG || tag == notificationTag);
    }

    /**
     * Begins a round of matching (under the endpoint's guard, from {@link Notifications#start}): no match yet;
     * a request that expects none is complete at once.
     */
    void reset() {
        matched = 0;
        if (last != null) {
            last.inlineLength = 0;
        }
        COMPLETE.setRelease(this, expectedCount == 0);
    }

    /**
     * Counts one matching notification (under the endpoint's guard).
     *
     * @param notificationSource its source, as the match read it.
     * @param notificationTag    its tag, as the match read it.
     * @return whether the request is complete now.
     */
    boolean matched(final int notificationSource, final int notificationTag, final Notification notification) {
        matched++;
        LastMatch match = last;
        if (match == null) {
            match = new LastMatch();
            last = match;
        }
        match.source = notificationSource;
        match.tag = notificationTag;
        match.displacement = notification.displacement();
        match.length = notification.length();
        if (matched < expectedCount) {
            return false;
        }
        // NOTE: only the completing match's inline data is kept: it is the last match's.
        final int length = notification.inlineLength();
        if (length > 0) {
            match.inline0 = notification.inlineWord(0);
            if (length > Long.BYTES) {
                match.inline1 = notification.inlineWord(1);
                match.inline2 = notification.inlineWord(2);
                match.inline3 = notification.inlineWord(3);
            }
        }
        match.inlineLength = length;
        // NOTE: complete last: a thread that sees it (acquire) sees the fields of the completing match.
        COMPLETE.setRelease(this, true);
        return true;
    }

    /**
     * @return the status of the matches so far (under the endpoint's guard, or after the completion was seen).
     */
    Status snapshot() {
        final LastMatch match = last;
        if (match == null) {
            return NO_MATCH;
        }
        // NOTE: a stream from one origin to one slot completes with the same status every time: the last one is
        // handed out again (a record: equal values, the same meaning), so an await per message allocates nothing.
        final Status previous = match.status;
        if (previous != null && previous.source == match.source && previous.tag == match.tag
            && previous.count == matched && previous.displacement == match.displacement
            && previous.length == match.length) {
            return previous;
        }
        final Status status = new Status(match.source, match.tag, matched, match.displacement, match.length);
        match.status = status;
        return status;
    }

    int source() {
        return source;
    }

    BooleanSupplier completion() {
        BooleanSupplier poll = completion;
        if (poll == null) {
            poll = () -> endpoint.drainedComplete(this, true);
            completion = poll;
        }
        return poll;
    }

    int tag() {
        return tag;
    }

    boolean isComplete() {
        return (boolean)COMPLETE.getAcquire(this);
    }

    private boolean finishIfComplete() {
        if (!isComplete()) {
            return false;
        }
        state = State.INACTIVE;
        return true;
    }

    private void check(final String call) {
        if (state == State.FREED) {
            throw new RmaException(ErrorClass.REQUEST, call + " of a freed notification request " + this);
        }
        endpoint.checkOpen(call);
    }

    private void checkActive(final String call) {
        check(call);
        if (state != State.ACTIVE) {
            throw new RmaException(ErrorClass.REQUEST,
                call + " of an inactive notification request " + this + " (start it first)");
        }
    }

    /**
     * @return the index of the first active complete request, -1 if none is active, else
     *         {@link #NONE_COMPLETE}. Reads only volatile state: callable from any thread of the rank.
     */
    static int firstComplete(final NotifyRequest[] requests) {
        boolean anyActive = false;
        for (int i = 0; i < requests.length; i++) {
            final NotifyRequest request = requests[i];
            if (request != null && request.state == State.ACTIVE) {
                if (request.isComplete()) {
                    return i;
                }
                anyActive = true;
            }
        }
        return anyActive ? NONE_COMPLETE : -1;
    }

    /**
     * @return whether some request is complete, or none is active (a wait over them must end).
     */
    static boolean anyComplete(final NotifyRequest[] requests) {
        return firstComplete(requests) != NONE_COMPLETE;
    }

    private static int finishAt(final NotifyRequest[] requests, final int index) {
        requests[index].finishIfComplete();
        return index;
    }

    private static Notifications[] endpoints(final NotifyRequest[] requests) {
        final LinkedHashSet<Notifications> endpoints = new LinkedHashSet<>();
        for (final NotifyRequest request : requests) {
            if (request != null) {
                endpoints.add(request.endpoint);
            }
        }
        return endpoints.toArray(new Notifications[0]);
    }

    private static Notifications sharedEndpoint(final NotifyRequest... requests) {
        Notifications shared = null;
        for (final NotifyRequest request : requests) {
            if (request != null) {
                if (shared != null && shared != request.endpoint) {
                    return null;
                }
                shared = request.endpoint;
            }
        }
        return shared;
    }

    @Override
    public String toString() {
        return "NotifyRequest{source=" + (source == Rma.ANY_SOURCE ? "ANY" : Objects.toString(source)) + ", tag="
            + (tag == Rma.ANY_TAG ? "ANY" : Objects.toString(tag)) + ", expected=" + expectedCount + ", matched="
            + matched + ", " + state + '}';
    }

    /**
     * The fields of a request's last match, and the inline data of its completing one as the entry's words (see
     * {@link #inlineData}): written and read as the request's own fields are (see {@link #matched}).
     */
    private static final class LastMatch {
        int source = -1;
        int tag = -1;
        long displacement = -1;
        int length = -1;
        long inline0;
        long inline1;
        long inline2;
        long inline3;
        int inlineLength;
        /** The status {@link #snapshot} made last, handed out again while the values are the same. */
        Status status;
    }
}
