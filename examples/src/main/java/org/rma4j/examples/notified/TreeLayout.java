package org.rma4j.examples.notified;

/**
 * One rank's part of the window of {@link TreeReduction}: displacement unit 1 (byte displacements),
 * for vectors of {@code length} longs.
 * <pre>
 *   byte offset              field                         written by
 *     0                      COUNTER (long)                every child: accumulate SUM 1 per round
 *     8..255                 padding                                    (putflush variant only)
 *   256 + 8 length c         SLOT[c] (length longs),       child number c: its partial sum
 *                            0 <= c < 16
 * </pre>
 * Publication (putflush): a child puts its slot and flushes before it increments COUNTER; the counter
 * only grows, so once it reaches (round + 1) x children every slot of the round is in place. The
 * counter is written by every child, the slots each by one; the counter sits two cache lines before
 * the first slot (the adjacent-line prefetcher pairs lines). A slot is rewritten only in the next
 * round, after a barrier that follows the parent's last read of it.
 */
final class TreeLayout {
    /** Displacement of the round counter. */
    static final long COUNTER_OFFSET = 0;
    /** Displacement of slot 0. */
    static final long SLOTS_OFFSET = 256;
    /** Displacement unit of the window. */
    static final int DISP_UNIT = 1;

    private TreeLayout() {
    }

    /**
     * @return the displacement of child slot {@code child} for vectors of {@code length} longs.
     */
    static long slotOffset(final int child, final int length) {
        return SLOTS_OFFSET + (long)child * length * Long.BYTES;
    }

    /**
     * @return the bytes of one rank's part with {@code children} slots of {@code length} longs.
     */
    static long windowBytes(final int children, final int length) {
        return slotOffset(children, length);
    }
}
