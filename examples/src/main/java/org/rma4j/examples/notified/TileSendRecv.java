package org.rma4j.examples.notified;

import java.lang.foreign.MemorySegment;
import org.rma4j.messaging.MessageStatus;
import org.rma4j.messaging.Messaging;
import org.rma4j.Rma;
import org.rma4j.RmaJob;

/**
 * The message-passing {@link TileTransport} of {@link TileCholesky} (Belli and Hoefler, section VI-C):
 * the producer sends the tile with its tag; the consumer receives from ANY_SOURCE with ANY_TAG and
 * learns from the status's tag which tile it got. The paper probes first and then receives straight
 * into the tile; {@link Messaging} has no probe, so the tile lands in a staging buffer that the
 * consumer copies from.
 */
final class TileSendRecv implements TileTransport {
    private final Messaging messaging;
    private final CholeskyLayout layout;
    private final MemorySegment staging;

    /**
     * Collective: creates the job's messaging layer.
     */
    TileSendRecv(final RmaJob job, final CholeskyLayout layout) {
        this.messaging = Messaging.create(job);
        this.layout = layout;
        this.staging = MemorySegment.ofArray(new double[(int)(layout.tileBytes() / Double.BYTES)]);
    }

    @Override
    public void publish(final int tag, final double[] tile, final int[] consumers) {
        for (final int consumer : consumers) {
            messaging.send(tile, 0, tile.length, consumer, tag);
        }
    }

    @Override
    public Arrival receive() {
        final MessageStatus status = messaging.recv(staging, Rma.ANY_SOURCE, Rma.ANY_TAG);
        if (status.length() != layout.tileBytes()) {
            throw new IllegalStateException("message " + status + " is not a tile of " + layout.tileBytes() + " bytes");
        }
        return new Arrival(status.tag(), staging);
    }

    @Override
    public void close() {
        messaging.close();
    }
}
