package org.rma4j.examples.notified;

import java.lang.foreign.MemorySegment;

/**
 * One rank's side of the {@link PingPong} transport in one synchronization variant: the two halves of
 * a round trip between rank 0 (the client) and rank 1 (the server), the code of section V's listings.
 * Ranks 2 and up take part only in the collective calls of a variant ({@link #standBy()}).
 *
 * <p>A payload delivered by {@link #send} must not be overwritten before the peer has answered it: the
 * ping-pong's strict alternation guarantees that for the window and buffers of every variant.
 */
interface PingPongChannel extends AutoCloseable {
    /**
     * Delivers {@code payload} to the peer: the origin side of one half round trip.
     *
     * @param sequence the number of this half round trip, starting at 1 and increasing by one per call
     *                 of send or receive at either rank, so both ranks agree on it.
     */
    void send(MemorySegment payload, long sequence);

    /**
     * Blocks until the peer's payload of {@code sizeBytes} sent with {@code sequence} has arrived.
     *
     * @return a view of the payload, valid until this rank's next send.
     */
    MemorySegment receive(long sizeBytes, long sequence);

    /**
     * At a rank outside the pair: takes part in the collective calls of one round trip.
     */
    default void standBy() {
    }

    /**
     * Collective: releases the variant's window and requests.
     */
    @Override
    void close();
}
