package org.rma4j.messaging;

import java.lang.foreign.MemorySegment;
import org.rma4j.internal.InlineWords;

/**
 * The state of messages in flight in a {@link MessagingEngine}: unexpected arrivals, inbound and outbound
 * rendezvous transfers. Plain holders, owned by the engine's thread.
 */
final class MessagingTransfers {
    private MessagingTransfers() {
    }

    /**
     * A message that arrived before a receive matched it, in a private buffer. An eager message's buffer is
     * {@link #spare() reused}: once its data is copied out, the engine keeps the object for the next arrival
     * (a stream of unexpected messages then allocates nothing).
     */
    static final class Unexpected {
        int source;
        int wireTag;
        int length;
        /**
         * The message's bytes from offset 0 ({@link #length} of them; a reused buffer may be longer), unless
         * {@link #inline} or unread ({@link #directPid}).
         */
        MemorySegment data;
        /** Whether the message's bytes are {@link #words} (it travelled in its notification), not {@link #data}. */
        boolean inline;
        /** The bytes of a message that travelled in its notification, as the entry's words ({@link InlineWords}). */
        final long[] words = new long[InlineWords.WORDS];
        /**
         * The sender's pid while this is a direct rendezvous message not read yet (its bytes are at
         * {@link #directAddress} in the sender's process), else 0.
         */
        long directPid;
        /** Where a direct rendezvous message's bytes are in its sender's process. */
        long directAddress;
        /** The rendezvous still arriving into {@link #data}, or null once all of it is there. */
        Inbound inbound;
        /** Whether this is an eager message's reusable buffer (never a rendezvous's). */
        final boolean reusable;

        Unexpected(final int source, final int wireTag, final int length, final MemorySegment data,
            final Inbound inbound) {
            this(source, wireTag, length, data, inbound, false);
        }

        private Unexpected(final int source, final int wireTag, final int length, final MemorySegment data,
            final Inbound inbound, final boolean reusable) {
            this.source = source;
            this.wireTag = wireTag;
            this.length = length;
            this.data = data;
            this.inbound = inbound;
            this.reusable = reusable;
        }

        /**
         * @return a reusable buffer of {@code capacity} bytes for eager messages.
         */
        static Unexpected spare(final int capacity) {
            return new Unexpected(0, 0, 0, MemorySegment.ofArray(new byte[capacity]), null, true);
        }

        /** @return whether an eager message of {@code bytes} fits this reusable buffer. */
        boolean holds(final int bytes) {
            return data.byteSize() >= bytes;
        }

        /**
         * Copies the first {@code bytes} of the message (all of it, unless a rendezvous is still arriving) into
         * {@code target}.
         */
        void copyTo(final MemorySegment target, final long bytes) {
            if (inline) {
                InlineWords.write(target, 0, (int)bytes, words, 0);
            } else {
                MemorySegment.copy(data, 0, target, 0, bytes);
            }
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
        /**
         * Whether this is a direct message whose first part the sender writes into {@link #target} (the rest this
         * rank has read), complete at the sender's chunk signal.
         */
        boolean split;
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

    /**
     * A rendezvous message this rank is staging for its receiver, or that its receiver reads directly from the
     * send's buffer (one chunk, acknowledged once the receiver has read it all).
     */
    static final class Outbound {
        final MessageRequest request;
        final long chunks;
        /** Whether the receiver reads the send's buffer directly ({@link org.rma4j.shm.CrossMemory}). */
        final boolean direct;
        long staged;
        long acknowledged;

        Outbound(final MessageRequest request, final long chunks, final boolean direct) {
            this.request = request;
            this.chunks = chunks;
            this.direct = direct;
        }
    }
}
