package org.rma4j.examples.notified;

/**
 * One rank's part of the window of {@link PipelinedStencil}: displacement unit 1 (byte displacements),
 * for a grid of {@code n} rows.
 * <pre>
 *   byte offset        field                 written by
 *     0                ROW_FLAG (long)       the left neighbour: accumulate REPLACE of pass * n + row
 *     8..127           padding                                   (putflush variant only)
 *   128                CORNER_FLAG (long)    the last rank, at rank 0: accumulate REPLACE of pass + 1
 *   136..255           padding                                   (putflush variant only)
 *   256                SLOT[0] (double)      the last rank, at rank 0: -A(m-1, n-1), the next A(0, 0)
 *   256 + 8 j          SLOT[j], 1 <= j < n   the left neighbour: A(lo-1, j), its last value of row j
 * </pre>
 * Publication (putflush): a slot is put and flushed before the flag that announces it, and the flags
 * only grow, so this rank reads a flag with fetch_and_op(NO_OP) and then loads the slots it covers.
 * The two flags are written by different ranks, so they sit two cache lines apart (the adjacent-line
 * prefetcher pairs lines). Every slot is written once per pass; the next pass's write of a slot
 * happens after this rank has read it (see {@link PipelinedStencil}).
 */
final class StencilLayout {
    /** Displacement of the flag of rows received from the left neighbour. */
    static final long ROW_FLAG_OFFSET = 0;
    /** Displacement of the flag of corner values received from the last rank (rank 0 only). */
    static final long CORNER_FLAG_OFFSET = 128;
    /** Displacement of slot 0. */
    static final long SLOTS_OFFSET = 256;
    /** Displacement unit of the window. */
    static final int DISP_UNIT = 1;
    /** The slot of the corner value. */
    static final int CORNER_SLOT = 0;

    private StencilLayout() {
    }

    /**
     * @return the displacement of slot {@code index}.
     */
    static long slotOffset(final int index) {
        return SLOTS_OFFSET + (long)index * Double.BYTES;
    }

    /**
     * @return the bytes of one rank's part for a grid of {@code rows} rows.
     */
    static long windowBytes(final int rows) {
        return slotOffset(rows);
    }
}
