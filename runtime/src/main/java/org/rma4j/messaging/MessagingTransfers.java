package org.rma4j.messaging;

import java.lang.foreign.MemorySegment;

/**
 * The state of messages in flight in a {@link MessagingEngine}: unexpected arrivals, inbound and outbound
 * rendezvous transfers. Plain holders, owned by the engine's thread.
 */
final class MessagingTransfers {
    private MessagingTransfers() {
    }

    /** A message that arrived before a receive matched it, in a private buffer. */
    static final class Unexpected {
        final int source;
        final int wireTag;
        final int length;
        final MemorySegment data;
        /** The rendezvous still arriving into {@link #data}, or null once all of it is there. */
        Inbound inbound;

        Unexpected(final int source, final int wireTag, final int length, final MemorySegment data,
            final Inbound inbound) {
            this.source = source;
            this.wireTag = wireTag;
            this.length = length;
            this.data = data;
            this.inbound = inbound;
        }
    }

    /** A rendezvous message this rank is reading from its sender's staging area. */
    static final class Inbound {
        final int source;
        final int wireTag;
        final long length;
        final long chunks;
        long pulled;
        /** Where the chunks go: the receive's buffer, the private buffer, or null to discard them. */
        MemorySegment target;
        /** The matched receive, completed with the last chunk; null while unmatched or when discarding. */
        MessageRequest request;
        /** The unexpected entry while unmatched. */
        Unexpected parked;

        Inbound(final int source, final int wireTag, final long length, final long chunks) {
            this.source = source;
            this.wireTag = wireTag;
            this.length = length;
            this.chunks = chunks;
        }
    }

    /** A rendezvous message this rank is staging for its receiver. */
    static final class Outbound {
        final MessageRequest request;
        final long chunks;
        long staged;
        long acknowledged;

        Outbound(final MessageRequest request, final long chunks) {
            this.request = request;
            this.chunks = chunks;
        }
    }
}
