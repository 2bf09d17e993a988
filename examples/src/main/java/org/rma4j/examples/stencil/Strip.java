package org.rma4j.examples.stencil;

/**
 * The lines (rows or columns) of the grid one rank owns: lines {@code first .. first + lines - 1}.
 *
 * @param first the first owned line.
 * @param lines how many lines the rank owns, >= 1.
 */
record Strip(int first, int lines) {
    /**
     * @return the strip of {@code rank}: {@code total} lines split as evenly as possible, the first
     *         {@code total % ranks} ranks taking one line more.
     */
    static Strip of(final int rank, final int ranks, final int total) {
        final int base = total / ranks;
        final int extra = total % ranks;
        return new Strip(rank * base + Math.min(rank, extra), base + (rank < extra ? 1 : 0));
    }

    /**
     * @return the line after the last owned one.
     */
    int end() {
        return first + lines;
    }
}
