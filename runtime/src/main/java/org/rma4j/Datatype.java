package org.rma4j;

import static org.rma4j.TypeArguments.checkBlocks;
import static org.rma4j.TypeArguments.checkCount;
import static org.rma4j.TypeArguments.checkOld;
import static org.rma4j.TypeArguments.describe;
import static org.rma4j.TypeArguments.filled;
import static org.rma4j.TypeArguments.tooManyBlocks;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * An MPI datatype: a layout of basic elements (MPI-3.1 chapter 4, as used by the one-sided calls of
 * section 11.3). Immutable and thread-safe.
 *
 * <p>The basic types are {@link #BYTE}, {@link #SHORT}, {@link #CHAR}, {@link #INT}, {@link #LONG},
 * {@link #FLOAT} and {@link #DOUBLE}; the pair types of MINLOC and MAXLOC are {@link #LONG_INT},
 * {@link #INT2}, {@link #DOUBLE_INT}, {@link #FLOAT_INT} and {@link #SHORT_INT} (section 5.9.4).
 * Derived types are built with {@link #contiguous}, {@link #vector} (strided), {@link #hvector} (byte
 * stride), {@link #indexedBlock}, {@link #indexed}, {@link #hindexed} (byte displacements),
 * {@link #subarray} and {@link #struct} (several old types, byte displacements). Every derived type has
 * lower bound 0 (displacements are non-negative) and its extent is its upper bound, as in MPI (section
 * 4.1): the end of its last block, where a block of n copies of an old type ends n old extents after its
 * start, so an old type's trailing padding (a pair type's, a subarray's rest of the array) counts; a
 * subarray's extent is its whole array's, and a struct's end is rounded up to the alignment of its
 * largest basic element, as in MPI and C. {@code count} instances follow each other at {@link #extent()}
 * bytes.
 *
 * <p>Two (count, datatype) pairs match in put and get when their type signatures are the same: the
 * same sequence of basic types (section 11.3; for types of one basic type, the same basic type and
 * number of elements). The accumulate family needs every element of both to be of one predefined type
 * (section 11.3.4): one basic type, or whole copies of one pair type ({@link #unitName()}).
 *
 * <p>A datatype holds the list of its blocks (runs of adjacent elements of one basic type, merged where
 * they touch), so its memory grows with the number of blocks, not with its data: {@code contiguous(n,
 * INT)} and {@code vector(n, b, b, INT)} are one block whatever {@code n}. A constructor whose result
 * could have more than {@link #MAX_BLOCKS} blocks throws {@link ErrorClass#NO_MEM} before allocating
 * anything, in time independent of the counts.
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

    /**
     * The value-index pair types of MPI_MINLOC and MPI_MAXLOC (MPI-3.1 section 5.9.4), laid out as the C
     * {@code struct { value; int index; }}: the value at 0, the index at the next multiple of 4 after it,
     * and the extent rounded up to the alignment of the larger component (MPI_LONG_INT and
     * MPI_DOUBLE_INT: index at 8, extent 16; MPI_2INT, MPI_FLOAT_INT: index at 4, extent 8; MPI_SHORT_INT:
     * index at 4 after 2 bytes of padding, extent 8).
     */
    public enum Pair {
        /** MPI_LONG_INT: {@code struct { long value; int index; }} (C {@code long} of 64 bits). */
        LONG_INT(Basic.LONG, "MPI_LONG_INT"),
        /** MPI_2INT: {@code struct { int value; int index; }}. */
        INT2(Basic.INT, "MPI_2INT"),
        /** MPI_DOUBLE_INT: {@code struct { double value; int index; }}. */
        DOUBLE_INT(Basic.DOUBLE, "MPI_DOUBLE_INT"),
        /** MPI_FLOAT_INT: {@code struct { float value; int index; }}. */
        FLOAT_INT(Basic.FLOAT, "MPI_FLOAT_INT"),
        /** MPI_SHORT_INT: {@code struct { short value; int index; }}. */
        SHORT_INT(Basic.SHORT, "MPI_SHORT_INT");

        private final Basic valueType;
        private final String mpiName;

        Pair(final Basic valueType, final String mpiName) {
            this.valueType = valueType;
            this.mpiName = mpiName;
        }

        /**
         * @return the basic type of the value.
         */
        public Basic valueType() {
            return valueType;
        }

        /**
         * @return the byte offset of the int index from the value.
         */
        public int indexOffset() {
            return Math.max(valueType.bytes(), Integer.BYTES);
        }

        /**
         * @return the alignment of the pair: that of its larger component.
         */
        public int alignment() {
            return Math.max(valueType.bytes(), Integer.BYTES);
        }

        /**
         * @return bytes from one pair to the next, padding included.
         */
        public int extent() {
            final int end = indexOffset() + Integer.BYTES;
            return (end + alignment() - 1) / alignment() * alignment();
        }

        /**
         * @return the standard's name, e.g. {@code MPI_DOUBLE_INT}.
         */
        public String mpiName() {
            return mpiName;
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
    /** MPI_LONG_INT: a long value and an int index, 16 bytes apart ({@link Pair#LONG_INT}). */
    public static final Datatype LONG_INT = pair(Pair.LONG_INT);
    /** MPI_2INT: an int value and an int index ({@link Pair#INT2}). */
    public static final Datatype INT2 = pair(Pair.INT2);
    /** MPI_DOUBLE_INT: a double value and an int index, 16 bytes apart ({@link Pair#DOUBLE_INT}). */
    public static final Datatype DOUBLE_INT = pair(Pair.DOUBLE_INT);
    /** MPI_FLOAT_INT: a float value and an int index ({@link Pair#FLOAT_INT}). */
    public static final Datatype FLOAT_INT = pair(Pair.FLOAT_INT);
    /** MPI_SHORT_INT: a short value, 2 bytes of padding, an int index ({@link Pair#SHORT_INT}). */
    public static final Datatype SHORT_INT = pair(Pair.SHORT_INT);

    /** System property: the most blocks one datatype may hold. */
    public static final String MAX_BLOCKS_PROP_NAME = "rma4j.datatype.max.blocks";
    /** Default of {@link #MAX_BLOCKS_PROP_NAME}: 2^20 blocks, 16 MiB of block list. */
    public static final int MAX_BLOCKS_DEFAULT = 1 << 20;
    /** The most blocks one datatype may hold ({@link #MAX_BLOCKS_PROP_NAME}). */
    public static final int MAX_BLOCKS = Math.max(1, Integer.getInteger(MAX_BLOCKS_PROP_NAME, MAX_BLOCKS_DEFAULT));

    /** The basic type of every element, or null for a type that mixes basic types. */
    private final Basic basic;
    /** Byte offset of each block within one instance, in type-map order (ascending is not required). */
    private final long[] blockOffsets;
    /** Elements in each block. */
    private final long[] blockElements;
    /** Basic type of each block's elements. */
    private final Basic[] blockBasics;
    private final long elements;
    private final long size;
    private final long extent;
    /** Non-null if every element belongs to a whole copy of this pair type (the accumulate unit). */
    private final Pair pair;
    private final String description;

    /**
     * @param empty the basic type of a type without blocks (that of the type it was built from), or null.
     */
    private Datatype(final TypeBlocks blocks, final Basic empty, final long extent, final Pair pair,
        final String description) {
        this.blockOffsets = blocks.offsets();
        this.blockElements = blocks.counts();
        this.blockBasics = blocks.basics();
        Basic common = blockBasics.length == 0 ? empty : blockBasics[0];
        long elementCount = 0;
        long bytes = 0;
        for (int b = 0; b < blockBasics.length; b++) {
            common = blockBasics[b] == common ? common : null;
            elementCount += blockElements[b];
            bytes += blockElements[b] * blockBasics[b].bytes();
        }
        this.basic = common;
        this.elements = elementCount;
        this.size = bytes;
        this.extent = extent;
        this.pair = pair;
        this.description = description;
    }

    private static Datatype basic(final Basic basic) {
        final TypeBlocks blocks = new TypeBlocks();
        blocks.add(0, 1, basic);
        return new Datatype(blocks, basic, basic.bytes(), null, basic.name());
    }

    private static Datatype pair(final Pair pair) {
        final TypeBlocks blocks = new TypeBlocks();
        blocks.add(0, 1, pair.valueType());
        blocks.add(pair.indexOffset(), 1, Basic.INT);
        return new Datatype(blocks, null, pair.extent(), pair, pair.name());
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
        if (order == null) {
            throw new RmaException(ErrorClass.ARG, description + ": the order is null (C or FORTRAN)");
        }
        final TypeArguments.SubarrayRows rows = TypeArguments.subarrayRows(description, sizes, subsizes, starts,
            order == Order.C, old);
        final TypeBlocks blocks = TypeBlocks.replicate(old, rows.displacements(), old.extent,
            filled(rows.displacements().length, rows.run()), description);
        try {
            final long extent = Math.multiplyExact(rows.arrayElements(), old.extent);
            return new Datatype(blocks, old.basic, extent, old.pair, description);
        } catch (final ArithmeticException e) {
            throw new RmaException(ErrorClass.COUNT, description + " spans more than " + Long.MAX_VALUE + " bytes");
        }
    }

    /**
     * MPI_TYPE_CREATE_STRUCT (MPI-3.1 section 4.1.2): blocks of {@code blocklengths[i]} copies of
     * {@code types[i]} at {@code byteDisplacements[i]} bytes, the types free to differ (a record of an int
     * and a double, say). The extent is the end of the last block (a block of n copies ends n extents of
     * its type after its displacement) rounded up to the alignment of the largest basic element, as MPI's
     * epsilon and a C compiler's padding do (section 4.1.6): {@code count} instances describe an array of
     * count such records. A struct moves with put and get; the accumulate family takes it only when all
     * its elements are of one basic type or whole copies of one pair type (section 11.3.4).
     *
     * @throws RmaException ARG for a null array, COUNT if the arrays differ in length or a length is
     *                      negative, TYPE for a null type or a negative displacement.
     */
    public static Datatype struct(final int[] blocklengths, final long[] byteDisplacements, final Datatype[] types) {
        final String description = TypeArguments.checkStruct(blocklengths, byteDisplacements, types);
        final TypeBlocks built = new TypeBlocks();
        Pair common = null;
        boolean any = false;
        try {
            for (int i = 0; i < types.length; i++) {
                if (blocklengths[i] == 0 || types[i].elements == 0) {
                    continue;
                }
                built.addCopies(types[i], byteDisplacements[i], blocklengths[i]);
                common = !any || common == types[i].pair ? types[i].pair : null;
                any = true;
            }
            final int alignment = built.alignment();
            final long extent = Math.multiplyExact(Math.addExact(built.upperBound(), alignment - 1) / alignment,
                alignment);
            return new Datatype(built, types.length == 0 ? Basic.BYTE : types[0].basic, extent, common, description);
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
        final TypeBlocks blocks = TypeBlocks.replicate(old, displacements, unit, lengths, description);
        return new Datatype(blocks, old.basic, blocks.upperBound(), old.pair, description);
    }

    /**
     * @return the basic type of every element (that of the value and the index of {@link #INT2}).
     * @throws RmaException TYPE for a type that mixes basic types (a struct of several, a pair type other
     *                      than INT2); {@link #basics()} lists them.
     */
    public Basic basic() {
        if (basic == null) {
            throw new RmaException(ErrorClass.TYPE, description + " mixes the basic types " + basics());
        }
        return basic;
    }

    /**
     * @return the basic types of this type's elements, each once, in type-map order.
     */
    public List<Basic> basics() {
        return Arrays.stream(blockBasics).distinct().toList();
    }

    /**
     * @return the pair type every element belongs to a whole copy of (a pair type, or a type built only
     *         from one pair type), if any: the types MINLOC and MAXLOC accept (MPI-3.1 section 5.9.4).
     */
    public Optional<Pair> pair() {
        return Optional.ofNullable(pair);
    }

    /**
     * @return the predefined type the accumulate family combines this type's elements as (section 11.3.4):
     *         the pair type's MPI name if {@link #pair()} is present, else the one basic type's name, or
     *         null for a type that mixes basic types without being made of one pair type.
     */
    public String unitName() {
        if (pair != null) {
            return pair.mpiName();
        }
        return basic == null ? null : basic.name();
    }

    /**
     * @return basic elements in one instance (a pair counts its value and its index).
     */
    public long elements() {
        return elements;
    }

    /**
     * @return bytes of data in one instance (MPI_TYPE_SIZE), padding excluded.
     */
    public long size() {
        return size;
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
        return blockOffsets.length <= 1 && (blockOffsets.length == 0 || blockOffsets[0] == 0) && extent == size;
    }

    /**
     * @return whether this is one of the predefined basic types.
     */
    public boolean isBasic() {
        return this == BYTE || this == SHORT || this == CHAR || this == INT || this == LONG || this == FLOAT
            || this == DOUBLE;
    }

    /**
     * @return whether this is one of the predefined pair types ({@link #LONG_INT}, {@link #INT2},
     *         {@link #DOUBLE_INT}, {@link #FLOAT_INT}, {@link #SHORT_INT}).
     */
    public boolean isPairType() {
        return this == LONG_INT || this == INT2 || this == DOUBLE_INT || this == FLOAT_INT || this == SHORT_INT;
    }

    /**
     * @return the pair type, or null (see {@link #pair()}).
     */
    Pair pairOrNull() {
        return pair;
    }

    /**
     * @return whether every element has the same basic type.
     */
    boolean isSingleBasic() {
        return basic != null;
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

    Basic blockBasic(final int block) {
        return blockBasics[block];
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

    @Override
    public String toString() {
        return description;
    }
}
