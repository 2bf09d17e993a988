package org.rma4j.examples.stencil;

/**
 * The notification words of {@link PassiveExchange}: a window of its own, displacement unit 1 (byte
 * displacements), one record per rank.
 * <pre>
 *   byte offset   word (long)   written by
 *     0           FROM_LOW      the low neighbour (rank - 1): accumulate SUM 1 after each phase's put
 *     8..127      padding
 *   128           FROM_HIGH     the high neighbour (rank + 1): accumulate SUM 1 after each phase's put
 *   136..255      padding
 * </pre>
 * Each counter is the number of phases whose halo line the neighbour has put into this rank's window
 * and flushed. Publication: the neighbour's put is flushed before its accumulate, and this rank reads
 * the counter with fetch_and_op NO_OP, then loads the halo. The two counters are written by different
 * processes, so they sit two cache lines apart (the adjacent-line prefetcher pairs lines).
 */
final class HaloFlagsLayout {
    /** Displacement of the counter of phases received from the low neighbour. */
    public static final long FROM_LOW_OFFSET = 0;
    /** Displacement of the counter of phases received from the high neighbour. */
    public static final long FROM_HIGH_OFFSET = 128;
    /** Bytes of one rank's record. */
    public static final long RECORD_BYTES = 256;
    /** Displacement unit of the window: byte displacements. */
    public static final int DISP_UNIT = 1;

    private HaloFlagsLayout() {
    }
}
