package org.rma4j.messaging;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.rma4j.ErrorClass;
import org.rma4j.Rma;
import org.rma4j.RmaException;

/**
 * A nonblocking send or receive of {@link Messaging} (MPI_Request of MPI_ISEND / MPI_IRECV).
 *
 * <p>A request completes when the progress of its {@link Messaging} object gets to it; progress is made
 * by every call of that object ({@link #test}, {@link #await}, {@link #waitAny}, {@link #waitAll},
 * blocking sends and receives, collectives). A send completes when its buffer may be reused (its data
 * was copied out of it), a receive when the message is in its buffer. Until then the buffer must not
 * be touched.
 *
 * <p>Completion is reported once: after {@link #test} returned true or {@link #await},
 * {@link #waitAny} or {@link #waitAll} returned for it, the request is <em>inactive</em> (MPI's
 * MPI_REQUEST_NULL): {@link #waitAny} skips it, and {@link #test} / {@link #await} return the same
 * result again. A receive that failed (a message longer than its buffer: {@link ErrorClass#COUNT})
 * throws its error from the call that reports its completion. Requests are used by the thread that
 * uses their {@link Messaging} object.
 */
public final class MessageRequest implements org.rma4j.Request {
    private final MessagingEngine engine;
    private final boolean send;
    // NOTE: not final: an engine reuses the request of its blocking receives (MessagingEngine#recvWaiting).
    private MemorySegment buffer;
    private int peer;
    private int context;
    private int tag;
    private boolean complete;
    private boolean reported;
    private MessageStatus status;
    private ErrorClass errorClass;
    private String errorMessage;
    private boolean endsWaits;

    private MessageRequest(final MessagingEngine engine, final boolean send, final MemorySegment buffer, final int peer,
        final int context, final int tag) {
        this.engine = engine;
        this.send = send;
        this.buffer = buffer;
        this.peer = peer;
        this.context = context;
        this.tag = tag;
    }

    static MessageRequest send(final MessagingEngine engine, final MemorySegment buffer, final int dest,
        final int context, final int tag) {
        return new MessageRequest(engine, true, buffer, dest, context, tag);
    }

    static MessageRequest recv(final MessagingEngine engine, final MemorySegment buffer, final int source,
        final int context, final int tag) {
        return new MessageRequest(engine, false, buffer, source, context, tag);
    }

    /**
     * Makes a receive request that completed and was reported, and that nothing refers to any more, a new one.
     */
    void reuse(final MemorySegment into, final int source, final int receiveContext, final int receiveTag) {
        if (send || !reported || !complete) {
            throw new IllegalStateException("reuse of " + (send ? "a send" : "an unfinished receive") + " request");
        }
        buffer = into;
        peer = source;
        context = receiveContext;
        tag = receiveTag;
        complete = false;
        reported = false;
        status = null;
        errorClass = null;
        errorMessage = null;
        endsWaits = false;
    }

    /**
     * MPI_TEST: makes one round of progress if the request is not complete, and returns whether it is.
     *
     * @throws RmaException COUNT if the receive failed because the message was longer than its buffer;
     *                      OTHER if the Messaging object was closed before the request completed.
     */
    @Override
    public boolean test() {
        if (!complete) {
            engine.checkOpen("test");
            engine.progress();
        }
        if (!complete) {
            return false;
        }
        reported = true;
        throwIfFailed();
        return true;
    }

    /** @return whether the request's completion was not reported yet (by test, await or a wait over it). */
    @Override
    public boolean isActive() {
        return !reported;
    }

    /**
     * MPI_WAIT: blocks until the request completes (sleeping while nothing arrives) and returns its
     * status.
     *
     * @throws RmaException as {@link #test}.
     * @throws org.rma4j.RankFailedException if a rank of the job dies meanwhile.
     */
    public MessageStatus await() {
        if (!complete) {
            engine.checkOpen("await");
            engine.await(this);
        }
        reported = true;
        throwIfFailed();
        return status;
    }

    /**
     * MPI_WAITALL: blocks until every request completes; null elements are skipped. Every request is
     * inactive afterwards.
     *
     * @throws RmaException the error of the first failed request, with the others' attached as
     *                      suppressed, after all have completed; or at once, leaving the others pending,
     *                      when a receive fails because its source is closing its Messaging object (that
     *                      source cannot send anything before this rank closes the same object too).
     */
    public static void waitAll(final MessageRequest... requests) {
        Objects.requireNonNull(requests, "requests");
        waitUntil(requests, () -> {
            boolean all = true;
            for (final MessageRequest request : requests) {
                if (request != null && request.complete && request.endsWaits) {
                    return true;
                }
                all &= request == null || request.complete;
            }
            return all;
        });
        RmaException first = null;
        for (final MessageRequest request : requests) {
            if (request == null || !request.complete) {
                continue;
            }
            request.reported = true;
            if (request.errorClass != null) {
                final RmaException e = request.error();
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /**
     * MPI_WAITANY: blocks until one active request completes, makes it inactive and returns its index;
     * returns -1 if no request is active (all null or inactive).
     *
     * @throws RmaException the error of the request that completed, if it failed (it is inactive
     *                      afterwards, so a further waitAny goes on with the others).
     */
    public static int waitAny(final MessageRequest... requests) {
        Objects.requireNonNull(requests, "requests");
        final int[] found = {-1};
        waitUntil(requests, () -> {
            boolean active = false;
            for (int i = 0; i < requests.length; i++) {
                final MessageRequest request = requests[i];
                if (request != null && !request.reported) {
                    active = true;
                    if (request.complete) {
                        found[0] = i;
                        return true;
                    }
                }
            }
            return !active;
        });
        final int index = found[0];
        if (index >= 0) {
            final MessageRequest request = requests[index];
            request.reported = true;
            request.throwIfFailed();
        }
        return index;
    }

    /**
     * Makes progress on the requests' Messaging objects until {@code done}: asleep on the object's
     * notification lanes when all requests belong to one (the usual case), polling with back-off when
     * they belong to several.
     */
    private static void waitUntil(final MessageRequest[] requests, final BooleanSupplier done) {
        final List<MessagingEngine> engines = new ArrayList<>(1);
        for (final MessageRequest request : requests) {
            if (request != null && !request.complete && !engines.contains(request.engine)) {
                request.engine.checkOpen("wait");
                engines.add(request.engine);
            }
        }
        if (engines.isEmpty()) {
            done.getAsBoolean();
        } else if (engines.size() == 1) {
            engines.getFirst().waitUntil(done);
        } else {
            MessagingEngine.waitUntil(engines, done);
        }
    }

    /**
     * Completes a send: its buffer may be reused.
     */
    void completeSend(final int rank, final long length) {
        complete(new MessageStatus(rank, tag, (int)length));
    }

    void complete(final MessageStatus completed) {
        status = completed;
        complete = true;
    }

    /**
     * Completes the request with an error that the call reporting its completion throws.
     */
    void fail(final ErrorClass failure, final String message) {
        errorClass = failure;
        errorMessage = message;
        complete = true;
    }

    /**
     * Fails the request with an error that also ends a {@link #waitAll} it is part of at once: the
     * other requests may depend on progress that this failure rules out.
     */
    void failEndingWaits(final ErrorClass failure, final String message) {
        endsWaits = true;
        fail(failure, message);
    }

    boolean isComplete() {
        return complete;
    }

    boolean isSend() {
        return send;
    }

    MemorySegment buffer() {
        return buffer;
    }

    /** @return the destination of a send, or the source (or ANY_SOURCE) a receive wants. */
    int peer() {
        return peer;
    }

    /** @return {@link MessagingEngine#USER_CONTEXT} or {@link MessagingEngine#COLLECTIVE_CONTEXT}. */
    int context() {
        return context;
    }

    /** @return the tag of a send, or the tag (or ANY_TAG) a receive wants. */
    int tag() {
        return tag;
    }

    private void throwIfFailed() {
        if (errorClass != null) {
            throw error();
        }
    }

    private RmaException error() {
        return new RmaException(errorClass, errorMessage);
    }

    @Override
    public String toString() {
        return "MessageRequest{"
            + (send ? "send to " + peer : "recv from " + (peer == Rma.ANY_SOURCE ? "ANY" : Integer.toString(peer)))
            + ", tag=" + (tag == Rma.ANY_TAG ? "ANY" : Integer.toString(tag)) + (context != 0 ? " (collective)" : "")
            + ", " + buffer.byteSize() + " B, " + (complete ? (errorClass != null ? "failed" : "complete") : "pending")
            + (reported ? ", inactive" : "") + '}';
    }
}
