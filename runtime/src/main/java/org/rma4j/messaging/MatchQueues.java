package org.rma4j.messaging;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.function.Consumer;
import org.rma4j.ErrorClass;
import org.rma4j.Rma;
import org.rma4j.messaging.MessagingTransfers.Unexpected;

/**
 * The matching queues of one {@link MessagingEngine}: the pending receives in call order and the
 * unmatched arrivals in arrival order, the matching rule of a receive's source, tag and context, and
 * the truncation check of a matched message. An arrival never sits in the unexpected queue while a
 * posted receive matches it (the engine looks for a posted receive first). Both are deques: the match is
 * usually the oldest entry, whose removal then costs O(1) however long the queue (a consumer behind many
 * producers has thousands of unexpected arrivals).
 */
final class MatchQueues {
    private final ArrayDeque<MessageRequest> posted = new ArrayDeque<>();
    private final ArrayDeque<Unexpected> unexpected = new ArrayDeque<>();
    /** The status {@link #status} made last. */
    private MessageStatus lastStatus;

    /**
     * @return the oldest unexpected arrival that {@code request} matches, removed from the queue, or null.
     */
    Unexpected takeUnexpected(final MessageRequest request) {
        return takeUnexpected(request.peer(), request.context(), request.tag(), -1);
    }

    /**
     * @param fitting -1 to take the message whatever it is, else take it only if it has arrived whole (not a
     *                rendezvous still arriving) and has at most {@code fitting} bytes.
     * @return the oldest unexpected arrival that a receive from {@code peer} with {@code context} and {@code tag}
     *         matches, removed from the queue; null if there is none, or if it is not {@code fitting} (then nothing
     *         is removed).
     */
    Unexpected takeUnexpected(final int peer, final int context, final int tag, final long fitting) {
        final Unexpected first = unexpected.peekFirst();
        if (first == null) {
            return null;
        }
        // NOTE: the usual case (messages received in the order they came) matches the oldest: no iterator is made.
        if (matches(peer, context, tag, first.source, first.wireTag)) {
            return fitting < 0 || fits(first, fitting) ? unexpected.pollFirst() : null;
        }
        final Iterator<Unexpected> waiting = unexpected.iterator();
        while (waiting.hasNext()) {
            final Unexpected message = waiting.next();
            if (matches(peer, context, tag, message.source, message.wireTag)) {
                if (fitting >= 0 && !fits(message, fitting)) {
                    return null;
                }
                waiting.remove();
                return message;
            }
        }
        return null;
    }

    /** Whether an unexpected message is there whole with at most {@code capacity} bytes (not unread, not arriving). */
    private static boolean fits(final Unexpected message, final long capacity) {
        return message.inbound == null && message.directPid == 0 && message.length <= capacity;
    }

    /**
     * @return the oldest posted receive that matches an arrival from {@code source} with {@code wireTag},
     *         removed from the queue, or null.
     */
    MessageRequest takePosted(final int source, final int wireTag) {
        final MessageRequest first = posted.peekFirst();
        if (first == null) {
            return null;
        }
        if (matches(first, source, wireTag)) {
            return posted.pollFirst();
        }
        final Iterator<MessageRequest> requests = posted.iterator();
        while (requests.hasNext()) {
            final MessageRequest request = requests.next();
            if (matches(request, source, wireTag)) {
                requests.remove();
                return request;
            }
        }
        return null;
    }

    /** Queues a receive that matched no unexpected arrival. */
    void post(final MessageRequest request) {
        posted.add(request);
    }

    /** Queues an arrival that matched no posted receive. */
    void park(final Unexpected message) {
        unexpected.add(message);
    }

    int postedCount() {
        return posted.size();
    }

    /**
     * Removes each posted receive of user messages that names {@code source}, in call order, and hands
     * it to {@code removed}.
     */
    void removePostedFrom(final int source, final Consumer<MessageRequest> removed) {
        final Iterator<MessageRequest> requests = posted.iterator();
        while (requests.hasNext()) {
            final MessageRequest request = requests.next();
            if (request.context() == MessagingEngine.USER_CONTEXT && request.peer() == source) {
                requests.remove();
                removed.accept(request);
            }
        }
    }

    /**
     * Hands every posted receive to {@code dropped}, in call order, then empties both queues.
     */
    void clear(final Consumer<MessageRequest> dropped) {
        for (final MessageRequest request : posted) {
            dropped.accept(request);
        }
        posted.clear();
        unexpected.clear();
    }

    /**
     * @return whether the message fits the receive's buffer; if not, fails the receive (MPI_ERR_TRUNCATE
     *         is reported as COUNT) without writing to its buffer.
     */
    static boolean fits(final MessageRequest request, final int source, final int wireTag, final long length) {
        final long capacity = request.buffer().byteSize();
        if (length <= capacity) {
            return true;
        }
        request.fail(ErrorClass.COUNT,
            "message truncated: recv buffer of " + capacity + " bytes is smaller than the " + length
                + "-byte message from rank " + source + " with tag " + (wireTag & MessagingEngine.TAG_UB)
                + "; the message was discarded and the buffer left unchanged");
        return false;
    }

    static boolean matches(final MessageRequest request, final int source, final int wireTag) {
        return matches(request.peer(), request.context(), request.tag(), source, wireTag);
    }

    /**
     * @return whether a receive from {@code peer} (or ANY_SOURCE) with {@code context} and {@code tag} (or ANY_TAG)
     *         matches an arrival from {@code source} with {@code wireTag}.
     */
    static boolean matches(final int peer, final int context, final int tag, final int source, final int wireTag) {
        return (wireTag & MessagingEngine.COLLECTIVE_CONTEXT) == context
            && (tag == Rma.ANY_TAG || tag == (wireTag & MessagingEngine.TAG_UB))
            && (peer == Rma.ANY_SOURCE || peer == source);
    }

    /**
     * @return the status of a received message. A stream of messages of one source, tag and length completes with
     *         the same status every time: the last one is handed out again (a record: equal values, the same
     *         meaning), so a receive per message allocates none.
     */
    MessageStatus status(final int source, final int wireTag, final long length) {
        final int tag = wireTag & MessagingEngine.TAG_UB;
        final MessageStatus previous = lastStatus;
        if (previous != null && previous.source() == source && previous.tag() == tag && previous.length() == length) {
            return previous;
        }
        final MessageStatus status = new MessageStatus(source, tag, (int)length);
        lastStatus = status;
        return status;
    }
}
