package org.rma4j.examples.notified;

import java.lang.foreign.MemorySegment;
import org.rma4j.messaging.MessageStatus;
import org.rma4j.messaging.Messaging;
import org.rma4j.RmaJob;

/**
 * The message-passing {@link PingPongChannel} of {@link PingPong}, as section V-A lists it: MPI_Send
 * of the payload, MPI_Recv of the answer, over {@link Messaging}. The receive completes only when the
 * message is in the buffer: data transfer and synchronization in one call, at the price of matching
 * and a copy through the receiver's bounce buffer (or a rendezvous for long messages).
 */
final class PingPongSendRecv implements PingPongChannel {
    private final Messaging messaging;
    private final int peer;
    private final MemorySegment buffer;

    /**
     * Collective: creates the job's messaging layer.
     */
    PingPongSendRecv(final RmaJob job, final long maxSizeBytes) {
        this.messaging = Messaging.create(job);
        this.peer = PingPongChannels.peerOf(job.rank());
        this.buffer = MemorySegment.ofArray(new long[(int)((maxSizeBytes + Long.BYTES - 1) / Long.BYTES)]);
    }

    @Override
    public void send(final MemorySegment payload, final long sequence) {
        messaging.send(payload, peer, PingPongChannels.TAG);
    }

    @Override
    public MemorySegment receive(final long sizeBytes, final long sequence) {
        final MessageStatus status = messaging.recv(buffer.asSlice(0, sizeBytes), peer, PingPongChannels.TAG);
        if (status.source() != peer || status.length() != sizeBytes) {
            throw new IllegalStateException(
                "message " + status + " is not the payload of " + sizeBytes + " bytes from rank " + peer);
        }
        return buffer.asSlice(0, sizeBytes);
    }

    @Override
    public void close() {
        messaging.close();
    }
}
