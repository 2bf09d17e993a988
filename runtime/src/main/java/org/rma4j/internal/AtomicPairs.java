package org.rma4j.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.rma4j.Datatype.Basic;
import org.rma4j.Datatype.Pair;
import org.rma4j.Op;

/**
 * Element-wise MINLOC, MAXLOC, REPLACE and NO_OP on value-index pairs (MPI-3.1 section 5.9.4) in window
 * memory, atomic per pair against every other accumulate of the same pair type on it from any process
 * (section 11.7.1):
 * <ul>
 *   <li>a pair of 8 bytes (MPI_2INT, MPI_FLOAT_INT, MPI_SHORT_INT) at an 8-byte aligned offset: one
 *   compare-and-set loop on the 64-bit word ({@link #getAndApplyWord}), which leaves the padding of a
 *   SHORT_INT pair as it was;</li>
 *   <li>any other pair (16 bytes: MPI_LONG_INT, MPI_DOUBLE_INT; or an 8-byte pair only 4-byte aligned):
 *   plain reads and writes ({@link #getAndApplyLocked}) while the caller holds the pair's stripe of the
 *   window's pair locks, which every process takes for the same pair ({@link WindowLayout}).</li>
 * </ul>
 * Which of the two applies depends on the pair's offset in its file alone, so every process uses the same
 * one for the same pair. Values are raw bits as in {@link AtomicElements} (sign-extended integers,
 * {@code floatToRawIntBits} / {@code doubleToRawLongBits}); the op is applied as MPI's
 * {@code target = op(target, origin)}, with the tie rule of MINLOC and MAXLOC: of equal values, the
 * smaller index.
 */
public final class AtomicPairs {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    /** Offset of the index in an 8-byte pair's word. */
    private static final int WORD_INDEX_OFFSET = 4;

    /** {@link #decide}: the target keeps its pair. */
    static final int KEEP = 0;
    /** {@link #decide}: the origin's pair replaces the target's. */
    static final int TAKE = 1;
    /** {@link #decide}: the target keeps its value and takes the origin's (smaller) index. */
    static final int TAKE_INDEX = 2;

    private AtomicPairs() {
    }

    /**
     * @return whether the pair at {@code address} is updated with one compare-and-set of its word (else it
     *         needs its stripe of the pair locks).
     */
    public static boolean fitsOneWord(final Pair pair, final long address) {
        return pair.extent() == Long.BYTES && (address & (Long.BYTES - 1)) == 0;
    }

    /**
     * @return the raw bits of the value of the pair at {@code offset} (plain read, any alignment).
     */
    public static long readValue(final Pair pair, final MemorySegment segment, final long offset) {
        return AtomicElements.read(pair.valueType(), segment, offset);
    }

    /**
     * @return the index of the pair at {@code offset} (plain read, any alignment).
     */
    public static int readIndex(final Pair pair, final MemorySegment segment, final long offset) {
        return segment.get(ValueLayout.JAVA_INT_UNALIGNED, offset + pair.indexOffset());
    }

    /**
     * Writes a pair's value and index (plain writes, any alignment); its padding is not touched.
     */
    public static void write(final Pair pair, final MemorySegment segment, final long offset, final long valueBits,
        final int index) {
        AtomicElements.write(pair.valueType(), segment, offset, valueBits);
        segment.set(ValueLayout.JAVA_INT_UNALIGNED, offset + pair.indexOffset(), index);
    }

    /**
     * Replaces the 8-byte pair at {@code offset} (8-byte aligned, {@link #fitsOneWord}) by
     * {@code op(pair, origin)} with one compare-and-set, and writes its previous value and index to
     * {@code result} at {@code resultOffset} unless {@code result} is null.
     */
    public static void getAndApplyWord(final Op op, final Pair pair, final MemorySegment target, final long offset,
        final long originBits, final int originIndex, final MemorySegment result, final long resultOffset) {
        final Basic valueType = pair.valueType();
        while (true) {
            final long word = (long)LONG.getVolatile(target, offset);
            final long valueBits = field(word, 0, valueType.bytes(), valueType);
            final int index = (int)field(word, WORD_INDEX_OFFSET, Integer.BYTES, Basic.INT);
            final int decision = decide(op, valueType, valueBits, index, originBits, originIndex);
            // NOTE: a decision to keep the pair takes effect at the volatile read, as a successful
            // compare-and-set would.
            if (decision == KEEP || (boolean)LONG.compareAndSet(target, offset, word,
                withField(withField(word, 0, valueType.bytes(), decision == TAKE ? originBits : valueBits),
                    WORD_INDEX_OFFSET, Integer.BYTES, originIndex))) {
                if (result != null) {
                    write(pair, result, resultOffset, valueBits, index);
                }
                return;
            }
        }
    }

    /**
     * Like {@link #getAndApplyWord} for a pair whose stripe of the pair locks the caller holds: plain reads
     * and writes, ordered by the lock's acquisition and release.
     */
    public static void getAndApplyLocked(final Op op, final Pair pair, final MemorySegment target, final long offset,
        final long originBits, final int originIndex, final MemorySegment result, final long resultOffset) {
        final long valueBits = readValue(pair, target, offset);
        final int index = readIndex(pair, target, offset);
        if (result != null) {
            write(pair, result, resultOffset, valueBits, index);
        }
        switch (decide(op, pair.valueType(), valueBits, index, originBits, originIndex)) {
            case TAKE -> write(pair, target, offset, originBits, originIndex);
            case TAKE_INDEX -> target.set(ValueLayout.JAVA_INT_UNALIGNED, offset + pair.indexOffset(), originIndex);
            default -> {
            }
        }
    }

    /**
     * What {@code op(target, origin)} does to a target pair: {@link #KEEP}, {@link #TAKE} or
     * {@link #TAKE_INDEX}. MINLOC takes the origin's pair if its value is smaller, MAXLOC if it is larger;
     * for equal values (or values that do not compare, NaN) both keep the value and take the smaller index.
     */
    static int decide(final Op op, final Basic valueType, final long targetBits, final int targetIndex,
        final long originBits, final int originIndex) {
        return switch (op) {
            case REPLACE -> TAKE;
            case NO_OP -> KEEP;
            case MINLOC, MAXLOC -> {
                final int order = compare(valueType, originBits, targetBits);
                if (order != 0 && order != UNORDERED) {
                    yield (op == Op.MINLOC) == (order < 0) ? TAKE : KEEP;
                }
                yield originIndex < targetIndex ? TAKE_INDEX : KEEP;
            }
            default -> throw new IllegalArgumentException(op + " is not defined on pair types");
        };
    }

    /** {@link #compare}: the values do not compare (a NaN). */
    private static final int UNORDERED = 2;

    /**
     * @return -1, 0 or 1 as the value {@code a} is below, equal to or above {@code b}; {@link #UNORDERED}
     *         if one is a NaN.
     */
    private static int compare(final Basic valueType, final long a, final long b) {
        return switch (valueType) {
            case FLOAT -> compare(Float.intBitsToFloat((int)a), Float.intBitsToFloat((int)b));
            case DOUBLE -> compare(Double.longBitsToDouble(a), Double.longBitsToDouble(b));
            default -> Long.compare(a, b);
        };
    }

    private static int compare(final double a, final double b) {
        if (a < b) {
            return -1;
        }
        if (a > b) {
            return 1;
        }
        return a == b ? 0 : UNORDERED;
    }

    /**
     * @return the bits of the {@code width}-byte field at byte {@code byteOffset} of {@code word} as it lies in
     *         memory, sign-extended as {@link AtomicElements#read} returns {@code type}'s elements.
     */
    private static long field(final long word, final int byteOffset, final int width, final Basic type) {
        final long bits = (word >>> shift(byteOffset, width)) & mask(width);
        return switch (type) {
            case SHORT -> (short)bits;
            case INT, FLOAT -> (int)bits;
            default -> bits;
        };
    }

    /**
     * @return {@code word} with the {@code width}-byte field at byte {@code byteOffset} replaced by {@code bits}.
     */
    private static long withField(final long word, final int byteOffset, final int width, final long bits) {
        final int shift = shift(byteOffset, width);
        return (word & ~(mask(width) << shift)) | ((bits & mask(width)) << shift);
    }

    private static int shift(final int byteOffset, final int width) {
        return LITTLE_ENDIAN ? byteOffset * Byte.SIZE : (Long.BYTES - byteOffset - width) * Byte.SIZE;
    }

    private static long mask(final int width) {
        return width == Long.BYTES ? -1L : (1L << (width * Byte.SIZE)) - 1;
    }
}
