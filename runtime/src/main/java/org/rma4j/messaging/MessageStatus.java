package org.rma4j.messaging;

/**
 * What a completed receive got (MPI_Status of a two-sided {@link Messaging} call): the rank that sent
 * the message, its tag and its length in bytes (MPI_GET_COUNT with MPI_BYTE).
 *
 * <p>A receive from {@link org.rma4j.Rma#PROC_NULL} completes at once with {@code (PROC_NULL, ANY_TAG, 0)}. A
 * completed send reports this rank, the tag sent and the length sent.
 *
 * @param source the sender's rank.
 * @param tag    the tag the message was sent with.
 * @param length the message's length in bytes.
 */
public record MessageStatus(int source, int tag, int length) {
}
