package org.rma4j.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.rma4j.Datatype.Basic;
import org.rma4j.Datatype.Pair;
import org.rma4j.Op;

/**
 * MINLOC, MAXLOC, REPLACE and NO_OP on single value-index pairs (MPI-3.1 section 5.9.4), through the word
 * path and the locked path of {@link AtomicPairs}: the results, the tie rule, the previous pair returned,
 * and the bytes around a pair (its padding and its neighbours) left as they were.
 */
class AtomicPairsTest {
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void free() {
        arena.close();
    }

    @Test
    void shouldTakeTheSmallerValueOrOfEqualValuesTheSmallerIndex() {
        // (target value, target index, origin value, origin index) -> expected decision for MINLOC, MAXLOC.
        assertDecision(Basic.INT, 5, 7, 3, 9, AtomicPairs.TAKE, AtomicPairs.KEEP);
        assertDecision(Basic.INT, 5, 7, 8, 1, AtomicPairs.KEEP, AtomicPairs.TAKE);
        assertDecision(Basic.INT, 5, 7, 5, 2, AtomicPairs.TAKE_INDEX, AtomicPairs.TAKE_INDEX);
        assertDecision(Basic.INT, 5, 2, 5, 7, AtomicPairs.KEEP, AtomicPairs.KEEP);
        assertDecision(Basic.INT, 5, 2, 5, 2, AtomicPairs.KEEP, AtomicPairs.KEEP);
        assertDecision(Basic.LONG, Long.MIN_VALUE, 0, Long.MAX_VALUE, -1, AtomicPairs.KEEP, AtomicPairs.TAKE);
        assertDecision(Basic.SHORT, -3, 4, -4, 9, AtomicPairs.TAKE, AtomicPairs.KEEP);
        assertDecision(Basic.DOUBLE, bits(-0.0), 4, bits(0.0), 1, AtomicPairs.TAKE_INDEX, AtomicPairs.TAKE_INDEX);
        assertDecision(Basic.DOUBLE, bits(1.5), 4, bits(Double.NaN), 1, AtomicPairs.TAKE_INDEX, AtomicPairs.TAKE_INDEX);
        assertDecision(Basic.FLOAT, Float.floatToRawIntBits(2.0f), 1, Float.floatToRawIntBits(-2.0f), 3,
            AtomicPairs.TAKE, AtomicPairs.KEEP);
        assertEquals(AtomicPairs.TAKE, AtomicPairs.decide(Op.REPLACE, Basic.INT, 1, 1, 9, 9));
        assertEquals(AtomicPairs.KEEP, AtomicPairs.decide(Op.NO_OP, Basic.INT, 1, 1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> AtomicPairs.decide(Op.SUM, Basic.INT, 1, 1, 0, 0));
    }

    @ParameterizedTest
    @EnumSource(Pair.class)
    void shouldApplyEveryPairOpThroughBothPathsAndReturnThePreviousPair(final Pair pair) {
        final long small = valueBits(pair, -7);
        final long large = valueBits(pair, 12);
        for (final boolean locked : new boolean[] {false, true}) {
            if (!locked && pair.extent() != Long.BYTES) {
                continue;
            }
            assertApplied(pair, locked, Op.MINLOC, large, 5, small, 9, small, 9);
            assertApplied(pair, locked, Op.MINLOC, small, 5, large, 1, small, 5);
            assertApplied(pair, locked, Op.MINLOC, small, 5, small, 1, small, 1);
            assertApplied(pair, locked, Op.MAXLOC, small, 5, large, 9, large, 9);
            assertApplied(pair, locked, Op.MAXLOC, large, 3, large, 8, large, 3);
            assertApplied(pair, locked, Op.REPLACE, large, 3, small, 8, small, 8);
            assertApplied(pair, locked, Op.NO_OP, large, 3, small, 8, large, 3);
        }
    }

    @Test
    void shouldUseOneWordForAlignedEightBytePairsOnly() {
        assertTrue(AtomicPairs.fitsOneWord(Pair.INT2, 4096));
        assertTrue(AtomicPairs.fitsOneWord(Pair.SHORT_INT, 8));
        assertFalse(AtomicPairs.fitsOneWord(Pair.FLOAT_INT, 4100), "4-byte aligned only: locked");
        assertFalse(AtomicPairs.fitsOneWord(Pair.DOUBLE_INT, 4096), "16 bytes: locked");
        assertFalse(AtomicPairs.fitsOneWord(Pair.LONG_INT, 0));
    }

    /**
     * Applies op to a target pair in the middle of a buffer filled with 0x5A (so padding and neighbours are
     * visible) and checks the new pair, the returned previous pair and every other byte.
     */
    private void assertApplied(final Pair pair, final boolean locked, final Op op, final long targetBits,
        final int targetIndex, final long originBits, final int originIndex, final long expectedBits,
        final int expectedIndex) {
        final MemorySegment buffer = arena.allocate(64, 16);
        buffer.fill((byte)0x5A);
        final long offset = 16;
        AtomicPairs.write(pair, buffer, offset, targetBits, targetIndex);
        final byte[] before = buffer.toArray(ValueLayout.JAVA_BYTE);
        final MemorySegment result = arena.allocate(16, 8);
        if (locked) {
            AtomicPairs.getAndApplyLocked(op, pair, buffer, offset, originBits, originIndex, result, 0);
        } else {
            AtomicPairs.getAndApplyWord(op, pair, buffer, offset, originBits, originIndex, result, 0);
        }
        final String what = op + " on " + pair + (locked ? " (locked)" : " (word)");
        assertEquals(expectedBits, AtomicPairs.readValue(pair, buffer, offset), what + ": value");
        assertEquals(expectedIndex, AtomicPairs.readIndex(pair, buffer, offset), what + ": index");
        assertEquals(targetBits, AtomicPairs.readValue(pair, result, 0), what + ": previous value");
        assertEquals(targetIndex, AtomicPairs.readIndex(pair, result, 0), what + ": previous index");
        final byte[] after = buffer.toArray(ValueLayout.JAVA_BYTE);
        final int valueEnd = (int)offset + pair.valueType().bytes();
        for (int i = 0; i < after.length; i++) {
            final boolean value = i >= offset && i < valueEnd;
            final boolean index = i >= offset + pair.indexOffset() && i < offset + pair.indexOffset() + Integer.BYTES;
            if (!value && !index) {
                assertEquals(before[i], after[i], what + ": byte " + i + " (padding or neighbour) changed");
            }
        }
    }

    private static void assertDecision(final Basic type, final long targetBits, final int targetIndex,
        final long originBits, final int originIndex, final int minloc, final int maxloc) {
        assertEquals(minloc, AtomicPairs.decide(Op.MINLOC, type, targetBits, targetIndex, originBits, originIndex),
            "MINLOC");
        assertEquals(maxloc, AtomicPairs.decide(Op.MAXLOC, type, targetBits, targetIndex, originBits, originIndex),
            "MAXLOC");
    }

    private static long bits(final double value) {
        return Double.doubleToRawLongBits(value);
    }

    private static long valueBits(final Pair pair, final int value) {
        return switch (pair.valueType()) {
            case FLOAT -> Float.floatToRawIntBits(value);
            case DOUBLE -> Double.doubleToRawLongBits(value);
            default -> value;
        };
    }
}
