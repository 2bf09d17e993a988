package org.rma4j.internal;

/**
 * Notifications taken from a window's notification endpoint in one step ({@link RuntimeAccess#drainArrivals}),
 * as parallel arrays, for the two-sided layer: it handles them after the endpoint's monitor is released (its
 * handling makes notified accesses, which must not run inside a drain). Reused from drain to drain by one thread.
 */
public final class ArrivalBatch {
    /** The source rank of each arrival. */
    public final int[] source;
    /** The tag of each arrival. */
    public final int[] tag;
    /** The target displacement of each arrival's notified access. */
    public final long[] displacement;
    /** The byte length of each arrival's notified access. */
    public final int[] length;

    /**
     * @param capacity arrivals one drain takes at most.
     */
    public ArrivalBatch(final int capacity) {
        source = new int[capacity];
        tag = new int[capacity];
        displacement = new long[capacity];
        length = new int[capacity];
    }

    /**
     * @return arrivals one drain takes at most.
     */
    public int capacity() {
        return source.length;
    }

    /**
     * Records arrival {@code index}; for the endpoint's drain.
     */
    public void set(final int index, final int source, final int tag, final long displacement, final int length) {
        this.source[index] = source;
        this.tag[index] = tag;
        this.displacement[index] = displacement;
        this.length[index] = length;
    }
}
