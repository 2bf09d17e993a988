package org.rma4j.litmus.model;

/**
 * A binary relation over actions 0..n-1 as a bit matrix, with transitive closure. Small and
 * copy-friendly: the enumerator copies it at every branch.
 */
final class BitRelation {
    private final int n;
    private final int words;
    private final long[] bits;

    BitRelation(final int n) {
        this.n = n;
        this.words = (n + 63) >>> 6;
        this.bits = new long[n * words];
    }

    private BitRelation(final BitRelation other) {
        this.n = other.n;
        this.words = other.words;
        this.bits = other.bits.clone();
    }

    BitRelation copy() {
        return new BitRelation(this);
    }

    int size() {
        return n;
    }

    /** Adds {@code a -> b}; returns whether it was new. */
    boolean add(final int a, final int b) {
        final int index = a * words + (b >>> 6);
        final long mask = 1L << (b & 63);
        if ((bits[index] & mask) != 0) {
            return false;
        }
        bits[index] |= mask;
        return true;
    }

    /**
     * Adds {@code a -> b} to a transitively closed relation and keeps it closed: every x that
     * reaches a (and a itself) now reaches b and everything b reaches.
     */
    void addClosed(final int a, final int b) {
        if (has(a, b)) {
            return;
        }
        final int bRow = b * words;
        final int bWord = b >>> 6;
        final long bBit = 1L << (b & 63);
        for (int x = 0; x < n; x++) {
            if (x == a || has(x, a)) {
                final int xRow = x * words;
                for (int w = 0; w < words; w++) {
                    bits[xRow + w] |= bits[bRow + w];
                }
                bits[xRow + bWord] |= bBit;
            }
        }
    }

    boolean has(final int a, final int b) {
        return (bits[a * words + (b >>> 6)] & (1L << (b & 63))) != 0;
    }

    /** @return whether a and b are ordered either way. */
    boolean ordered(final int a, final int b) {
        return has(a, b) || has(b, a);
    }

    /** Makes the relation transitive (Warshall over bit rows). */
    void close() {
        for (int k = 0; k < n; k++) {
            final int kRow = k * words;
            for (int i = 0; i < n; i++) {
                if (has(i, k)) {
                    final int iRow = i * words;
                    for (int w = 0; w < words; w++) {
                        bits[iRow + w] |= bits[kRow + w];
                    }
                }
            }
        }
    }

    /** @return whether some a has a -> a (after {@link #close()}: whether the relation has a cycle). */
    boolean reflexive() {
        for (int i = 0; i < n; i++) {
            if (has(i, i)) {
                return true;
            }
        }
        return false;
    }

    /** @return a topological order (the relation must be closed and acyclic). */
    int[] topologicalOrder() {
        final int[] predecessors = new int[n];
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                if (has(a, b)) {
                    predecessors[b]++;
                }
            }
        }
        // In a closed relation, sorting by the number of predecessors is a topological order.
        final Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (x, y) -> Integer.compare(predecessors[x], predecessors[y]));
        final int[] result = new int[n];
        for (int i = 0; i < n; i++) {
            result[i] = order[i];
        }
        return result;
    }
}
