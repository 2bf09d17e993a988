package org.rma4j;

import java.util.Arrays;

/**
 * The argument checks and descriptions shared by the {@link Datatype} constructors; each check throws
 * {@link RmaException} with the MPI error class and the offending value.
 */
final class TypeArguments {
    /** Array entries a description shows before it abbreviates. */
    private static final int DESCRIBED_ENTRIES = 8;

    private TypeArguments() {
    }

    /**
     * Checks, before anything is allocated, that {@code entries} blocks of {@code blocklength} old types
     * cannot make more than {@link Datatype#MAX_BLOCKS} blocks: one block per entry when the old type is
     * contiguous (its copies touch), else one per block of each copy.
     *
     * @throws RmaException NO_MEM if they could.
     */
    static void checkBlocks(final String description, final long entries, final long blocklength, final Datatype old) {
        final long perEntry = old.isContiguous() ? 1 : saturatedProduct(blocklength, old.blocks());
        final long bound = saturatedProduct(entries, perEntry);
        if (entries > 0 && blocklength > 0 && bound > Datatype.MAX_BLOCKS) {
            throw tooManyBlocks(description, bound);
        }
    }

    static long saturatedProduct(final long a, final long b) {
        final long high = Math.multiplyHigh(a, b);
        return high != 0 || a * b < 0 ? Long.MAX_VALUE : a * b;
    }

    static RmaException tooManyBlocks(final String description, final long blocks) {
        return new RmaException(ErrorClass.NO_MEM, description + " would hold up to " + blocks + " blocks; a datatype"
            + " holds at most " + Datatype.MAX_BLOCKS + " (-D" + Datatype.MAX_BLOCKS_PROP_NAME + "=N)");
    }

    static void checkDisplacement(final String description, final long displacement) {
        if (displacement < 0) {
            throw new RmaException(ErrorClass.TYPE,
                description + ": displacement " + displacement + " is negative; rma4j datatypes have lower bound 0");
        }
    }

    static void checkOld(final Datatype old, final String call) {
        if (old == null) {
            throw new RmaException(ErrorClass.TYPE, call + " old type is null");
        }
    }

    static void checkCount(final int count, final String what) {
        if (count < 0) {
            throw new RmaException(ErrorClass.COUNT, what + "=" + count + " is negative");
        }
    }

    static long[] filled(final int length, final long value) {
        final long[] array = new long[length];
        Arrays.fill(array, value);
        return array;
    }

    /**
     * The rows of a subarray: one block per row of its fastest dimension.
     *
     * @param displacements each row's displacement in old extents, in C order.
     * @param run           old types in a row.
     * @param arrayElements old types in the whole array (saturated).
     */
    record SubarrayRows(long[] displacements, int run, long arrayElements) {
    }

    /**
     * Checks the arguments of MPI_TYPE_CREATE_SUBARRAY (MPI-3.1 section 4.1.3) and lists its rows.
     *
     * @throws RmaException ARG for arguments outside MPI's rules, NO_MEM for more rows than blocks allowed.
     */
    static SubarrayRows subarrayRows(final String description, final int[] sizes, final int[] subsizes,
        final int[] starts, final boolean cOrder, final Datatype old) {
        final int dims = sizes.length;
        if (dims == 0 || subsizes.length != dims || starts.length != dims) {
            throw new RmaException(ErrorClass.ARG, description + ": sizes, subsizes and starts need the same"
                + " number (>= 1) of dimensions and an order");
        }
        // Dimension d of the C-ordered view is dimension view[d] of the arguments.
        final int[] view = new int[dims];
        for (int d = 0; d < dims; d++) {
            view[d] = cOrder ? d : dims - 1 - d;
            final int size = sizes[d];
            final int subsize = subsizes[d];
            if (size < 1 || subsize < 1 || subsize > size || starts[d] < 0 || starts[d] > size - subsize) {
                throw new RmaException(ErrorClass.ARG,
                    description + ": dimension " + d + " has size " + size + ", subsize " + subsize + " and start "
                        + starts[d] + "; MPI needs 1 <= subsize <= size" + " and 0 <= start <= size - subsize");
            }
        }
        long rows = 1;
        long arrayElements = 1;
        for (int d = 0; d < dims; d++) {
            rows = d < dims - 1 ? saturatedProduct(rows, subsizes[view[d]]) : rows;
            arrayElements = saturatedProduct(arrayElements, sizes[d]);
        }
        final int run = subsizes[view[dims - 1]];
        checkBlocks(description, rows, run, old);
        // One block per row of the fastest dimension: its displacement in old extents, C order.
        final long[] displacements = new long[(int)rows];
        final int[] index = new int[dims];
        for (int row = 0; row < rows; row++) {
            long displacement = 0;
            for (int d = 0; d < dims; d++) {
                final int arg = view[d];
                displacement = displacement * sizes[arg] + starts[arg] + index[d];
            }
            displacements[row] = displacement;
            for (int d = dims - 2; d >= 0 && ++index[d] == subsizes[view[d]]; d--) {
                index[d] = 0;
            }
        }
        return new SubarrayRows(displacements, run, arrayElements);
    }

    /**
     * @return the array as {@link Arrays#toString(int[])} shows it, abbreviated after a few entries.
     */
    static String describe(final int[] array) {
        return describe(Arrays.stream(array).asLongStream().toArray());
    }

    /**
     * @return the array as {@link Arrays#toString(long[])} shows it, abbreviated after a few entries.
     */
    static String describe(final long[] array) {
        return describe(Arrays.stream(array).boxed().toArray());
    }

    /**
     * @return the entries as {@link Arrays#toString(Object[])} shows them, abbreviated after a few.
     */
    static String describe(final Object[] entries) {
        if (entries.length <= DESCRIBED_ENTRIES) {
            return Arrays.toString(entries);
        }
        final StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < DESCRIBED_ENTRIES; i++) {
            text.append(entries[i]).append(", ");
        }
        return text.append("... (").append(entries.length).append(" entries)]").toString();
    }

    /**
     * Checks the arguments of {@link Datatype#struct} before anything is allocated.
     *
     * @return the struct's description, for messages and {@code toString}.
     * @throws RmaException ARG for a null array, COUNT if the arrays differ in length or a length is negative,
     *                      TYPE for a null type or a negative displacement, NO_MEM for too many blocks.
     */
    static String checkStruct(final int[] blocklengths, final long[] byteDisplacements, final Datatype[] types) {
        if (blocklengths == null || byteDisplacements == null || types == null) {
            throw new RmaException(ErrorClass.ARG, "struct blocklengths, displacements and types must not be null");
        }
        final String description = "struct(" + describe(blocklengths) + ", " + describe(byteDisplacements) + ", "
            + describe(types) + ")";
        if (blocklengths.length != byteDisplacements.length || blocklengths.length != types.length) {
            throw new RmaException(ErrorClass.COUNT, description + " has " + blocklengths.length + " blocklengths, "
                + byteDisplacements.length + " displacements and " + types.length + " types");
        }
        long blocks = 0;
        for (int i = 0; i < types.length; i++) {
            checkOld(types[i], "struct types[" + i + "]");
            checkCount(blocklengths[i], "struct blocklengths[" + i + "]");
            checkDisplacement(description, byteDisplacements[i]);
            // NOTE: each term is below 2^51 and the sum stops growing past MAX_BLOCKS: no overflow.
            blocks += types[i].isContiguous() ? 1 : saturatedProduct(blocklengths[i], types[i].blocks());
            if (blocks > Datatype.MAX_BLOCKS) {
                throw tooManyBlocks(description, blocks);
            }
        }
        return description;
    }
}
