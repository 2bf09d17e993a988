package org.rma4j.shm;

/**
 * Layout of a sense-reversing central barrier ({@link ShmBarrier}), placed at a {@link Align#PAD}-aligned
 * offset of a shared file.
 *
 * <pre>
 *   0          4                                                          128
 *   +----------+----------------------------------------------------------+
 *   | arrivals | padding                                                  |
 *   | (int)    |                                                          |
 *   +----------+----------+-----------------------------------------------+ 128
 *   | generation wait word| padding                                       |
 *   | (int, sleepers int) |                                               |
 *   +---------------------+-----------------------------------------------+ 256
 * </pre>
 *
 * Publication rule: every party reads the generation with a volatile load, then adds one to the arrivals
 * with an atomic add; the party that completes the count (the only writer of the generation in that
 * episode) resets the arrivals to 0 with a volatile store and then publishes generation + 1 with a
 * volatile store and wakes the sleepers; the others wait, with volatile loads, for the generation to
 * differ from the one they read. The two words are a line pair apart: the arrivals take one atomic per
 * party, the generation is read by every waiter.
 */
public final class BarrierLayout {
    /** Number of parties that arrived in the current episode (int), written by every party. */
    public static final int ARRIVALS_OFFSET = 0;
    /** Wait word counting completed episodes, written by the last party of each episode. */
    public static final int GENERATION_OFFSET = ARRIVALS_OFFSET + Align.PAD;
    /** Bytes the barrier occupies. */
    public static final int LENGTH = GENERATION_OFFSET + Align.PAD;

    private BarrierLayout() {
    }
}
