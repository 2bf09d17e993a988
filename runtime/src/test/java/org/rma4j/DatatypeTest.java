package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Sizes, extents, block layout and argument errors of {@link Datatype} constructors (MPI-3.1 chapter
 * 4 as used by section 11.3, lower bound 0).
 */
class DatatypeTest {
    @Test
    void shouldDescribeBasicTypesAsOneElementOfTheirSize() {
        final Datatype[] types = {Datatype.BYTE, Datatype.SHORT, Datatype.CHAR, Datatype.INT, Datatype.LONG,
            Datatype.FLOAT, Datatype.DOUBLE};
        final int[] sizes = {1, 2, 2, 4, 8, 4, 8};
        for (int i = 0; i < types.length; i++) {
            final Datatype type = types[i];
            assertEquals(Datatype.Basic.values()[i], type.basic());
            assertEquals(sizes[i], type.basic().bytes());
            assertEquals(1, type.elements());
            assertEquals(sizes[i], type.size());
            assertEquals(sizes[i], type.extent());
            assertTrue(type.isBasic());
            assertTrue(type.isContiguous());
            assertBlocks(type, new long[] {0}, new long[] {1});
            assertEquals(type.basic().name(), type.toString());
        }
        assertFalse(Datatype.Basic.FLOAT.isInteger());
        assertFalse(Datatype.Basic.DOUBLE.isInteger());
        assertTrue(Datatype.Basic.CHAR.isInteger());
        assertTrue(Datatype.Basic.BYTE.isInteger());
    }

    @Test
    void shouldMergeContiguousCopiesIntoOneBlock() {
        final Datatype type = Datatype.contiguous(3, Datatype.INT);
        assertEquals(Datatype.Basic.INT, type.basic());
        assertEquals(3, type.elements());
        assertEquals(12, type.size());
        assertEquals(12, type.extent());
        assertTrue(type.isContiguous());
        assertFalse(type.isBasic(), "a derived type is not basic even when it has one element");
        assertFalse(Datatype.contiguous(1, Datatype.INT).isBasic());
        assertBlocks(type, new long[] {0}, new long[] {3});
        assertEquals("contiguous(3, INT)", type.toString());
    }

    @Test
    void shouldPlaceVectorBlocksStrideExtentsApart() {
        final Datatype type = Datatype.vector(3, 2, 4, Datatype.DOUBLE);
        assertEquals(6, type.elements());
        assertEquals(48, type.size());
        // Last block starts at 2 * 4 doubles and holds 2: the extent ends at 10 doubles.
        assertEquals(80, type.extent());
        assertFalse(type.isContiguous());
        assertBlocks(type, new long[] {0, 32, 64}, new long[] {2, 2, 2});
        assertEquals(2 * 80 + 80, type.span(3));
        assertEquals(0, type.span(0));
        assertEquals(80, type.span(1));
    }

    @Test
    void shouldMergeVectorBlocksWhenStrideEqualsBlocklength() {
        final Datatype type = Datatype.vector(4, 3, 3, Datatype.SHORT);
        assertEquals(12, type.elements());
        assertEquals(24, type.extent());
        assertTrue(type.isContiguous());
        assertBlocks(type, new long[] {0}, new long[] {12});
    }

    @Test
    void shouldDescribeAColumnOfARowMajorMatrix() {
        final int rows = 5;
        final int cols = 7;
        final Datatype column = Datatype.vector(rows, 1, cols, Datatype.DOUBLE);
        assertEquals(rows, column.elements());
        assertEquals(8L * rows, column.size());
        assertEquals(8L * ((rows - 1) * cols + 1), column.extent());
        assertBlocks(column, new long[] {0, 56, 112, 168, 224}, new long[] {1, 1, 1, 1, 1});
    }

    @Test
    void shouldKeepIndexedBlockDisplacementsInTheGivenOrder() {
        final Datatype type = Datatype.indexedBlock(2, new int[] {5, 1}, Datatype.INT);
        assertEquals(4, type.elements());
        assertEquals(16, type.size());
        assertEquals(28, type.extent(), "the extent ends after the block at 5 + 2 ints");
        assertBlocks(type, new long[] {20, 4}, new long[] {2, 2});
        assertFalse(type.isContiguous());
    }

    @Test
    void shouldSkipEmptyBlocksOfIndexedAndMergeTouchingOnes() {
        final Datatype type = Datatype.indexed(new int[] {1, 3, 0, 2, 1}, new int[] {0, 2, 9, 6, 8}, Datatype.SHORT);
        assertEquals(7, type.elements());
        assertEquals(14, type.size());
        // The empty block at 9 adds no element, so the extent ends at short 9 (after the block at 8).
        assertEquals(18, type.extent());
        // Blocks at 6 (2 shorts) and 8 (1 short) touch and merge.
        assertBlocks(type, new long[] {0, 4, 12}, new long[] {1, 3, 3});
    }

    @Test
    void shouldNestAVectorOfContiguousTypes() {
        final Datatype pair = Datatype.contiguous(2, Datatype.INT);
        final Datatype type = Datatype.vector(2, 1, 3, pair);
        assertEquals(4, type.elements());
        assertEquals(16, type.size());
        assertEquals(32, type.extent(), "second pair starts at 3 pair extents = 24 bytes");
        assertBlocks(type, new long[] {0, 24}, new long[] {2, 2});
    }

    @Test
    void shouldNestVectorsAndMergeBlocksAcrossCopies() {
        final Datatype inner = Datatype.vector(2, 1, 2, Datatype.INT);
        assertEquals(12, inner.extent());
        assertBlocks(inner, new long[] {0, 8}, new long[] {1, 1});

        final Datatype outer = Datatype.vector(2, 1, 2, inner);
        assertEquals(4, outer.elements());
        assertEquals(36, outer.extent());
        assertBlocks(outer, new long[] {0, 8, 24, 32}, new long[] {1, 1, 1, 1});

        // The second copy starts at 12, right after the first copy's last int at 8.
        final Datatype copies = Datatype.contiguous(2, inner);
        assertEquals(4, copies.elements());
        assertEquals(24, copies.extent());
        assertBlocks(copies, new long[] {0, 8, 20}, new long[] {1, 2, 1});

        final Datatype indexedOfVectors = Datatype.indexed(new int[] {1, 2}, new int[] {3, 0}, inner);
        assertEquals(6, indexedOfVectors.elements());
        assertEquals(48, indexedOfVectors.extent());
        assertBlocks(indexedOfVectors, new long[] {36, 44, 0, 8, 20}, new long[] {1, 1, 1, 2, 1});
    }

    @Test
    void shouldPlaceHvectorBlocksStrideBytesApart() {
        // The int field at byte 4 of 3 records of 12 bytes each.
        final Datatype type = Datatype.hvector(3, 1, 12, Datatype.INT);
        assertEquals(3, type.elements());
        assertEquals(12, type.size());
        assertEquals(2 * 12 + 4, type.extent());
        assertBlocks(type, new long[] {0, 12, 24}, new long[] {1, 1, 1});
        assertEquals("hvector(3, 1, 12, INT)", type.toString());
        // A byte stride equal to the block's bytes makes one run.
        assertBlocks(Datatype.hvector(4, 2, 8, Datatype.INT), new long[] {0}, new long[] {8});
    }

    @Test
    void shouldPlaceHindexedBlocksAtByteDisplacements() {
        final Datatype type = Datatype.hindexed(new int[] {2, 0, 1}, new long[] {6, 100, 0}, Datatype.SHORT);
        assertEquals(3, type.elements());
        assertEquals(10, type.extent());
        assertBlocks(type, new long[] {6, 0}, new long[] {2, 1});
        expect(ErrorClass.COUNT, "hindexed has 1 blocklengths but 2",
            () -> Datatype.hindexed(new int[] {1}, new long[] {0, 1}, Datatype.INT));
        expect(ErrorClass.TYPE, "hindexed(", () -> Datatype.hindexed(new int[] {1}, new long[] {-4}, Datatype.INT));
    }

    @Test
    void shouldDescribeASubarrayInCOrderWithTheWholeArrayAsExtent() {
        // Rows 1..2, columns 2..4 of a 4 x 6 int matrix, row-major.
        final Datatype type = Datatype.subarray(new int[] {4, 6}, new int[] {2, 3}, new int[] {1, 2}, Datatype.Order.C,
            Datatype.INT);
        assertEquals(6, type.elements());
        assertEquals(24, type.size());
        assertEquals(4 * 6 * 4, type.extent());
        assertBlocks(type, new long[] {4 * (6 + 2), 4 * (12 + 2)}, new long[] {3, 3});
    }

    @Test
    void shouldDescribeASubarrayInFortranOrder() {
        // The same block of a 4 x 6 matrix stored column-major: each of its 3 columns is a run of 2.
        final Datatype type = Datatype.subarray(new int[] {4, 6}, new int[] {2, 3}, new int[] {1, 2},
            Datatype.Order.FORTRAN, Datatype.INT);
        assertEquals(4 * 6 * 4, type.extent());
        assertBlocks(type, new long[] {4 * (2 * 4 + 1), 4 * (3 * 4 + 1), 4 * (4 * 4 + 1)}, new long[] {2, 2, 2});
    }

    @Test
    void shouldDescribeAThreeDimensionalHaloFace() {
        // The x = 0 face (a 1 x 3 x 4 plane) of a 2 x 3 x 4 double array: one run of 12.
        final Datatype face = Datatype.subarray(new int[] {2, 3, 4}, new int[] {1, 3, 4}, new int[] {0, 0, 0},
            Datatype.Order.C, Datatype.DOUBLE);
        assertBlocks(face, new long[] {0}, new long[] {12});
        // The z = 3 face: 6 single elements, 4 doubles apart.
        final Datatype side = Datatype.subarray(new int[] {2, 3, 4}, new int[] {2, 3, 1}, new int[] {0, 0, 3},
            Datatype.Order.C, Datatype.DOUBLE);
        assertBlocks(side, new long[] {24, 56, 88, 120, 152, 184}, new long[] {1, 1, 1, 1, 1, 1});
        assertEquals(8 * 24, side.extent());
    }

    @Test
    void shouldRaiseArgForSubarrayArgumentsOutsideMpisRules() {
        final int[] two = {4, 4};
        expect(ErrorClass.ARG, "subarray(",
            () -> Datatype.subarray(new int[0], new int[0], new int[0], Datatype.Order.C, Datatype.INT));
        expect(ErrorClass.ARG, "subarray(",
            () -> Datatype.subarray(two, new int[] {2}, new int[] {0, 0}, Datatype.Order.C, Datatype.INT));
        expect(ErrorClass.ARG, "subarray(",
            () -> Datatype.subarray(two, new int[] {0, 2}, new int[] {0, 0}, Datatype.Order.C, Datatype.INT));
        expect(ErrorClass.ARG, "subarray(",
            () -> Datatype.subarray(two, new int[] {5, 2}, new int[] {0, 0}, Datatype.Order.C, Datatype.INT));
        expect(ErrorClass.ARG, "subarray(",
            () -> Datatype.subarray(two, new int[] {2, 2}, new int[] {3, 0}, Datatype.Order.C, Datatype.INT));
        expect(ErrorClass.ARG, "subarray(",
            () -> Datatype.subarray(two, new int[] {2, 2}, new int[] {-1, 0}, Datatype.Order.C, Datatype.INT));
        expect(ErrorClass.ARG, "subarray(", () -> Datatype.subarray(two, two, new int[] {0, 0}, null, Datatype.INT));
        final RmaException e = assertThrows(RmaException.class,
            () -> Datatype.subarray(two, new int[] {2, 5}, new int[] {0, 0}, Datatype.Order.C, Datatype.INT));
        assertTrue(e.getMessage().contains("dimension 1 has size 4, subsize 5"), e.getMessage());
    }

    @Test
    void shouldRefuseASubarrayWithMoreRowsThanBlocksAllowedBeforeAllocating() {
        final int big = 1 << 20;
        expect(ErrorClass.NO_MEM, "subarray(", () -> Datatype.subarray(new int[] {big, big, 2}, new int[] {big, big, 1},
            new int[] {0, 0, 0}, Datatype.Order.C, Datatype.BYTE));
    }

    @Test
    void shouldAllowEmptyTypes() {
        for (final Datatype type : new Datatype[] {Datatype.contiguous(0, Datatype.LONG),
            Datatype.vector(0, 4, 2, Datatype.LONG), Datatype.vector(3, 0, 2, Datatype.LONG),
            Datatype.indexedBlock(1, new int[0], Datatype.LONG),
            Datatype.indexed(new int[] {0, 0}, new int[] {1, 5}, Datatype.LONG)}) {
            assertEquals(0, type.elements(), type.toString());
            assertEquals(0, type.size(), type.toString());
            assertEquals(0, type.extent(), type.toString());
            assertEquals(0, type.span(4), type.toString());
            assertSame(Datatype.Basic.LONG, type.basic());
        }
    }

    @Test
    void shouldRaiseCountForNegativeCountsAndLengths() {
        expect(ErrorClass.COUNT, "contiguous count=-1", () -> Datatype.contiguous(-1, Datatype.INT));
        expect(ErrorClass.COUNT, "vector count=-2", () -> Datatype.vector(-2, 1, 1, Datatype.INT));
        expect(ErrorClass.COUNT, "vector blocklength=-1", () -> Datatype.vector(2, -1, 1, Datatype.INT));
        expect(ErrorClass.COUNT, "indexedBlock blocklength=-3",
            () -> Datatype.indexedBlock(-3, new int[] {0}, Datatype.INT));
        expect(ErrorClass.COUNT, "indexed blocklengths[1]=-1",
            () -> Datatype.indexed(new int[] {1, -1}, new int[] {0, 4}, Datatype.INT));
    }

    @Test
    void shouldRaiseCountWhenBlocklengthsAndDisplacementsDifferInLength() {
        expect(ErrorClass.COUNT, "2 blocklengths but 1 displacements",
            () -> Datatype.indexed(new int[] {1, 2}, new int[] {0}, Datatype.INT));
        expect(ErrorClass.COUNT, "1 blocklengths but 3 displacements",
            () -> Datatype.indexed(new int[] {1}, new int[] {0, 1, 2}, Datatype.INT));
    }

    @Test
    void shouldRaiseTypeForNegativeDisplacements() {
        expect(ErrorClass.TYPE, "displacement -1", () -> Datatype.indexedBlock(1, new int[] {0, -1}, Datatype.INT));
        expect(ErrorClass.TYPE, "displacement -4", () -> Datatype.indexed(new int[] {1}, new int[] {-4}, Datatype.INT));
        expect(ErrorClass.TYPE, "displacement -3", () -> Datatype.vector(2, 1, -3, Datatype.INT));
    }

    @Test
    void shouldRaiseTypeForANullOldType() {
        expect(ErrorClass.TYPE, "contiguous old type is null", () -> Datatype.contiguous(1, null));
        expect(ErrorClass.TYPE, "vector old type is null", () -> Datatype.vector(1, 1, 1, null));
        expect(ErrorClass.TYPE, "indexedBlock old type is null", () -> Datatype.indexedBlock(1, new int[] {0}, null));
        expect(ErrorClass.TYPE, "indexed old type is null", () -> Datatype.indexed(new int[] {1}, new int[] {0}, null));
    }

    @Test
    void shouldLayPairTypesOutAsTheirCStructs() {
        // struct { value; int index; }: index at the next multiple of 4, extent rounded to the larger alignment.
        assertPair(Datatype.LONG_INT, Datatype.Pair.LONG_INT, Datatype.Basic.LONG, 8, 12, 16);
        assertPair(Datatype.INT2, Datatype.Pair.INT2, Datatype.Basic.INT, 4, 8, 8);
        assertPair(Datatype.DOUBLE_INT, Datatype.Pair.DOUBLE_INT, Datatype.Basic.DOUBLE, 8, 12, 16);
        assertPair(Datatype.FLOAT_INT, Datatype.Pair.FLOAT_INT, Datatype.Basic.FLOAT, 4, 8, 8);
        assertPair(Datatype.SHORT_INT, Datatype.Pair.SHORT_INT, Datatype.Basic.SHORT, 4, 6, 8);
        assertEquals("MPI_2INT", Datatype.Pair.INT2.mpiName());
        assertEquals(Datatype.Basic.INT, Datatype.INT2.basic(), "2INT is two ints");
        assertBlocks(Datatype.INT2, new long[] {0}, new long[] {2});
        assertBlocks(Datatype.SHORT_INT, new long[] {0, 4}, new long[] {1, 1});
        expect(ErrorClass.TYPE, "DOUBLE_INT mixes the basic types [DOUBLE, INT]", Datatype.DOUBLE_INT::basic);
    }

    @Test
    void shouldKeepThePairOfTypesBuiltFromOnePairType() {
        final Datatype three = Datatype.contiguous(3, Datatype.DOUBLE_INT);
        assertEquals(Datatype.Pair.DOUBLE_INT, three.pair().orElseThrow());
        assertEquals(48, three.extent());
        assertEquals(36, three.size());
        assertEquals(6, three.elements());
        assertEquals("MPI_DOUBLE_INT", three.unitName());
        final Datatype column = Datatype.vector(2, 1, 3, Datatype.INT2);
        assertEquals(Datatype.Pair.INT2, column.pair().orElseThrow());
        assertBlocks(column, new long[] {0, 24}, new long[] {2, 2});
        final Datatype records = Datatype.struct(new int[] {1, 2}, new long[] {0, 16},
            new Datatype[] {Datatype.FLOAT_INT, Datatype.FLOAT_INT});
        assertEquals(Datatype.Pair.FLOAT_INT, records.pair().orElseThrow());
        assertEquals(32, records.extent());
        final Datatype mixedPairs = Datatype.struct(new int[] {1, 1}, new long[] {0, 8},
            new Datatype[] {Datatype.INT2, Datatype.FLOAT_INT});
        assertTrue(mixedPairs.pair().isEmpty(), "two pair types are no pair type");
        assertEquals(null, mixedPairs.unitName());
        assertTrue(Datatype.contiguous(2, Datatype.INT).pair().isEmpty(), "two ints are not a 2INT");
        assertEquals("INT", Datatype.contiguous(2, Datatype.INT).unitName());
        assertTrue(Datatype.DOUBLE_INT.isPairType());
        assertFalse(three.isPairType());
        assertFalse(Datatype.DOUBLE_INT.isBasic());
    }

    @Test
    void shouldCountTheTrailingPaddingOfAnOldTypeInTheExtentAsMpisUpperBoundDoes() {
        // A 2 x 2 interior of a 4 x 4 int array: extent 64 (the whole array), last element at byte 44.
        final Datatype interior = Datatype.subarray(new int[] {4, 4}, new int[] {2, 2}, new int[] {1, 1},
            Datatype.Order.C, Datatype.INT);
        assertEquals(64, interior.extent());
        final Datatype two = Datatype.contiguous(2, interior);
        assertEquals(128, two.extent(), "two whole arrays, not the end of the second interior (108)");
        assertBlocks(two, new long[] {20, 36, 84, 100}, new long[] {2, 2, 2, 2});
        assertEquals(48, Datatype.hvector(2, 1, 32, Datatype.DOUBLE_INT).extent(),
            "the second pair ends one pair extent (16, padding included) after byte 32");
    }

    @Test
    void shouldLayAStructOutAtByteDisplacementsWithCPadding() {
        // struct { int a; double b[2]; short c; }: a at 0, b at 8, c at 24, end 26, rounded to 8: 32.
        final Datatype record = Datatype.struct(new int[] {1, 2, 1}, new long[] {0, 8, 24},
            new Datatype[] {Datatype.INT, Datatype.DOUBLE, Datatype.SHORT});
        assertEquals(32, record.extent());
        assertEquals(4 + 16 + 2, record.size());
        assertEquals(4, record.elements());
        assertEquals(List.of(Datatype.Basic.INT, Datatype.Basic.DOUBLE, Datatype.Basic.SHORT), record.basics());
        assertBlocks(record, new long[] {0, 8, 24}, new long[] {1, 2, 1});
        assertEquals(null, record.unitName(), "a struct of several basic types has no accumulate unit");
        assertTrue(record.pair().isEmpty());
        assertFalse(record.isContiguous());
        expect(ErrorClass.TYPE, "mixes the basic types [INT, DOUBLE, SHORT]", record::basic);
        assertEquals("struct([1, 2, 1], [0, 8, 24], [INT, DOUBLE, SHORT])", record.toString());
        // A block of n copies ends n extents after its displacement: a struct of a struct.
        final Datatype two = Datatype.struct(new int[] {2, 1}, new long[] {0, 64},
            new Datatype[] {record, Datatype.BYTE});
        assertEquals(72, two.extent(), "end 65 rounded to the alignment 8 of the doubles inside");
        assertEquals(2 * 22 + 1, two.size());
        // Adjacent blocks of one basic type merge; a struct of one basic type accumulates as that type.
        final Datatype ints = Datatype.struct(new int[] {1, 3}, new long[] {0, 4},
            new Datatype[] {Datatype.INT, Datatype.INT});
        assertBlocks(ints, new long[] {0}, new long[] {4});
        assertEquals(Datatype.Basic.INT, ints.basic());
        assertTrue(ints.isContiguous());
        assertEquals("INT", ints.unitName());
        final Datatype bytes = Datatype.struct(new int[] {3}, new long[] {1}, new Datatype[] {Datatype.BYTE});
        assertEquals(4, bytes.extent(), "bytes need no padding; the lower bound stays 0");
    }

    @Test
    void shouldRaiseTheStandardsErrorClassesForBadStructArguments() {
        expect(ErrorClass.ARG, "must not be null", () -> Datatype.struct(null, new long[0], new Datatype[0]));
        expect(ErrorClass.COUNT, "2 blocklengths, 1 displacements and 2 types",
            () -> Datatype.struct(new int[] {1, 1}, new long[] {0}, new Datatype[] {Datatype.INT, Datatype.INT}));
        expect(ErrorClass.COUNT, "struct blocklengths[1]=-2",
            () -> Datatype.struct(new int[] {1, -2}, new long[] {0, 4}, new Datatype[] {Datatype.INT, Datatype.INT}));
        expect(ErrorClass.TYPE, "struct types[1] old type is null",
            () -> Datatype.struct(new int[] {1, 1}, new long[] {0, 4}, new Datatype[] {Datatype.INT, null}));
        expect(ErrorClass.TYPE, "displacement -8",
            () -> Datatype.struct(new int[] {1}, new long[] {-8}, new Datatype[] {Datatype.INT}));
        final Datatype empty = Datatype.struct(new int[0], new long[0], new Datatype[0]);
        assertEquals(0, empty.extent());
        assertEquals(0, empty.elements());
    }

    private static void assertPair(final Datatype type, final Datatype.Pair pair, final Datatype.Basic value,
        final int indexOffset, final int size, final int extent) {
        assertEquals(pair, type.pair().orElseThrow(), type.toString());
        assertEquals(value, pair.valueType());
        assertEquals(indexOffset, pair.indexOffset(), type.toString());
        assertEquals(extent, pair.extent(), type.toString());
        assertEquals(size, type.size(), type.toString());
        assertEquals(extent, type.extent(), type.toString());
        assertEquals(2, type.elements(), type.toString());
        assertEquals(pair.mpiName(), type.unitName());
        assertEquals(List.of(value, Datatype.Basic.INT).stream().distinct().toList(), type.basics());
        assertTrue(type.isPairType());
    }

    static void assertBlocks(final Datatype type, final long[] offsets, final long[] elements) {
        final long[] actualOffsets = new long[type.blocks()];
        final long[] actualElements = new long[type.blocks()];
        for (int b = 0; b < type.blocks(); b++) {
            actualOffsets[b] = type.blockOffset(b);
            actualElements[b] = type.blockElements(b);
        }
        assertArrayEquals(offsets, actualOffsets, type + " block offsets");
        assertArrayEquals(elements, actualElements, type + " block elements");
    }

    private static void expect(final ErrorClass errorClass, final String detail, final Executable call) {
        final RmaException e = assertThrows(RmaException.class, call);
        assertEquals(errorClass, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().startsWith(errorClass.mpiName() + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(detail), () -> "\"" + e.getMessage() + "\" should name " + detail);
    }
}
