package org.rma4j.internal;

import org.rma4j.notify.Notification;

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
    /** Bytes of each arrival's data that travelled in its notification (0 if none). */
    public final int[] inlineLength;
    /**
     * The data that travelled inline, as the entry's words ({@link InlineWords}): arrival {@code i}'s from index
     * {@code i * InlineWords.WORDS} (words past its {@link #inlineLength} undefined).
     */
    public final long[] inlineWords;
    private int taken;

    /**
     * @param capacity arrivals one drain takes at most.
     */
    public ArrivalBatch(final int capacity) {
        source = new int[capacity];
        tag = new int[capacity];
        displacement = new long[capacity];
        length = new int[capacity];
        inlineLength = new int[capacity];
        inlineWords = new long[capacity * InlineWords.WORDS];
    }

    /**
     * @return arrivals one drain takes at most.
     */
    public int capacity() {
        return source.length;
    }

    /**
     * @return how many arrivals the last take put into this batch.
     */
    public int taken() {
        return taken;
    }

    /**
     * Records how many arrivals a take put into this batch (the endpoint, at the end of each take).
     */
    public void taken(final int count) {
        taken = count;
    }

    /**
     * Records {@code notification} as arrival {@code index}; for the endpoint's drain.
     */
    public void set(final int index, final Notification notification) {
        source[index] = notification.source();
        tag[index] = notification.tag();
        displacement[index] = notification.displacement();
        length[index] = notification.length();
        final int inline = notification.inlineLength();
        final int from = index * InlineWords.WORDS;
        for (int w = 0; w << 3 < inline; w++) {
            inlineWords[from + w] = notification.inlineWord(w);
        }
        inlineLength[index] = inline;
    }
}
