package org.rma4j.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.rma4j.Datatype.Basic;
import org.rma4j.Op;

/**
 * Element-wise accumulate, get-accumulate, fetch-and-op and compare-and-swap on window memory,
 * atomic per basic element against every other such call on the same location from any process
 * (MPI-3.1 section 11.7.1), with no lock of the window or the target:
 * <ul>
 *   <li>int and long: the hardware's atomic instructions through var handles for SUM
 *   ({@code getAndAdd}), BAND / BOR / BXOR ({@code getAndBitwise*}), REPLACE ({@code getAndSet}) and
 *   NO_OP (a volatile read); a compare-and-set loop for the other ops;</li>
 *   <li>float and double: a compare-and-set loop on the bit pattern;</li>
 *   <li>byte, short and char: a compare-and-set loop on the aligned enclosing int, changing only the
 *   element's bits, so neighbouring elements updated concurrently are never lost or torn.</li>
 * </ul>
 * Every update is a volatile read-modify-write, so updates of one location are totally ordered and
 * each is seen with the origin's preceding stores. Elements must be naturally aligned (the caller
 * checks). Values are passed as raw bits in a long: sign-extended for byte, short and int,
 * zero-extended for char, {@code floatToRawIntBits} / {@code doubleToRawLongBits} for floats.
 */
public final class AtomicElements {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private AtomicElements() {
    }

    /**
     * Reads the element at {@code offset} as raw bits (plain read; any alignment, for origin and result
     * buffers).
     */
    public static long read(final Basic type, final MemorySegment segment, final long offset) {
        return switch (type) {
            case BYTE -> segment.get(ValueLayout.JAVA_BYTE, offset);
            case SHORT -> segment.get(ValueLayout.JAVA_SHORT_UNALIGNED, offset);
            case CHAR -> segment.get(ValueLayout.JAVA_CHAR_UNALIGNED, offset);
            case INT, FLOAT -> segment.get(ValueLayout.JAVA_INT_UNALIGNED, offset);
            case LONG, DOUBLE -> segment.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
        };
    }

    /**
     * Writes raw bits to the element at {@code offset} (plain write; any alignment).
     */
    public static void write(final Basic type, final MemorySegment segment, final long offset, final long bits) {
        switch (type) {
            case BYTE -> segment.set(ValueLayout.JAVA_BYTE, offset, (byte)bits);
            case SHORT -> segment.set(ValueLayout.JAVA_SHORT_UNALIGNED, offset, (short)bits);
            case CHAR -> segment.set(ValueLayout.JAVA_CHAR_UNALIGNED, offset, (char)bits);
            case INT, FLOAT -> segment.set(ValueLayout.JAVA_INT_UNALIGNED, offset, (int)bits);
            case LONG, DOUBLE -> segment.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, bits);
        }
    }

    /**
     * Atomically replaces the target element {@code t} with {@code op(t, operand)}.
     *
     * @return the element's previous bits.
     */
    public static long getAndApply(final Op op, final Basic type, final MemorySegment target, final long offset,
        final long operand) {
        switch (type) {
            case INT -> {
                switch (op) {
                    case SUM :
                        return (int)INT.getAndAdd(target, offset, (int)operand);
                    case BAND :
                        return (int)INT.getAndBitwiseAnd(target, offset, (int)operand);
                    case BOR :
                        return (int)INT.getAndBitwiseOr(target, offset, (int)operand);
                    case BXOR :
                        return (int)INT.getAndBitwiseXor(target, offset, (int)operand);
                    case REPLACE :
                        return (int)INT.getAndSet(target, offset, (int)operand);
                    case NO_OP :
                        return (int)INT.getVolatile(target, offset);
                    default :
                        return casInt(op, type, target, offset, operand);
                }
            }
            case LONG -> {
                switch (op) {
                    case SUM :
                        return (long)LONG.getAndAdd(target, offset, operand);
                    case BAND :
                        return (long)LONG.getAndBitwiseAnd(target, offset, operand);
                    case BOR :
                        return (long)LONG.getAndBitwiseOr(target, offset, operand);
                    case BXOR :
                        return (long)LONG.getAndBitwiseXor(target, offset, operand);
                    case REPLACE :
                        return (long)LONG.getAndSet(target, offset, operand);
                    case NO_OP :
                        return (long)LONG.getVolatile(target, offset);
                    default :
                        return casLong(op, type, target, offset, operand);
                }
            }
            case DOUBLE -> {
                return casLong(op, type, target, offset, operand);
            }
            case FLOAT -> {
                return casInt(op, type, target, offset, operand);
            }
            default -> {
                return casSubword(op, type, target, offset, operand);
            }
        }
    }

    /**
     * Atomically replaces the target element with {@code value} if it equals {@code compare}.
     *
     * @return the element's previous bits.
     */
    public static long compareAndSwap(final Basic type, final MemorySegment target, final long offset,
        final long compare, final long value) {
        switch (type) {
            case INT, FLOAT -> {
                return (int)INT.compareAndExchange(target, offset, (int)compare, (int)value);
            }
            case LONG, DOUBLE -> {
                return (long)LONG.compareAndExchange(target, offset, compare, value);
            }
            default -> {
                final long word = offset & ~3L;
                final int shift = shift(type, offset);
                final int mask = mask(type) << shift;
                while (true) {
                    final int current = (int)INT.getVolatile(target, word);
                    final long old = extract(type, current, shift);
                    if (old != normalize(type, compare)) {
                        return old;
                    }
                    final int updated = (current & ~mask) | (((int)value << shift) & mask);
                    if ((boolean)INT.compareAndSet(target, word, current, updated)) {
                        return old;
                    }
                }
            }
        }
    }

    /**
     * Accumulates {@code elements} origin elements into the target, element by element.
     */
    public static void accumulate(final Op op, final Basic type, final MemorySegment origin, final long originOffset,
        final MemorySegment target, final long targetOffset, final long elements) {
        final int bytes = type.bytes();
        for (long i = 0; i < elements; i++) {
            final long operand = op == Op.NO_OP ? 0 : read(type, origin, originOffset + i * bytes);
            getAndApply(op, type, target, targetOffset + i * bytes, operand);
        }
    }

    /**
     * Accumulates like {@link #accumulate} and stores each target element's previous value in
     * {@code result}; with NO_OP the origin is not read (it may be null).
     */
    public static void getAccumulate(final Op op, final Basic type, final MemorySegment origin, final long originOffset,
        final MemorySegment result, final long resultOffset, final MemorySegment target, final long targetOffset,
        final long elements) {
        final int bytes = type.bytes();
        for (long i = 0; i < elements; i++) {
            final long operand = op == Op.NO_OP ? 0 : read(type, origin, originOffset + i * bytes);
            write(type, result, resultOffset + i * bytes,
                getAndApply(op, type, target, targetOffset + i * bytes, operand));
        }
    }

    /**
     * The op on two values of {@code type} given as raw bits; the result as raw bits.
     */
    public static long apply(final Op op, final Basic type, final long current, final long operand) {
        return switch (type) {
            case FLOAT -> Float.floatToRawIntBits(
                (float)applyDouble(op, Float.intBitsToFloat((int)current), Float.intBitsToFloat((int)operand)));
            case DOUBLE -> Double.doubleToRawLongBits(
                applyDouble(op, Double.longBitsToDouble(current), Double.longBitsToDouble(operand)));
            default -> normalize(type, applyLong(op, current, operand));
        };
    }

    private static long applyLong(final Op op, final long a, final long b) {
        return switch (op) {
            case SUM -> a + b;
            case PROD -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
            case LAND -> (a != 0 && b != 0) ? 1 : 0;
            case LOR -> (a != 0 || b != 0) ? 1 : 0;
            case LXOR -> ((a != 0) != (b != 0)) ? 1 : 0;
            case BAND -> a & b;
            case BOR -> a | b;
            case BXOR -> a ^ b;
            case REPLACE -> b;
            case NO_OP -> a;
            case MINLOC, MAXLOC ->
                throw new IllegalArgumentException(op + " is defined on pair types only (AtomicPairs)");
        };
    }

    private static double applyDouble(final Op op, final double a, final double b) {
        return switch (op) {
            case SUM -> a + b;
            case PROD -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
            case REPLACE -> b;
            case NO_OP -> a;
            default -> throw new IllegalArgumentException(op + " is not defined on floating-point types");
        };
    }

    // NOTE: when the op leaves the element unchanged the loop returns without writing: the operation
    // takes effect at the volatile read, which is as atomic as a successful compare-and-set.
    private static long casInt(final Op op, final Basic type, final MemorySegment target, final long offset,
        final long operand) {
        while (true) {
            final int current = (int)INT.getVolatile(target, offset);
            final int updated = (int)apply(op, type, current, operand);
            if (updated == current || (boolean)INT.compareAndSet(target, offset, current, updated)) {
                return current;
            }
        }
    }

    private static long casLong(final Op op, final Basic type, final MemorySegment target, final long offset,
        final long operand) {
        while (true) {
            final long current = (long)LONG.getVolatile(target, offset);
            final long updated = apply(op, type, current, operand);
            if (updated == current || (boolean)LONG.compareAndSet(target, offset, current, updated)) {
                return current;
            }
        }
    }

    private static long casSubword(final Op op, final Basic type, final MemorySegment target, final long offset,
        final long operand) {
        final long word = offset & ~3L;
        final int shift = shift(type, offset);
        final int mask = mask(type) << shift;
        while (true) {
            final int current = (int)INT.getVolatile(target, word);
            final long old = extract(type, current, shift);
            if (op == Op.NO_OP) {
                return old;
            }
            final long updatedElement = apply(op, type, old, normalize(type, operand));
            final int updated = (current & ~mask) | (((int)updatedElement << shift) & mask);
            if ((boolean)INT.compareAndSet(target, word, current, updated)) {
                return old;
            }
        }
    }

    /**
     * Bit position of a sub-word element inside its aligned enclosing int.
     */
    private static int shift(final Basic type, final long offset) {
        final int byteInWord = (int)(offset & 3);
        return LITTLE_ENDIAN ? byteInWord * 8 : (4 - type.bytes() - byteInWord) * 8;
    }

    private static int mask(final Basic type) {
        return type.bytes() == 1 ? 0xFF : 0xFFFF;
    }

    private static long extract(final Basic type, final int word, final int shift) {
        return normalize(type, word >>> shift);
    }

    /**
     * Brings raw bits to the canonical form of the type: sign-extended or, for char, zero-extended.
     */
    private static long normalize(final Basic type, final long bits) {
        return switch (type) {
            case BYTE -> (byte)bits;
            case SHORT -> (short)bits;
            case CHAR -> (char)bits;
            case INT, FLOAT -> (int)bits;
            default -> bits;
        };
    }
}
