package org.rma4j;

/**
 * The results of MPI_COMM_COMPARE and MPI_GROUP_COMPARE (MPI-3.1 sections 6.3.1 and 6.4.1).
 */
public enum Comparison {
    /** MPI_IDENT: the same communicator (the same handle), or groups with the same members in the same order. */
    IDENT,
    /** MPI_CONGRUENT: two communicators whose groups have the same members in the same order (a dup, say). */
    CONGRUENT,
    /** MPI_SIMILAR: the same members in another order. */
    SIMILAR,
    /** MPI_UNEQUAL: other members. */
    UNEQUAL;

    /**
     * @return the standard's name, e.g. {@code MPI_CONGRUENT}.
     */
    public String mpiName() {
        return "MPI_" + name();
    }

    /**
     * @return IDENT if both have the same members in the same order, SIMILAR if in another order, else
     *         UNEQUAL.
     */
    static Comparison ofMembers(final int[] a, final int[] b) {
        if (java.util.Arrays.equals(a, b)) {
            return IDENT;
        }
        if (a.length != b.length) {
            return UNEQUAL;
        }
        final int[] x = a.clone();
        final int[] y = b.clone();
        java.util.Arrays.sort(x);
        java.util.Arrays.sort(y);
        return java.util.Arrays.equals(x, y) ? SIMILAR : UNEQUAL;
    }
}
