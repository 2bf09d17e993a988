package org.rma4j.examples.notified;

/**
 * The 16-ary reduction tree of {@link TreeReduction} (Belli and Hoefler, section VI-B) over ranks
 * 0..P-1, in heap order: the parent of rank r > 0 is (r - 1) / 16, and rank r's children are
 * 16 r + 1 .. 16 r + 16 (those below P). Child r is its parent's child number (r - 1) mod 16.
 */
final class TreeShape {
    /** Children per inner node. */
    static final int ARITY = 16;

    private TreeShape() {
    }

    /**
     * @return the parent of {@code rank} > 0.
     */
    static int parent(final int rank) {
        return (rank - 1) / ARITY;
    }

    /**
     * @return the position of {@code rank} > 0 among its parent's children, 0..15.
     */
    static int childIndex(final int rank) {
        return (rank - 1) % ARITY;
    }

    /**
     * @return the first child of {@code rank} (it exists only if below the job size).
     */
    static int firstChild(final int rank) {
        return ARITY * rank + 1;
    }

    /**
     * @return how many children {@code rank} has in a job of {@code ranks}.
     */
    static int childCount(final int rank, final int ranks) {
        final long first = (long)ARITY * rank + 1;
        return (int)Math.max(0, Math.min(ARITY, ranks - first));
    }
}
