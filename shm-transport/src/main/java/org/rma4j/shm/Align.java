package org.rma4j.shm;

/**
 * Alignment constants and helpers shared by the layout descriptors.
 */
public final class Align {
    /** Size of a cache line on the supported processors. */
    public static final int CACHE_LINE = 64;
    /**
     * Distance between words written by different processes: two lines, so the adjacent-line
     * prefetcher does not pull a neighbour's line in with one's own.
     */
    public static final int PAD = 2 * CACHE_LINE;

    private Align() {
    }

    /**
     * @param value     a non-negative number.
     * @param alignment a power of two.
     * @return the smallest multiple of alignment that is >= value.
     */
    public static long up(final long value, final long alignment) {
        return (value + alignment - 1) & -alignment;
    }

    /**
     * The int form of {@link #up(long, long)}, for the offset constants of layout descriptors.
     *
     * @param value     a non-negative offset.
     * @param alignment a power of two.
     * @return the smallest multiple of alignment that is >= value.
     */
    public static int alignedOffset(final int value, final int alignment) {
        return (value + alignment - 1) & -alignment;
    }
}
