package org.rma4j.examples.notified;

/**
 * One rank's part of the window of {@link PingPong}: displacement unit 1 (byte displacements).
 * <pre>
 *   byte offset        field               written by
 *     0                FLAG (long)         the peer: accumulate REPLACE of the round's sequence number
 *     8..255           padding                       (putflush variant only)
 *   256                DATA (maxSize B)    the peer: the payload of each put / putNotify
 * </pre>
 * Publication (putflush): the peer puts DATA and flushes before it writes FLAG, and this rank reads
 * FLAG with fetch_and_op(NO_OP) before it loads DATA. The other variants use DATA only. FLAG and DATA
 * are written at different times of the round, so they sit two cache lines apart (the adjacent-line
 * prefetcher pairs lines).
 */
final class PingPongLayout {
    /** Displacement of the round flag. */
    static final long FLAG_OFFSET = 0;
    /** Displacement of the payload. */
    static final long DATA_OFFSET = 256;
    /** Displacement unit of the window. */
    static final int DISP_UNIT = 1;

    private PingPongLayout() {
    }

    /**
     * @return the bytes of one rank's part for payloads of up to {@code maxSizeBytes}.
     */
    static long windowBytes(final long maxSizeBytes) {
        return DATA_OFFSET + maxSizeBytes;
    }
}
