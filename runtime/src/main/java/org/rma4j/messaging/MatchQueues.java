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

    /**
     * @return the oldest unexpected arrival that {@code request} matches, removed from the queue, or null.
     */
    Unexpected takeUnexpected(final MessageRequest request) {
        if (unexpected.isEmpty()) {
            return null;
        }
        final Iterator<Unexpected> waiting = unexpected.iterator();
        while (waiting.hasNext()) {
            final Unexpected message = waiting.next();
            if (matches(request, message.source, message.wireTag)) {
                waiting.remove();
                return message;
            }
        }
        return null;
    }

    /**
     * @return the oldest posted receive that matches an arrival from {@code source} with {@code wireTag},
     *         removed from the queue, or null.
     */
    MessageRequest takePosted(final int source, final int wireTag) {
        if (posted.isEmpty()) {
            return null;
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
        return (wireTag & MessagingEngine.COLLECTIVE_CONTEXT) == request.context()
            && (request.tag() == Rma.ANY_TAG || request.tag() == (wireTag & MessagingEngine.TAG_UB))
            && (request.peer() == Rma.ANY_SOURCE || request.peer() == source);
    }

    static MessageStatus status(final int source, final int wireTag, final long length) {
        return new MessageStatus(source, wireTag & MessagingEngine.TAG_UB, (int)length);
    }
}
