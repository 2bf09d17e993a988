package org.rma4j.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.rma4j.Datatype.Basic;
import org.rma4j.Op;

/**
 * The op x type matrix of {@link AtomicElements} on native memory, against a reference computed here
 * with Java arithmetic on the element's own Java type (wrapping overflow, unsigned char, IEEE 754
 * float and double with NaN and signed zeros).
 */
class AtomicElementsTest {
    /** Fill byte of memory that an operation must not touch. */
    private static final byte SENTINEL = (byte)0xC3;
    /** Offset of whole-word elements in the scratch segment (8-aligned, with neighbours on both sides). */
    private static final long WORD_OFFSET = 8;

    private Arena arena;
    private MemorySegment segment;

    @BeforeEach
    void allocate() {
        arena = Arena.ofConfined();
        segment = arena.allocate(4096, 8);
    }

    @AfterEach
    void free() {
        arena.close();
    }

    // ---------------------------------------------------------------- the matrix

    static Stream<Arguments> acceptedPairs() {
        final List<Arguments> pairs = new ArrayList<>();
        for (final Op op : Op.values()) {
            for (final Basic type : Basic.values()) {
                if (op.accepts(type)) {
                    pairs.add(Arguments.of(op, type));
                }
            }
        }
        return pairs.stream();
    }

    @Test
    void shouldAcceptEveryOpOnIntegersAndOnlyArithmeticOpsOnFloatingPoint() {
        for (final Op op : Op.values()) {
            for (final Basic type : Basic.values()) {
                final boolean logicalOrBitwise = switch (op) {
                    case LAND, LOR, LXOR, BAND, BOR, BXOR -> true;
                    default -> false;
                };
                final boolean pairOnly = op == Op.MINLOC || op == Op.MAXLOC;
                assertEquals(!pairOnly && (type.isInteger() || !logicalOrBitwise), op.accepts(type),
                    op + " on " + type);
            }
        }
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("acceptedPairs")
    void shouldGetAndApplyLikeJavaArithmeticAtEveryPositionInTheWord(final Op op, final Basic type) {
        final long[] values = values(type);
        for (final long offset : positions(type)) {
            for (final long current : values) {
                for (final long operand : values) {
                    segment.fill(SENTINEL);
                    store(type, segment, offset, current);
                    final long previous = AtomicElements.getAndApply(op, type, segment, offset, operand);
                    final String what = op + "(" + show(type, current) + ", " + show(type, operand) + ") at byte "
                        + offset;
                    assertSameValue(type, current, previous, what + ": previous value");
                    assertSameValue(type, reference(op, type, current, operand), load(type, segment, offset), what);
                    assertUntouchedExcept(segment, offset, type.bytes(), what);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("acceptedPairs")
    void shouldAccumulateArraysElementByElementLikeJavaArithmetic(final Op op, final Basic type) {
        final long[] values = values(type);
        final int bytes = type.bytes();
        final int n = values.length * values.length;
        // Target elements start at 0 and origin elements at 2048: every pair (current, operand) once,
        // packed, so sub-word elements sit at every position of their int next to other elements.
        final MemorySegment origin = segment.asSlice(2048, 2048);
        segment.fill(SENTINEL);
        for (int k = 0; k < n; k++) {
            store(type, segment, (long)k * bytes, values[k / values.length]);
            store(type, origin, (long)k * bytes, values[k % values.length]);
        }
        AtomicElements.accumulate(op, type, origin, 0, segment, 0, n);
        for (int k = 0; k < n; k++) {
            final long current = values[k / values.length];
            final long operand = values[k % values.length];
            assertSameValue(type, reference(op, type, current, operand), load(type, segment, (long)k * bytes),
                op + "(" + show(type, current) + ", " + show(type, operand) + ") element " + k);
            assertSameValue(type, operand, load(type, origin, (long)k * bytes), "origin element " + k + " unchanged");
        }
        assertUntouchedExcept(segment.asSlice(0, 2048), 0, (long)n * bytes, "after the last element");
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("acceptedPairs")
    void shouldGetAccumulateReturningEachPreviousValue(final Op op, final Basic type) {
        final long[] values = values(type);
        final int bytes = type.bytes();
        final int n = values.length * values.length;
        final MemorySegment target = segment.asSlice(0, 1024);
        final MemorySegment origin = segment.asSlice(1024, 1024);
        final MemorySegment result = segment.asSlice(2048, 1024);
        segment.fill(SENTINEL);
        for (int k = 0; k < n; k++) {
            store(type, target, (long)k * bytes, values[k / values.length]);
            store(type, origin, (long)k * bytes, values[k % values.length]);
        }
        // With NO_OP the origin is not read: pass none.
        AtomicElements.getAccumulate(op, type, op == Op.NO_OP ? null : origin, 0, result, 0, target, 0, n);
        for (int k = 0; k < n; k++) {
            final long current = values[k / values.length];
            final long operand = values[k % values.length];
            final String what = op + "(" + show(type, current) + ", " + show(type, operand) + ") element " + k;
            assertSameValue(type, current, load(type, result, (long)k * bytes), what + ": result");
            assertSameValue(type, reference(op, type, current, operand), load(type, target, (long)k * bytes), what);
        }
        assertUntouchedExcept(result, 0, (long)n * bytes, "result beyond the last element");
    }

    @Test
    void shouldProduceZeroOrOneFromLogicalOps() {
        for (final Basic type : Basic.values()) {
            if (!type.isInteger()) {
                continue;
            }
            // 5 and -3 (0xFFFD as a char) are both "true" without being 1.
            final long five = 5;
            final long minusThree = type == Basic.CHAR ? 0xFFFD : -3;
            final long[][] cases = {{five, minusThree, 1, 1, 0}, {five, 0, 0, 1, 1}, {0, minusThree, 0, 1, 1},
                {0, 0, 0, 0, 0},};
            for (final long[] c : cases) {
                assertEquals(c[2], applied(Op.LAND, type, c[0], c[1]), type + " LAND " + c[0] + ", " + c[1]);
                assertEquals(c[3], applied(Op.LOR, type, c[0], c[1]), type + " LOR " + c[0] + ", " + c[1]);
                assertEquals(c[4], applied(Op.LXOR, type, c[0], c[1]), type + " LXOR " + c[0] + ", " + c[1]);
            }
        }
    }

    @Test
    void shouldWrapIntegerOverflowAndTreatCharAsUnsigned() {
        assertEquals(Byte.MIN_VALUE, applied(Op.SUM, Basic.BYTE, Byte.MAX_VALUE, 1));
        assertEquals(0, applied(Op.PROD, Basic.BYTE, 16, 16));
        assertEquals(Short.MIN_VALUE, applied(Op.SUM, Basic.SHORT, Short.MAX_VALUE, 1));
        assertEquals(0, applied(Op.SUM, Basic.CHAR, 0xFFFF, 1));
        assertEquals(0xFFFF, applied(Op.SUM, Basic.CHAR, 0, 0xFFFF));
        assertEquals(0xFFFF, applied(Op.MAX, Basic.CHAR, 1, 0xFFFF), "0xFFFF is the largest char, not -1");
        assertEquals(1, applied(Op.MIN, Basic.CHAR, 1, 0x8000));
        assertEquals(Integer.MIN_VALUE, applied(Op.SUM, Basic.INT, Integer.MAX_VALUE, 1));
        assertEquals(Long.MIN_VALUE, applied(Op.SUM, Basic.LONG, Long.MAX_VALUE, 1));
        assertEquals(Long.MIN_VALUE, applied(Op.PROD, Basic.LONG, Long.MIN_VALUE, -1));
    }

    @Test
    void shouldFollowIeeeRulesForNaNAndSignedZero() {
        final long nanF = Float.floatToRawIntBits(Float.NaN);
        final long zeroF = Float.floatToRawIntBits(0.0f);
        final long minusZeroF = Float.floatToRawIntBits(-0.0f);
        assertTrue(Float.isNaN(Float.intBitsToFloat((int)applied(Op.SUM, Basic.FLOAT, nanF, zeroF))));
        assertTrue(Float.isNaN(Float.intBitsToFloat((int)applied(Op.MIN, Basic.FLOAT, zeroF, nanF))));
        assertTrue(Float.isNaN(Float.intBitsToFloat((int)applied(Op.MAX, Basic.FLOAT, nanF, zeroF))));
        assertEquals(minusZeroF, applied(Op.MIN, Basic.FLOAT, zeroF, minusZeroF));
        assertEquals(zeroF, applied(Op.MAX, Basic.FLOAT, minusZeroF, zeroF));
        assertEquals(zeroF, applied(Op.SUM, Basic.FLOAT, minusZeroF, zeroF));
        assertEquals(minusZeroF, applied(Op.SUM, Basic.FLOAT, minusZeroF, minusZeroF));

        final long nanD = Double.doubleToRawLongBits(Double.NaN);
        final long zeroD = Double.doubleToRawLongBits(0.0);
        final long minusZeroD = Double.doubleToRawLongBits(-0.0);
        assertTrue(Double.isNaN(Double.longBitsToDouble(
            applied(Op.PROD, Basic.DOUBLE, zeroD, Double.doubleToRawLongBits(Double.POSITIVE_INFINITY)))));
        assertTrue(Double.isNaN(Double.longBitsToDouble(applied(Op.MAX, Basic.DOUBLE, zeroD, nanD))));
        assertEquals(minusZeroD, applied(Op.MIN, Basic.DOUBLE, zeroD, minusZeroD));
        assertEquals(minusZeroD, applied(Op.PROD, Basic.DOUBLE, minusZeroD, Double.doubleToRawLongBits(3.0)));
        assertEquals(Double.doubleToRawLongBits(Double.POSITIVE_INFINITY), applied(Op.SUM, Basic.DOUBLE,
            Double.doubleToRawLongBits(Double.MAX_VALUE), Double.doubleToRawLongBits(Double.MAX_VALUE)));
    }

    // ---------------------------------------------------------------- sub-word neighbours

    @ParameterizedTest
    @EnumSource(value = Basic.class, names = {"BYTE", "SHORT", "CHAR"})
    void shouldLeaveNeighbouringBytesUnchangedAtEverySubWordPosition(final Basic type) {
        final byte[][] patterns = {{0, 0, 0, 0}, {-1, -1, -1, -1}, {0x11, 0x22, 0x33, 0x44}, {(byte)0x80, 0x7F, 1, -2}};
        for (final byte[] pattern : patterns) {
            for (long position = 0; position < 4; position += type.bytes()) {
                final long offset = WORD_OFFSET + position;
                for (final Op op : new Op[] {Op.SUM, Op.PROD, Op.MIN, Op.MAX, Op.BXOR, Op.REPLACE, Op.NO_OP}) {
                    segment.fill(SENTINEL);
                    for (int i = 0; i < 4; i++) {
                        segment.set(ValueLayout.JAVA_BYTE, WORD_OFFSET + i, pattern[i]);
                    }
                    final long current = load(type, segment, offset);
                    final long operand = type == Basic.CHAR ? 0xFFFF : -1;
                    AtomicElements.getAndApply(op, type, segment, offset, operand);
                    final String what = op + " on " + type + " at byte " + position + " of " + hex(pattern);
                    assertSameValue(type, reference(op, type, current, operand), load(type, segment, offset), what);
                    for (int i = 0; i < 4; i++) {
                        if (i < position || i >= position + type.bytes()) {
                            assertEquals(pattern[i], segment.get(ValueLayout.JAVA_BYTE, WORD_OFFSET + i),
                                what + ": neighbouring byte " + i);
                        }
                    }
                    assertUntouchedExcept(segment, WORD_OFFSET, 4, what);
                }
            }
        }
    }

    // ---------------------------------------------------------------- compare and swap

    @ParameterizedTest
    @EnumSource(value = Basic.class, names = {"BYTE", "SHORT", "CHAR", "INT", "LONG"})
    void shouldSwapOnlyWhenTheTargetEqualsCompare(final Basic type) {
        final long[] values = values(type);
        for (final long offset : positions(type)) {
            for (final long current : values) {
                for (final long compare : values) {
                    final long value = values[(indexOf(values, compare) + 1) % values.length];
                    segment.fill(SENTINEL);
                    store(type, segment, offset, current);
                    final long previous = AtomicElements.compareAndSwap(type, segment, offset, compare, value);
                    final String what = "compareAndSwap(" + show(type, compare) + " -> " + show(type, value) + ") on "
                        + show(type, current) + " at byte " + offset;
                    assertEquals(current, previous, what + ": previous value");
                    assertEquals(current == compare ? value : current, load(type, segment, offset), what);
                    assertUntouchedExcept(segment, offset, type.bytes(), what);
                }
            }
        }
    }

    @Test
    void shouldCompareCharsAndBytesByTheirOwnBitsOnly() {
        // A char 0xFFFF is not the short -1: the compare value is taken as the element's type.
        store(Basic.CHAR, segment, WORD_OFFSET + 2, 0xFFFF);
        assertEquals(0xFFFF, AtomicElements.compareAndSwap(Basic.CHAR, segment, WORD_OFFSET + 2, 0xFFFF, 7));
        assertEquals(7, load(Basic.CHAR, segment, WORD_OFFSET + 2));
        store(Basic.BYTE, segment, WORD_OFFSET + 3, -128);
        assertEquals(-128, AtomicElements.compareAndSwap(Basic.BYTE, segment, WORD_OFFSET + 3, 127, 0));
        assertEquals(-128, load(Basic.BYTE, segment, WORD_OFFSET + 3));
        assertEquals(-128, AtomicElements.compareAndSwap(Basic.BYTE, segment, WORD_OFFSET + 3, -128, 127));
        assertEquals(127, load(Basic.BYTE, segment, WORD_OFFSET + 3));
    }

    @Test
    void shouldReadAndWriteRawBitsOfEveryType() {
        for (final Basic type : Basic.values()) {
            for (final long value : values(type)) {
                segment.fill(SENTINEL);
                AtomicElements.write(type, segment, WORD_OFFSET, value);
                assertEquals(value, AtomicElements.read(type, segment, WORD_OFFSET), type + " " + show(type, value));
                assertEquals(value, load(type, segment, WORD_OFFSET), type + " " + show(type, value));
                assertUntouchedExcept(segment, WORD_OFFSET, type.bytes(), type.toString());
            }
        }
    }

    // ---------------------------------------------------------------- reference

    /**
     * The op on two values of the type, computed with the Java operators of that type; values are raw
     * bits as {@link AtomicElements} takes them.
     */
    static long reference(final Op op, final Basic type, final long a, final long b) {
        switch (type) {
            case BYTE : {
                final byte x = (byte)a;
                final byte y = (byte)b;
                return switch (op) {
                    case SUM -> (byte)(x + y);
                    case PROD -> (byte)(x * y);
                    case MIN -> x < y ? x : y;
                    case MAX -> x > y ? x : y;
                    case LAND -> x != 0 && y != 0 ? 1 : 0;
                    case LOR -> x != 0 || y != 0 ? 1 : 0;
                    case LXOR -> (x != 0) ^ (y != 0) ? 1 : 0;
                    case BAND -> (byte)(x & y);
                    case BOR -> (byte)(x | y);
                    case BXOR -> (byte)(x ^ y);
                    case REPLACE -> y;
                    case NO_OP -> x;
                    case MINLOC, MAXLOC -> throw new AssertionError(op + " takes pair types only");
                };
            }
            case SHORT : {
                final short x = (short)a;
                final short y = (short)b;
                return switch (op) {
                    case SUM -> (short)(x + y);
                    case PROD -> (short)(x * y);
                    case MIN -> x < y ? x : y;
                    case MAX -> x > y ? x : y;
                    case LAND -> x != 0 && y != 0 ? 1 : 0;
                    case LOR -> x != 0 || y != 0 ? 1 : 0;
                    case LXOR -> (x != 0) ^ (y != 0) ? 1 : 0;
                    case BAND -> (short)(x & y);
                    case BOR -> (short)(x | y);
                    case BXOR -> (short)(x ^ y);
                    case REPLACE -> y;
                    case NO_OP -> x;
                    case MINLOC, MAXLOC -> throw new AssertionError(op + " takes pair types only");
                };
            }
            case CHAR : {
                final char x = (char)a;
                final char y = (char)b;
                return switch (op) {
                    case SUM -> (char)(x + y);
                    case PROD -> (char)(x * y);
                    case MIN -> x < y ? x : y;
                    case MAX -> x > y ? x : y;
                    case LAND -> x != 0 && y != 0 ? 1 : 0;
                    case LOR -> x != 0 || y != 0 ? 1 : 0;
                    case LXOR -> (x != 0) ^ (y != 0) ? 1 : 0;
                    case BAND -> (char)(x & y);
                    case BOR -> (char)(x | y);
                    case BXOR -> (char)(x ^ y);
                    case REPLACE -> y;
                    case NO_OP -> x;
                    case MINLOC, MAXLOC -> throw new AssertionError(op + " takes pair types only");
                };
            }
            case INT : {
                final int x = (int)a;
                final int y = (int)b;
                return switch (op) {
                    case SUM -> x + y;
                    case PROD -> x * y;
                    case MIN -> x < y ? x : y;
                    case MAX -> x > y ? x : y;
                    case LAND -> x != 0 && y != 0 ? 1 : 0;
                    case LOR -> x != 0 || y != 0 ? 1 : 0;
                    case LXOR -> (x != 0) ^ (y != 0) ? 1 : 0;
                    case BAND -> x & y;
                    case BOR -> x | y;
                    case BXOR -> x ^ y;
                    case REPLACE -> y;
                    case NO_OP -> x;
                    case MINLOC, MAXLOC -> throw new AssertionError(op + " takes pair types only");
                };
            }
            case LONG : {
                return switch (op) {
                    case SUM -> a + b;
                    case PROD -> a * b;
                    case MIN -> a < b ? a : b;
                    case MAX -> a > b ? a : b;
                    case LAND -> a != 0 && b != 0 ? 1 : 0;
                    case LOR -> a != 0 || b != 0 ? 1 : 0;
                    case LXOR -> (a != 0) ^ (b != 0) ? 1 : 0;
                    case BAND -> a & b;
                    case BOR -> a | b;
                    case BXOR -> a ^ b;
                    case REPLACE -> b;
                    case NO_OP -> a;
                    case MINLOC, MAXLOC -> throw new AssertionError(op + " takes pair types only");
                };
            }
            case FLOAT : {
                final float x = Float.intBitsToFloat((int)a);
                final float y = Float.intBitsToFloat((int)b);
                final float r = switch (op) {
                    case SUM -> x + y;
                    case PROD -> x * y;
                    case MIN -> Math.min(x, y);
                    case MAX -> Math.max(x, y);
                    case REPLACE -> y;
                    case NO_OP -> x;
                    default -> throw new AssertionError(op + " on FLOAT");
                };
                return Float.floatToRawIntBits(r);
            }
            case DOUBLE : {
                final double x = Double.longBitsToDouble(a);
                final double y = Double.longBitsToDouble(b);
                final double r = switch (op) {
                    case SUM -> x + y;
                    case PROD -> x * y;
                    case MIN -> Math.min(x, y);
                    case MAX -> Math.max(x, y);
                    case REPLACE -> y;
                    case NO_OP -> x;
                    default -> throw new AssertionError(op + " on DOUBLE");
                };
                return Double.doubleToRawLongBits(r);
            }
            default :
                throw new AssertionError(type);
        }
    }

    /**
     * Values of each type as raw bits: negatives, zero, extremes, and for floating point the signed
     * zeros, infinities, the smallest subnormal and NaN.
     */
    static long[] values(final Basic type) {
        return switch (type) {
            case BYTE -> new long[] {0, 1, -1, 2, 5, -7, 0x55, Byte.MAX_VALUE, Byte.MIN_VALUE};
            case SHORT -> new long[] {0, 1, -1, 3, 300, -1234, 0x5A5A, Short.MAX_VALUE, Short.MIN_VALUE};
            case CHAR -> new long[] {0, 1, 2, 'A', 0x7FFF, 0x8000, 40_000, 0xFFFE, 0xFFFF};
            case INT -> new long[] {0, 1, -1, 3, 123_456, -98_765, 0x5A5A5A5A, Integer.MAX_VALUE, Integer.MIN_VALUE};
            case LONG -> new long[] {0, 1, -1, 3, 1L << 40, -(1L << 33) + 5, 0x5A5A5A5A5A5A5A5AL, Long.MAX_VALUE,
                Long.MIN_VALUE};
            case FLOAT -> floats(0.0f, -0.0f, 1.0f, -2.25f, 3.0e10f, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE,
                Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN);
            case DOUBLE -> doubles(0.0, -0.0, 1.0, -2.25, 1.0e300, Double.MAX_VALUE, -Double.MAX_VALUE,
                Double.MIN_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN);
        };
    }

    private static long[] floats(final float... values) {
        final long[] bits = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            bits[i] = Float.floatToRawIntBits(values[i]);
        }
        return bits;
    }

    private static long[] doubles(final double... values) {
        final long[] bits = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            bits[i] = Double.doubleToRawLongBits(values[i]);
        }
        return bits;
    }

    /**
     * Offsets to try: every position of a sub-word element inside its int, an 8-aligned offset for
     * the others.
     */
    private static long[] positions(final Basic type) {
        return switch (type) {
            case BYTE -> new long[] {WORD_OFFSET, WORD_OFFSET + 1, WORD_OFFSET + 2, WORD_OFFSET + 3};
            case SHORT, CHAR -> new long[] {WORD_OFFSET, WORD_OFFSET + 2};
            default -> new long[] {WORD_OFFSET};
        };
    }

    /**
     * Applies the op through getAndApply on a scratch element and returns the stored result.
     */
    private long applied(final Op op, final Basic type, final long current, final long operand) {
        store(type, segment, WORD_OFFSET, current);
        AtomicElements.getAndApply(op, type, segment, WORD_OFFSET, operand);
        return load(type, segment, WORD_OFFSET);
    }

    private static void store(final Basic type, final MemorySegment segment, final long offset, final long bits) {
        switch (type) {
            case BYTE -> segment.set(ValueLayout.JAVA_BYTE, offset, (byte)bits);
            case SHORT -> segment.set(ValueLayout.JAVA_SHORT, offset, (short)bits);
            case CHAR -> segment.set(ValueLayout.JAVA_CHAR, offset, (char)bits);
            case INT -> segment.set(ValueLayout.JAVA_INT, offset, (int)bits);
            case FLOAT -> segment.set(ValueLayout.JAVA_FLOAT, offset, Float.intBitsToFloat((int)bits));
            case LONG -> segment.set(ValueLayout.JAVA_LONG, offset, bits);
            case DOUBLE -> segment.set(ValueLayout.JAVA_DOUBLE, offset, Double.longBitsToDouble(bits));
        }
    }

    /**
     * Loads an element as raw bits in the canonical form: sign-extended, char zero-extended, floats
     * by their raw bits.
     */
    private static long load(final Basic type, final MemorySegment segment, final long offset) {
        return switch (type) {
            case BYTE -> segment.get(ValueLayout.JAVA_BYTE, offset);
            case SHORT -> segment.get(ValueLayout.JAVA_SHORT, offset);
            case CHAR -> segment.get(ValueLayout.JAVA_CHAR, offset);
            case INT -> segment.get(ValueLayout.JAVA_INT, offset);
            case FLOAT -> Float.floatToRawIntBits(segment.get(ValueLayout.JAVA_FLOAT, offset));
            case LONG -> segment.get(ValueLayout.JAVA_LONG, offset);
            case DOUBLE -> Double.doubleToRawLongBits(segment.get(ValueLayout.JAVA_DOUBLE, offset));
        };
    }

    /**
     * Integers compare by value; floating point by value with every NaN equal and -0.0 != 0.0.
     */
    private static void assertSameValue(final Basic type, final long expected, final long actual, final String what) {
        switch (type) {
            case FLOAT -> assertEquals(Float.intBitsToFloat((int)expected), Float.intBitsToFloat((int)actual), what);
            case DOUBLE -> assertEquals(Double.longBitsToDouble(expected), Double.longBitsToDouble(actual), what);
            default -> assertEquals(expected, actual, what);
        }
    }

    /**
     * Every byte of the segment outside [offset, offset + length) still holds the sentinel.
     */
    private static void assertUntouchedExcept(final MemorySegment segment, final long offset, final long length,
        final String what) {
        for (long i = Math.max(0, offset - 16); i < Math.min(segment.byteSize(), offset + length + 16); i++) {
            if (i < offset || i >= offset + length) {
                assertEquals(SENTINEL, segment.get(ValueLayout.JAVA_BYTE, i), what + ": byte " + i + " changed");
            }
        }
    }

    private static String show(final Basic type, final long bits) {
        return switch (type) {
            case FLOAT -> Float.toString(Float.intBitsToFloat((int)bits));
            case DOUBLE -> Double.toString(Double.longBitsToDouble(bits));
            default -> Long.toString(bits);
        };
    }

    private static String hex(final byte[] bytes) {
        final StringBuilder s = new StringBuilder();
        for (final byte b : bytes) {
            s.append(String.format("%02x", b));
        }
        return s.toString();
    }

    private static int indexOf(final long[] values, final long value) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == value) {
                return i;
            }
        }
        throw new AssertionError(value);
    }
}
