package org.rma4j;

import java.util.Arrays;

/**
 * An MPI datatype: a basic element type and a layout of elements (MPI-3.1 chapter 4, as used by the
 * one-sided calls of section 11.3). Immutable and thread-safe.
 *
 * <p>The basic types are {@link #BYTE}, {@link #SHORT}, {@link #CHAR}, {@link #INT}, {@link #LONG},
 * {@link #FLOAT} and {@link #DOUBLE}; derived types are built from one basic type with
 * {@link #contiguous}, {@link #vector} (strided), {@link #indexedBlock} and {@link #indexed}. Every
 * derived type has lower bound 0 (displacements are non-negative) and its extent is the end of its
 * last element, as in MPI for such types; {@code count} instances follow each other at
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

    private Datatype(
        final Basic basic, final long[] blockOffsets, final long[] blockElements, final long extent,
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
            throw new RmaException(ErrorClass.TYPE, description + ": displacement " + stride
                + " is negative; rma4j datatypes have lower bound 0");
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
            throw new RmaException(ErrorClass.COUNT, "indexed has " + blocklengths.length + " blocklengths but "
                + displacements.length + " displacements");
        }
        final String description =
            "indexed(" + describe(blocklengths) + ", " + describe(displacements) + ", " + old + ")";
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

    private static Datatype replicate(
        final Datatype old, final long[] displacements, final long[] lengths, final String description) {
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
                final long start = Math.multiplyExact(displacements[i], old.extent);
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
        return blockOffsets.length <= 1 && (blockOffsets.length == 0 || blockOffsets[0] == 0)
            && extent == size();
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
            throw new RmaException(ErrorClass.COUNT, count + " x " + description + " spans more than " + Long.MAX_VALUE
                + " bytes");
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
