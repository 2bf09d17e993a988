package org.rma4j.shm;

/**
 * Layout of a sense-reversing central barrier, placed at a 128-byte aligned offset of a shared file.
 *
 * <pre>
 *   0                                                              128
 *   +--------------------------------------------------------------+
 *   | arrivals (int) written by every arriving party | padding     |
 *   +--------------------------------------------------------------+
 *   | generation (wait word: int value, int sleepers) | padding    |
 *   +--------------------------------------------------------------+ 256
 * </pre>
 *
 * Protocol: a party reads the generation (volatile), then adds one to the arrivals; the party that
 * completes the count resets the arrivals to 0 and then publishes generation + 1 (volatile) and
 * wakes the sleepers; the others wait for the generation to differ from the one they read.
 */
public final class BarrierLayout {
    public static final int ARRIVALS_OFFSET = 0;
    public static final int GENERATION_OFFSET = Align.PAD;
    /** Bytes the barrier occupies. */
    public static final int LENGTH = 2 * Align.PAD;

    private BarrierLayout() {
    }
}
