package org.rma4j;

import java.util.Arrays;

/**
 * An MPI datatype: a basic element type and a layout of elements (MPI-3.1 chapter 4, as used by the
 * one-sided calls of section 11.3). Immutable and thread-safe.
 *
 * <p>The basic types are {@link #BYTE}, {@link #SHORT}, {@link #CHAR}, {@link #INT}, {@link #LONG},
 * {@link #FLOAT} and {@link #DOUBLE}; derived types are built from one basic type with
 * {@link #contiguous}, {@link #vector} (strided), {@link #hvector} (byte stride), {@link #indexedBlock},
 * {@link #indexed}, {@link #hindexed} (byte displacements) and {@link #subarray}. Every
 * derived type has lower bound 0 (displacements are non-negative) and its extent is the end of its
 * last element, as in MPI for such types (a subarray's extent is its whole array's, as in MPI); {@code count} instances follow each other at
 * {@link #extent()} bytes.
 *
 * <p>Two (count, datatype) pairs match when they have the same basic type and the same number of
 * elements: the type-signature rule of section 11.3 for types built from one basic type.
 *
 * <p>A datatype holds the list of its blocks (runs of adjacent elements, merged where they touch), so
 * its memory grows with the number of blocks, not with its data: {@code contiguous(n, INT)} and
 * {@code vector(n, b, b, INT)} are one block whatever {@code n}. A constructor whose result could have
 * more than {@link #MAX_BLOCKS} blocks throws {@link ErrorClass#NO_MEM} before allocating anything, in
 * time independent of the counts.
 */
public final class Datatype {
    /** Basic element types, with their size in bytes. */
    public enum Basic {
        BYTE(1), SHORT(2), CHAR(2), INT(4), LONG(8), FLOAT(4), DOUBLE(8);

        private final int bytes;

        Basic(final int bytes) {
            this.bytes = bytes;
        }

        /**
         * @return the element size in bytes.
         */
        public int bytes() {
            return bytes;
        }

        /**
         * @return whether the type is an integer type (BYTE, SHORT, CHAR, INT, LONG).
         */
        public boolean isInteger() {
            return this != FLOAT && this != DOUBLE;
        }
    }

    /** MPI_BYTE. */
    public static final Datatype BYTE = basic(Basic.BYTE);
    /** MPI_SHORT. */
    public static final Datatype SHORT = basic(Basic.SHORT);
    /** MPI_UNSIGNED_SHORT-sized Java {@code char}. */
    public static final Datatype CHAR = basic(Basic.CHAR);
    /** MPI_INT. */
    public static final Datatype INT = basic(Basic.INT);
    /** MPI_LONG (64 bits, Java {@code long}). */
    public static final Datatype LONG = basic(Basic.LONG);
    /** MPI_FLOAT. */
    public static final Datatype FLOAT = basic(Basic.FLOAT);
    /** MPI_DOUBLE. */
    public static final Datatype DOUBLE = basic(Basic.DOUBLE);

    /** System property: the most blocks one datatype may hold. */
    public static final String MAX_BLOCKS_PROP_NAME = "rma4j.datatype.max.blocks";
    /** Default of {@link #MAX_BLOCKS_PROP_NAME}: 2^20 blocks, 16 MiB of block list. */
    public static final int MAX_BLOCKS_DEFAULT = 1 << 20;
    /** The most blocks one datatype may hold ({@link #MAX_BLOCKS_PROP_NAME}). */
    public static final int MAX_BLOCKS = Math.max(1, Integer.getInteger(MAX_BLOCKS_PROP_NAME, MAX_BLOCKS_DEFAULT));

    /** Array entries a description shows before it abbreviates. */
    private static final int DESCRIBED_ENTRIES = 8;

    private final Basic basic;
    /** Byte offset of each block within one instance, ascending is not required. */
    private final long[] blockOffsets;
    /** Elements in each block. */
    private final long[] blockElements;
    private final long elements;
    private final long extent;
    private final String description;

    private Datatype(final Basic basic, final long[] blockOffsets, final long[] blockElements, final long extent,
        final String description) {
        this.basic = basic;
        this.blockOffsets = blockOffsets;
        this.blockElements = blockElements;
        this.elements = Arrays.stream(blockElements).sum();
        this.extent = extent;
        this.description = description;
    }

    private static Datatype basic(final Basic basic) {
        return new Datatype(basic, new long[] {0}, new long[] {1}, basic.bytes(), basic.name());
    }

    /**
     * MPI_TYPE_CONTIGUOUS: {@code count} copies of {@code old}, one extent apart.
     *
     * @throws RmaException COUNT for a negative count, TYPE for a null old type.
     */
    public static Datatype contiguous(final int count, final Datatype old) {
        checkOld(old, "contiguous");
        checkCount(count, "contiguous count");
        final String description = "contiguous(" + count + ", " + old + ")";
        checkBlocks(description, 1, count, old);
        return replicate(old, new long[] {0}, new long[] {count}, description);
    }

    /**
     * MPI_TYPE_VECTOR: {@code count} blocks of {@code blocklength} old types, block starts
     * {@code stride} old extents apart (a column of a row-major matrix, say).
     *
     * @throws RmaException COUNT for negative counts, TYPE if a block would start before 0.
     */
    public static Datatype vector(final int count, final int blocklength, final int stride, final Datatype old) {
        checkOld(old, "vector");
        checkCount(count, "vector count");
        checkCount(blocklength, "vector blocklength");
        final String description = "vector(" + count + ", " + blocklength + ", " + stride + ", " + old + ")";
        if (count > 1 && stride < 0) {
            throw new RmaException(ErrorClass.TYPE,
                description + ": displacement " + stride + " is negative; rma4j datatypes have lower bound 0");
        }
        if (count > 1 && stride == blocklength) {
            // The blocks touch: one run of count * blocklength old types, without a list of count blocks.
            final long copies = (long)count * blocklength;
            checkBlocks(description, 1, copies, old);
            return replicate(old, new long[] {0}, new long[] {copies}, description);
        }
        checkBlocks(description, count, blocklength, old);
        final long[] displacements = new long[count];
        for (int i = 0; i < count; i++) {
            displacements[i] = (long)i * stride;
        }
        return replicate(old, displacements, filled(count, blocklength), description);
    }

    /**
     * MPI_TYPE_CREATE_INDEXED_BLOCK: blocks of {@code blocklength} old types at the given
     * displacements (in old extents).
     *
     * @throws RmaException COUNT for a negative blocklength, TYPE for a negative displacement.
     */
    public static Datatype indexedBlock(final int blocklength, final int[] displacements, final Datatype old) {
        checkOld(old, "indexedBlock");
        checkCount(blocklength, "indexedBlock blocklength");
        final String description = "indexedBlock(" + blocklength + ", " + describe(displacements) + ", " + old + ")";
        checkBlocks(description, displacements.length, blocklength, old);
        return replicate(old, Arrays.stream(displacements).asLongStream().toArray(),
            filled(displacements.length, blocklength), description);
    }

    /**
     * MPI_TYPE_INDEXED: blocks of {@code blocklengths[i]} old types at {@code displacements[i]} old
     * extents.
     *
     * @throws RmaException COUNT if the arrays differ in length or a length is negative, TYPE for a
     *                      negative displacement.
     */
    public static Datatype indexed(final int[] blocklengths, final int[] displacements, final Datatype old) {
        checkOld(old, "indexed");
        if (blocklengths.length != displacements.length) {
            throw new RmaException(ErrorClass.COUNT,
                "indexed has " + blocklengths.length + " blocklengths but " + displacements.length + " displacements");
        }
        final String description = "indexed(" + describe(blocklengths) + ", " + describe(displacements) + ", " + old
            + ")";
        if (old.isContiguous() && blocklengths.length > MAX_BLOCKS) {
            throw tooManyBlocks(description, blocklengths.length);
        }
        final long[] lengths = new long[blocklengths.length];
        long blocks = 0;
        for (int i = 0; i < lengths.length; i++) {
            checkCount(blocklengths[i], "indexed blocklengths[" + i + "]");
            lengths[i] = blocklengths[i];
            // NOTE: each term is below 2^51 and the sum stops growing past MAX_BLOCKS: no overflow.
            blocks += old.isContiguous() ? 1 : (long)blocklengths[i] * old.blocks();
            if (blocks > MAX_BLOCKS) {
                throw tooManyBlocks(description, blocks);
            }
        }
        return replicate(old, Arrays.stream(displacements).asLongStream().toArray(), lengths, description);
    }

    /**
     * MPI_TYPE_CREATE_HVECTOR: {@code count} blocks of {@code blocklength} old types, block starts
     * {@code strideBytes} bytes apart (MPI-3.1 section 4.1.2): a stride that is not a multiple of the old
     * extent, e.g. a field of an array of records.
     *
     * @throws RmaException COUNT for negative counts, TYPE if a block would start before 0.
     */
    public static Datatype hvector(final int count, final int blocklength, final long strideBytes, final Datatype old) {
        checkOld(old, "hvector");
        checkCount(count, "hvector count");
        checkCount(blocklength, "hvector blocklength");
        final String description = "hvector(" + count + ", " + blocklength + ", " + strideBytes + ", " + old + ")";
        if (count > 1 && strideBytes < 0) {
            throw new RmaException(ErrorClass.TYPE,
                description + ": displacement " + strideBytes + " is negative; rma4j datatypes have lower bound 0");
        }
        checkBlocks(description, count, blocklength, old);
        final long[] displacements = new long[count];
        for (int i = 0; i < count; i++) {
            displacements[i] = i * strideBytes;
        }
        return replicate(old, displacements, 1, filled(count, blocklength), description);
    }

    /**
     * MPI_TYPE_CREATE_HINDEXED: blocks of {@code blocklengths[i]} old types at {@code byteDisplacements[i]}
     * bytes (MPI-3.1 section 4.1.2).
     *
     * @throws RmaException COUNT if the arrays differ in length or a length is negative, TYPE for a
     *                      negative displacement.
     */
    public static Datatype hindexed(final int[] blocklengths, final long[] byteDisplacements, final Datatype old) {
        checkOld(old, "hindexed");
        if (blocklengths.length != byteDisplacements.length) {
            throw new RmaException(ErrorClass.COUNT, "hindexed has " + blocklengths.length + " blocklengths but "
                + byteDisplacements.length + " displacements");
        }
        final String description = "hindexed(" + describe(blocklengths) + ", " + describe(byteDisplacements) + ", "
            + old + ")";
        long blocks = 0;
        final long[] lengths = new long[blocklengths.length];
        for (int i = 0; i < lengths.length; i++) {
            checkCount(blocklengths[i], "hindexed blocklengths[" + i + "]");
            lengths[i] = blocklengths[i];
            blocks += old.isContiguous() ? 1 : (long)blocklengths[i] * old.blocks();
            if (blocks > MAX_BLOCKS) {
                throw tooManyBlocks(description, blocks);
            }
        }
        return replicate(old, byteDisplacements.clone(), 1, lengths, description);
    }

    /** Element order of a multi-dimensional array (MPI_ORDER_C, MPI_ORDER_FORTRAN). */
    public enum Order {
        /** Row-major: the last dimension varies fastest (MPI_ORDER_C). */
        C,
        /** Column-major: the first dimension varies fastest (MPI_ORDER_FORTRAN). */
        FORTRAN
    }

    /**
     * MPI_TYPE_CREATE_SUBARRAY (MPI-3.1 section 4.1.3): the {@code subsizes} block starting at
     * {@code starts} of an array of {@code sizes} old types stored in {@code order}: the usual way to
     * name a halo or an interior of a 2-D or 3-D grid. As in MPI, the extent is the whole array's, so
     * consecutive instances are consecutive arrays.
     *
     * @throws RmaException ARG for arrays of different lengths, no dimension, a size below 1, a subsize
     *                      below 1 or above its size, or a start outside {@code [0, size - subsize]}.
     */
    public static Datatype subarray(final int[] sizes, final int[] subsizes, final int[] starts, final Order order,
        final Datatype old) {
        checkOld(old, "subarray");
        final String description = "subarray(" + describe(sizes) + ", " + describe(subsizes) + ", " + describe(starts)
            + ", " + order + ", " + old + ")";
        final int dims = sizes.length;
        if (dims == 0 || subsizes.length != dims || starts.length != dims || order == null) {
            throw new RmaException(ErrorClass.ARG, description + ": sizes, subsizes and starts need the same"
                + " number (>= 1) of dimensions and an order");
        }
        // Dimension d of the C-ordered view is dimension view[d] of the arguments.
        final int[] view = new int[dims];
        for (int d = 0; d < dims; d++) {
            view[d] = order == Order.C ? d : dims - 1 - d;
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
        final Datatype blocks = replicate(old, displacements, filled((int)rows, run), description);
        try {
            final long extent = Math.multiplyExact(arrayElements, old.extent);
            return new Datatype(old.basic, blocks.blockOffsets, blocks.blockElements, extent, description);
        } catch (final ArithmeticException e) {
            throw new RmaException(ErrorClass.COUNT, description + " spans more than " + Long.MAX_VALUE + " bytes");
        }
    }

    private static Datatype replicate(final Datatype old, final long[] displacements, final long[] lengths,
        final String description) {
        return replicate(old, displacements, old.extent, lengths, description);
    }

    /**
     * Blocks of {@code lengths[i]} copies of {@code old} at {@code displacements[i] * unit} bytes.
     *
     * @param unit bytes per displacement unit: the old extent (vector, indexed), or 1 (hvector, hindexed).
     */
    private static Datatype replicate(final Datatype old, final long[] displacements, final long unit,
        final long[] lengths, final String description) {
        final Blocks blocks = new Blocks(old.basic.bytes());
        long end = 0;
        for (int i = 0; i < displacements.length; i++) {
            if (displacements[i] < 0) {
                throw new RmaException(ErrorClass.TYPE, description + ": displacement " + displacements[i]
                    + " is negative; rma4j datatypes have lower bound 0");
            }
            if (lengths[i] == 0) {
                continue;
            }
            try {
                final long start = Math.multiplyExact(displacements[i], unit);
                if (old.isContiguous()) {
                    // One run of lengths[i] copies: no loop over the copies, so huge counts cost nothing.
                    final long elements = Math.multiplyExact(lengths[i], old.elements);
                    blocks.add(start, elements);
                    end = Math.max(end, Math.addExact(start, Math.multiplyExact(elements, old.basic.bytes())));
                    continue;
                }
                for (long copy = 0; copy < lengths[i]; copy++) {
                    final long base = Math.addExact(start, Math.multiplyExact(copy, old.extent));
                    for (int k = 0; k < old.blockOffsets.length; k++) {
                        final long offset = base + old.blockOffsets[k];
                        blocks.add(offset, old.blockElements[k]);
                        end = Math.max(end, offset + old.blockElements[k] * old.basic.bytes());
                    }
                }
            } catch (final ArithmeticException e) {
                throw new RmaException(ErrorClass.COUNT, description + " spans more than " + Long.MAX_VALUE + " bytes");
            }
        }
        return new Datatype(old.basic, blocks.offsets(), blocks.counts(), end, description);
    }

    /** A growing list of blocks that merges a block into the previous one when it continues it. */
    private static final class Blocks {
        private final int elementBytes;
        private long[] offsets = new long[8];
        private long[] counts = new long[8];
        private int size;

        Blocks(final int elementBytes) {
            this.elementBytes = elementBytes;
        }

        void add(final long offset, final long elements) {
            if (size > 0 && offsets[size - 1] + counts[size - 1] * elementBytes == offset) {
                counts[size - 1] += elements;
                return;
            }
            if (size == offsets.length) {
                offsets = Arrays.copyOf(offsets, size * 2);
                counts = Arrays.copyOf(counts, size * 2);
            }
            offsets[size] = offset;
            counts[size] = elements;
            size++;
        }

        long[] offsets() {
            return Arrays.copyOf(offsets, size);
        }

        long[] counts() {
            return Arrays.copyOf(counts, size);
        }
    }

    /**
     * @return the basic element type.
     */
    public Basic basic() {
        return basic;
    }

    /**
     * @return basic elements in one instance.
     */
    public long elements() {
        return elements;
    }

    /**
     * @return bytes of data in one instance (MPI_TYPE_SIZE).
     */
    public long size() {
        return elements * basic.bytes();
    }

    /**
     * @return bytes from one instance to the next (MPI_TYPE_GET_EXTENT, lower bound 0).
     */
    public long extent() {
        return extent;
    }

    /**
     * @return whether one instance is a single block of elements starting at 0 (so consecutive
     *         instances are one contiguous run).
     */
    public boolean isContiguous() {
        return blockOffsets.length <= 1 && (blockOffsets.length == 0 || blockOffsets[0] == 0) && extent == size();
    }

    /**
     * @return whether this is one of the predefined basic types.
     */
    public boolean isBasic() {
        return this == BYTE || this == SHORT || this == CHAR || this == INT || this == LONG || this == FLOAT
            || this == DOUBLE;
    }

    int blocks() {
        return blockOffsets.length;
    }

    long blockOffset(final int block) {
        return blockOffsets[block];
    }

    long blockElements(final int block) {
        return blockElements[block];
    }

    /**
     * @return bytes spanned by {@code count} instances (0 for count 0).
     */
    long span(final long count) {
        try {
            return count == 0 ? 0 : Math.addExact(Math.multiplyExact(count - 1, extent), extent);
        } catch (final ArithmeticException e) {
            throw new RmaException(ErrorClass.COUNT,
                count + " x " + description + " spans more than " + Long.MAX_VALUE + " bytes");
        }
    }

    /**
     * Checks, before anything is allocated, that {@code entries} blocks of {@code blocklength} old types
     * cannot make more than {@link #MAX_BLOCKS} blocks: one block per entry when the old type is
     * contiguous (its copies touch), else one per block of each copy.
     *
     * @throws RmaException NO_MEM if they could.
     */
    private static void checkBlocks(final String description, final long entries, final long blocklength,
        final Datatype old) {
        final long perEntry = old.isContiguous() ? 1 : saturatedProduct(blocklength, old.blocks());
        final long bound = saturatedProduct(entries, perEntry);
        if (entries > 0 && blocklength > 0 && bound > MAX_BLOCKS) {
            throw tooManyBlocks(description, bound);
        }
    }

    private static long saturatedProduct(final long a, final long b) {
        final long high = Math.multiplyHigh(a, b);
        return high != 0 || a * b < 0 ? Long.MAX_VALUE : a * b;
    }

    private static RmaException tooManyBlocks(final String description, final long blocks) {
        return new RmaException(ErrorClass.NO_MEM, description + " would hold up to " + blocks + " blocks; a datatype"
            + " holds at most " + MAX_BLOCKS + " (-D" + MAX_BLOCKS_PROP_NAME + "=N)");
    }

    /**
     * @return the array as {@link Arrays#toString(int[])} shows it, abbreviated after a few entries.
     */
    private static String describe(final int[] array) {
        return describe(Arrays.stream(array).asLongStream().toArray());
    }

    /**
     * @return the array as {@link Arrays#toString(long[])} shows it, abbreviated after a few entries.
     */
    private static String describe(final long[] array) {
        if (array.length <= DESCRIBED_ENTRIES) {
            return Arrays.toString(array);
        }
        final StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < DESCRIBED_ENTRIES; i++) {
            text.append(array[i]).append(", ");
        }
        return text.append("... (").append(array.length).append(" entries)]").toString();
    }

    private static void checkOld(final Datatype old, final String call) {
        if (old == null) {
            throw new RmaException(ErrorClass.TYPE, call + " old type is null");
        }
    }

    private static void checkCount(final int count, final String what) {
        if (count < 0) {
            throw new RmaException(ErrorClass.COUNT, what + "=" + count + " is negative");
        }
    }

    private static long[] filled(final int length, final long value) {
        final long[] array = new long[length];
        Arrays.fill(array, value);
        return array;
    }

    @Override
    public String toString() {
        return description;
    }
}
