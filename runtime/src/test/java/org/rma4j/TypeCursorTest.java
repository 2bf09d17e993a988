package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The runs that {@link TypeCursor#zip} pairs for two or three layouts: each run is contiguous on
 * every side, runs follow the elements in type-map order, and a run ends only where one side's
 * contiguous block ends.
 */
class TypeCursorTest {
    @Test
    void shouldPairVectorBlocksWithSlicesOfAContiguousBuffer() {
        final Datatype vector = Datatype.vector(3, 2, 4, Datatype.INT);
        final List<String> runs = zip(0, 1, vector, 100, 1, Datatype.contiguous(6, Datatype.INT));
        assertEquals(List.of("0->100 x2", "16->108 x2", "32->116 x2"), runs);
    }

    @Test
    void shouldSplitRunsWhereEitherSideEndsABlock() {
        // Blocks of 3 and 1 ints against blocks of 2 and 2 ints.
        final Datatype indexed = Datatype.indexed(new int[] {3, 1}, new int[] {0, 10}, Datatype.INT);
        final Datatype vector = Datatype.vector(2, 2, 5, Datatype.INT);
        assertEquals(List.of("0->0 x2", "8->20 x1", "40->24 x1"), zip(0, 1, indexed, 0, 1, vector));
        assertEquals(List.of("0->0 x2", "20->8 x1", "24->40 x1"), zip(0, 1, vector, 0, 1, indexed));
    }

    @Test
    void shouldMoveAMergedContiguousTypeAsOneRun() {
        final Datatype four = Datatype.contiguous(4, Datatype.LONG);
        assertEquals(List.of("8->64 x4"), zip(8, 1, four, 64, 1, four));
        final Datatype strideOne = Datatype.vector(4, 1, 1, Datatype.LONG);
        assertEquals(List.of("0->0 x4"), zip(0, 1, strideOne, 0, 1, four));
    }

    @Test
    void shouldWalkCountInstancesOneExtentApart() {
        // vector(2, 1, 3, INT): ints 0 and 3, extent 16; two instances hold ints 0, 3, 4, 7.
        final Datatype vector = Datatype.vector(2, 1, 3, Datatype.INT);
        final List<long[]> pairs = elementPairs(0, 2, vector, 0, 1, Datatype.contiguous(4, Datatype.INT));
        assertPairs(new long[][] {{0, 0}, {12, 4}, {16, 8}, {28, 12}}, pairs);
    }

    @Test
    void shouldFollowTypeMapOrderNotAddressOrder() {
        final Datatype backwards = Datatype.indexedBlock(1, new int[] {3, 2, 1, 0}, Datatype.SHORT);
        final List<long[]> pairs = elementPairs(0, 1, backwards, 0, 4, Datatype.SHORT);
        assertPairs(new long[][] {{6, 0}, {4, 2}, {2, 4}, {0, 6}}, pairs);
    }

    @Test
    void shouldPairEveryElementOfTwoDifferentLayoutsExactlyOnce() {
        // 2 x indexed (8 ints each, extent 56) against 4 x vector (2 blocks of 2, stride 3; extent 20).
        final Datatype indexed = Datatype.indexed(new int[] {2, 1, 3, 2}, new int[] {7, 0, 3, 12}, Datatype.INT);
        final Datatype vector = Datatype.vector(2, 2, 3, Datatype.INT);
        assertEquals(56, indexed.extent());
        assertEquals(20, vector.extent());
        final long[] first = new long[16];
        final long[] second = new long[16];
        int k = 0;
        for (int instance = 0; instance < 2; instance++) {
            for (final int[] block : new int[][] {{7, 2}, {0, 1}, {3, 3}, {12, 2}}) {
                for (int j = 0; j < block[1]; j++) {
                    first[k++] = 1000 + instance * 56L + (block[0] + j) * 4L;
                }
            }
        }
        k = 0;
        for (int instance = 0; instance < 4; instance++) {
            for (int b = 0; b < 2; b++) {
                for (int j = 0; j < 2; j++) {
                    second[k++] = instance * 20L + (b * 3 + j) * 4L;
                }
            }
        }
        final List<long[]> pairs = elementPairs(1000, 2, indexed, 0, 4, vector);
        final long[][] expected = new long[16][];
        for (int i = 0; i < 16; i++) {
            expected[i] = new long[] {first[i], second[i]};
        }
        assertPairs(expected, pairs);
    }

    @Test
    void shouldPairThreeWalksAtTheShortestRun() {
        final Datatype a = Datatype.contiguous(6, Datatype.DOUBLE);
        final Datatype b = Datatype.vector(2, 3, 4, Datatype.DOUBLE);
        final Datatype c = Datatype.vector(3, 2, 3, Datatype.DOUBLE);
        final List<String> runs = new ArrayList<>();
        TypeCursor.zip(new TypeCursor(0, 1, a), new TypeCursor(0, 1, b), new TypeCursor(0, 1, c),
            (x, y, z, n) -> runs.add(x + "," + y + "," + z + " x" + n));
        assertEquals(List.of("0,0,0 x2", "16,16,24 x1", "24,32,32 x1", "32,40,48 x2"), runs);
    }

    @Test
    void shouldProduceNoRunsForEmptyWalks() {
        assertEquals(List.of(), zip(0, 0, Datatype.INT, 0, 0, Datatype.INT));
        assertEquals(List.of(), zip(0, 5, Datatype.contiguous(0, Datatype.INT), 0, 0, Datatype.INT));
        final TypeCursor empty = new TypeCursor(0, 3, Datatype.vector(2, 0, 1, Datatype.INT));
        assertFalse(empty.hasMore());
    }

    @Test
    void shouldReportOffsetAndRemainingWhileAdvancing() {
        final TypeCursor cursor = new TypeCursor(40, 2, Datatype.vector(2, 3, 4, Datatype.SHORT));
        assertTrue(cursor.hasMore());
        assertEquals(40, cursor.offset());
        assertEquals(3, cursor.remaining());
        cursor.advance(2);
        assertEquals(44, cursor.offset());
        assertEquals(1, cursor.remaining());
        cursor.advance(1);
        assertEquals(48, cursor.offset());
        assertEquals(3, cursor.remaining());
        cursor.advance(3);
        // Second instance: one extent (7 shorts = 14 bytes) further.
        assertEquals(54, cursor.offset());
        cursor.advance(3);
        cursor.advance(3);
        assertFalse(cursor.hasMore());
    }

    @Test
    void shouldCoverEveryElementOfRepeatedBasicTypesInOrder() {
        final List<long[]> pairs = elementPairs(0, 5, Datatype.INT, 100, 5, Datatype.INT);
        assertPairs(new long[][] {{0, 100}, {4, 104}, {8, 108}, {12, 112}, {16, 116}}, pairs);
    }

    /**
     * TypeCursor's contract: "zip pairs the runs ... so that typed transfers and accumulates move the
     * longest contiguous pieces both sides allow". Consecutive instances of a contiguous type are one
     * contiguous piece, but the cursor ends a run at every instance boundary, so {@code put} of
     * 1000 x LONG makes 1000 copies of 8 bytes.
     */
    @Test
    void shouldMergeRunsAcrossInstanceBoundaries() {
        assertEquals(List.of("0->100 x5"), zip(0, 5, Datatype.INT, 100, 5, Datatype.INT));
        assertEquals(List.of("0->0 x8"), zip(0, 4, Datatype.contiguous(2, Datatype.LONG), 0, 8, Datatype.LONG));
    }

    @Test
    void shouldWalkAStructRunByRunWithEachRunsBasicType() {
        // struct { int; double[2]; short } (extent 32) against the packed sequence int, double, double, short.
        final Datatype record = Datatype.struct(new int[] {1, 2, 1}, new long[] {0, 8, 24},
            new Datatype[] {Datatype.INT, Datatype.DOUBLE, Datatype.SHORT});
        final Datatype packed = Datatype.struct(new int[] {1, 2, 1}, new long[] {0, 4, 20},
            new Datatype[] {Datatype.INT, Datatype.DOUBLE, Datatype.SHORT});
        final TypeCursor cursor = new TypeCursor(0, 2, record);
        final List<String> runs = new ArrayList<>();
        while (cursor.hasMore()) {
            runs.add(cursor.offset() + ":" + cursor.basic() + "x" + cursor.remaining());
            cursor.advance(cursor.remaining());
        }
        assertEquals(List.of("0:INTx1", "8:DOUBLEx2", "24:SHORTx1", "32:INTx1", "40:DOUBLEx2", "56:SHORTx1"), runs);
        assertTrue(TypeCursor.sameSignature(new TypeCursor(0, 2, record), new TypeCursor(0, 2, packed)));
        assertFalse(TypeCursor.sameSignature(new TypeCursor(0, 2, record), new TypeCursor(0, 1, packed)),
            "a shorter walk has another signature");
        final Datatype swapped = Datatype.struct(new int[] {2, 1, 1}, new long[] {0, 16, 20},
            new Datatype[] {Datatype.DOUBLE, Datatype.INT, Datatype.SHORT});
        assertFalse(TypeCursor.sameSignature(new TypeCursor(0, 1, record), new TypeCursor(0, 1, swapped)),
            "the same basic types in another order");
        assertTrue(TypeCursor.sameSignature(new TypeCursor(0, 1, Datatype.INT2), new TypeCursor(0, 2, Datatype.INT)),
            "2INT is the signature int, int");
    }

    @Test
    void shouldCopyEachRunWithTheBytesOfItsBasicType() {
        final Datatype record = Datatype.struct(new int[] {1, 2, 1}, new long[] {0, 8, 24},
            new Datatype[] {Datatype.INT, Datatype.DOUBLE, Datatype.SHORT});
        final Datatype packed = Datatype.struct(new int[] {1, 2, 1}, new long[] {0, 4, 20},
            new Datatype[] {Datatype.INT, Datatype.DOUBLE, Datatype.SHORT});
        final byte[] from = new byte[64];
        for (int i = 0; i < from.length; i++) {
            from[i] = (byte)(i + 1);
        }
        // packed ends at 22 and is rounded to the alignment 8 of its doubles: extent 24.
        assertEquals(24, packed.extent());
        final byte[] to = new byte[48];
        TypeCursor.copy(java.lang.foreign.MemorySegment.ofArray(from), new TypeCursor(0, 2, record),
            java.lang.foreign.MemorySegment.ofArray(to), new TypeCursor(0, 2, packed));
        final byte[] expected = new byte[48];
        for (int instance = 0; instance < 2; instance++) {
            // {source offset, destination offset, bytes} of the int, the two doubles and the short.
            for (final int[] run : new int[][] {{0, 0, 4}, {8, 4, 16}, {24, 20, 2}}) {
                for (int j = 0; j < run[2]; j++) {
                    expected[instance * 24 + run[1] + j] = from[instance * 32 + run[0] + j];
                }
            }
        }
        org.junit.jupiter.api.Assertions.assertArrayEquals(expected, to, "padding skipped, elements packed");
    }

    private static List<String> zip(final long firstBase, final long firstCount, final Datatype firstType,
        final long secondBase, final long secondCount, final Datatype secondType) {
        final List<String> runs = new ArrayList<>();
        TypeCursor.zip(new TypeCursor(firstBase, firstCount, firstType),
            new TypeCursor(secondBase, secondCount, secondType), (a, b, n) -> runs.add(a + "->" + b + " x" + n));
        return runs;
    }

    /**
     * The runs of zip expanded into (first, second) byte offsets of each element, checking that every
     * run is non-empty.
     */
    private static List<long[]> elementPairs(final long firstBase, final long firstCount, final Datatype firstType,
        final long secondBase, final long secondCount, final Datatype secondType) {
        final int bytes = firstType.basic().bytes();
        final List<long[]> pairs = new ArrayList<>();
        TypeCursor.zip(new TypeCursor(firstBase, firstCount, firstType),
            new TypeCursor(secondBase, secondCount, secondType), (a, b, n) -> {
                assertTrue(n > 0, "empty run at " + a + ", " + b);
                for (long i = 0; i < n; i++) {
                    pairs.add(new long[] {a + i * bytes, b + i * bytes});
                }
            });
        return pairs;
    }

    private static void assertPairs(final long[][] expected, final List<long[]> actual) {
        assertEquals(expected.length, actual.size(), "number of elements");
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i][0], actual.get(i)[0], "first offset of element " + i);
            assertEquals(expected[i][1], actual.get(i)[1], "second offset of element " + i);
        }
    }
}
