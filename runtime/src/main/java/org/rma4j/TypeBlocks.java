package org.rma4j;

import java.util.Arrays;

/**
 * The block list a {@link Datatype} constructor builds: runs of adjacent elements of one basic type in
 * type-map order, a run merged into the previous one when it continues it with the same basic type.
 * Also tracks the upper bound of the copies of old types and the largest basic element (the alignment MPI
 * gives the type).
 *
 * <p>Not thread-safe; one builder per constructor call.
 */
final class TypeBlocks {
    private long[] offsets = new long[8];
    private long[] counts = new long[8];
    private Datatype.Basic[] basics = new Datatype.Basic[8];
    private int size;
    private long upperBound;
    private int alignment = 1;

    /**
     * Appends {@code elements} elements of {@code basic} at byte {@code offset}.
     */
    void add(final long offset, final long elements, final Datatype.Basic basic) {
        alignment = Math.max(alignment, basic.bytes());
        if (size > 0 && basics[size - 1] == basic && offsets[size - 1] + counts[size - 1] * basic.bytes() == offset) {
            counts[size - 1] += elements;
            return;
        }
        if (size == offsets.length) {
            offsets = Arrays.copyOf(offsets, size * 2);
            counts = Arrays.copyOf(counts, size * 2);
            basics = Arrays.copyOf(basics, size * 2);
        }
        offsets[size] = offset;
        counts[size] = elements;
        basics[size] = basic;
        size++;
    }

    /**
     * Appends {@code copies} instances of {@code old}, the first at byte {@code start}, one extent apart
     * (the upper bound grows to their end):
     * one run when {@code old} is contiguous (so huge counts cost nothing), else every block of every copy.
     *
     * @throws ArithmeticException if an offset overflows a long.
     */
    void addCopies(final Datatype old, final long start, final long copies) {
        if (copies == 0) {
            return;
        }
        upperBound = Math.max(upperBound, Math.addExact(start, Math.multiplyExact(copies, old.extent())));
        if (old.isContiguous()) {
            if (old.elements() > 0) {
                add(start, Math.multiplyExact(copies, old.elements()), old.blockBasic(0));
            }
            return;
        }
        for (long copy = 0; copy < copies; copy++) {
            final long base = Math.addExact(start, Math.multiplyExact(copy, old.extent()));
            for (int k = 0; k < old.blocks(); k++) {
                add(Math.addExact(base, old.blockOffset(k)), old.blockElements(k), old.blockBasic(k));
            }
        }
    }

    long[] offsets() {
        return Arrays.copyOf(offsets, size);
    }

    long[] counts() {
        return Arrays.copyOf(counts, size);
    }

    Datatype.Basic[] basics() {
        return Arrays.copyOf(basics, size);
    }

    /**
     * @return the upper bound of the copies added with {@link #addCopies} (0 if none): the largest end of a
     *         block, where a block of n copies ends n old extents after its start, so the padding that ends
     *         an old type counts, as MPI's upper bound does (MPI-3.1 section 4.1).
     */
    long upperBound() {
        return upperBound;
    }

    /**
     * @return the size of the largest basic element added (1 if none).
     */
    int alignment() {
        return alignment;
    }

    /**
     * @return blocks of {@code lengths[i]} copies of {@code old} at {@code displacements[i] * unit} bytes.
     * @throws RmaException TYPE for a negative displacement, COUNT if they span more than {@link Long#MAX_VALUE}
     *                      bytes.
     */
    static TypeBlocks replicate(final Datatype old, final long[] displacements, final long unit, final long[] lengths,
        final String description) {
        final TypeBlocks blocks = new TypeBlocks();
        for (int i = 0; i < displacements.length; i++) {
            TypeArguments.checkDisplacement(description, displacements[i]);
            try {
                blocks.addCopies(old, Math.multiplyExact(displacements[i], unit), lengths[i]);
            } catch (final ArithmeticException e) {
                throw new RmaException(ErrorClass.COUNT, description + " spans more than " + Long.MAX_VALUE + " bytes");
            }
        }
        return blocks;
    }
}
