package org.rma4j.messaging;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.rma4j.Window;
import org.rma4j.messaging.MessagingTransfers.Inbound;
import org.rma4j.messaging.MessagingTransfers.Unexpected;

/**
 * The receive side of the rendezvous protocol of a {@link MessagingEngine} (see {@link Messaging}): matching an
 * announced message, reading its chunks from the sender's staging halves with notified gets (into the matched
 * receive's buffer or a private one), and handing an unexpected message, arrived or still arriving, to the
 * receive that takes it. At most one inbound message per sender is in flight ({@code inbound[s]}). Owned by
 * the engine's thread.
 */
final class RendezvousInbound {
    private final Window window;
    private final MessagingLayout layout;
    private final MemorySegment local;
    private final int rank;
    private final MatchQueues queues;
    private final Inbound[] inbound;

    RendezvousInbound(final Window window, final MessagingLayout layout, final MatchQueues queues) {
        this.window = window;
        this.layout = layout;
        this.local = window.segment();
        this.rank = window.rank();
        this.queues = queues;
        this.inbound = new Inbound[layout.ranks()];
    }

    /**
     * A rendezvous message from {@code source}: matches it, then reads its first two chunks. An
     * unmatched one is read into a private buffer, so its sender never waits for a receive to be posted.
     */
    void onRendezvous(final int source, final int wireTag) {
        if (inbound[source] != null) {
            throw new IllegalStateException(
                "rank " + rank + " got a second rendezvous from rank " + source + " while one is in flight");
        }
        final long length = local.get(ValueLayout.JAVA_LONG, layout.rtsOffset(source));
        final Inbound message = new Inbound(source, wireTag, length, layout.chunks(length));
        inbound[source] = message;
        final MessageRequest request = queues.takePosted(source, wireTag);
        if (request != null) {
            attach(message, request);
        } else {
            final Unexpected parked = new Unexpected(source, wireTag, (int)length,
                MemorySegment.ofArray(new byte[(int)length]), message);
            message.target = parked.data;
            message.parked = parked;
            queues.park(parked);
        }
        pull(message);
        if (message.pulled < message.chunks) {
            pull(message);
        }
    }

    /**
     * Reads the next chunk of an inbound rendezvous message from the sender's staging half into its
     * target (nothing, when the message is being discarded); the notified get tells the sender.
     */
    void pull(final Inbound message) {
        final long chunk = message.pulled;
        final long offset = chunk * layout.chunkBytes();
        final long bytes = Math.min(layout.chunkBytes(), message.length - offset);
        final MemorySegment into = message.target == null ? MemorySegment.NULL : message.target.asSlice(offset, bytes);
        window.getNotify(into, message.source, layout.stagingOffset(rank, chunk), MessagingEngine.CONTROL_TAG);
        message.pulled++;
        if (message.pulled == message.chunks) {
            inbound[message.source] = null;
            if (message.request != null) {
                message.request.complete(queues.status(message.source, message.wireTag, message.length));
            }
            if (message.parked != null) {
                message.parked.inbound = null;
            }
        }
    }

    /**
     * Lets {@code request} receive the rest of an inbound rendezvous message (or discards the rest if
     * the message does not fit, failing the request).
     */
    private void attach(final Inbound message, final MessageRequest request) {
        message.parked = null;
        if (MatchQueues.fits(request, message.source, message.wireTag, message.length)) {
            message.request = request;
            message.target = request.buffer();
        } else {
            message.target = null;
        }
    }

    /**
     * A posted receive takes an unexpected message: the part that has arrived is copied from the
     * private buffer; the rest of a rendezvous message still arriving goes straight to the receive.
     */
    void takeUnexpected(final MessageRequest request, final Unexpected message) {
        final Inbound arriving = message.inbound;
        if (arriving != null) {
            final long arrived = Math.min(arriving.pulled * layout.chunkBytes(), message.length);
            attach(arriving, request);
            if (arriving.target != null) {
                message.copyTo(request.buffer(), arrived);
            }
        } else if (MatchQueues.fits(request, message.source, message.wireTag, message.length)) {
            message.copyTo(request.buffer(), message.length);
            request.complete(queues.status(message.source, message.wireTag, message.length));
        }
    }

    Inbound inboundFrom(final int source) {
        final Inbound message = inbound[source];
        if (message == null) {
            throw new IllegalStateException(
                "rank " + rank + " got a rendezvous chunk from rank " + source + " with no rendezvous in flight");
        }
        return message;
    }
}
