package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Argument checks shared by the window calls; each throws {@link RmaException} with the MPI error
 * class and the offending values.
 */
final class Checks {
    private Checks() {
    }

    /**
     * Checks that the (count, datatype) pairs of a put or get match: the same type signature (MPI-3.1
     * section 11.3), compared in O(1) for types of one basic type and element by element otherwise.
     *
     * @throws RmaException TYPE for a null type or different signatures, COUNT for a negative count.
     */
    static void checkTypes(final String call, final long originCount, final Datatype originType, final long targetCount,
        final Datatype targetType) {
        final long originElements = checkCounts(call, originCount, originType, targetCount, targetType);
        final long targetElements = targetCount * targetType.elements();
        final boolean match;
        if (originElements != targetElements) {
            match = false;
        } else if (originElements == 0) {
            match = true;
        } else if (originType.isSingleBasic() && targetType.isSingleBasic()) {
            match = originType.basic() == targetType.basic();
        } else {
            match = TypeCursor.sameSignature(new TypeCursor(0, originCount, originType),
                new TypeCursor(0, targetCount, targetType));
        }
        if (!match) {
            throw new RmaException(ErrorClass.TYPE,
                call + " type signatures differ: origin " + originCount + " x " + originType + " = " + originElements
                    + " " + basicsOf(originType) + ", target " + targetCount + " x " + targetType + " = "
                    + targetElements + " " + basicsOf(targetType));
        }
    }

    /**
     * @return the basic type of a type's elements, or the list of its basic types if it has several.
     */
    private static String basicsOf(final Datatype type) {
        return type.isSingleBasic() ? type.basic().name() : type.basics().toString();
    }

    /**
     * Checks that the (count, datatype) pairs of an accumulate match (MPI-3.1 section 11.3.4): each type's
     * elements are of one predefined type, one basic type or whole copies of one pair type, the same on
     * both sides, and the element counts are equal.
     *
     * @throws RmaException TYPE for a null type, a type that mixes basic types (a struct of several),
     *                      different predefined types or element counts; COUNT for a negative count.
     */
    static void checkAccumulateTypes(final String call, final long originCount, final Datatype originType,
        final long targetCount, final Datatype targetType) {
        final long originElements = checkCounts(call, originCount, originType, targetCount, targetType);
        final long targetElements = targetCount * targetType.elements();
        checkAccumulateUnit(call, originType);
        checkAccumulateUnit(call, targetType);
        if (originElements != targetElements
            || originElements > 0 && !originType.unitName().equals(targetType.unitName())) {
            throw new RmaException(ErrorClass.TYPE,
                call + " type signatures differ: origin " + originCount + " x " + originType + " = " + originElements
                    + " " + originType.unitName() + " elements, target " + targetCount + " x " + targetType + " = "
                    + targetElements + " " + targetType.unitName() + " elements");
        }
    }

    /**
     * @throws RmaException TYPE if {@code type} mixes basic types without being made of one pair type.
     */
    static void checkAccumulateUnit(final String call, final Datatype type) {
        if (type != null && type.unitName() == null) {
            throw new RmaException(ErrorClass.TYPE,
                call + " datatype " + type + " mixes the basic types " + type.basics()
                    + "; the accumulate family needs one predefined type: every element of one basic"
                    + " type, or whole copies of one pair type (MPI-3.1 section 11.3.4)");
        }
    }

    /**
     * @return the origin's element count.
     */
    private static long checkCounts(final String call, final long originCount, final Datatype originType,
        final long targetCount, final Datatype targetType) {
        if (originType == null || targetType == null) {
            throw new RmaException(ErrorClass.TYPE,
                call + " datatype is null (origin " + originType + ", target " + targetType + ")");
        }
        if (originCount < 0 || targetCount < 0) {
            throw new RmaException(ErrorClass.COUNT,
                call + " origin_count=" + originCount + " target_count=" + targetCount + ": counts must be >= 0");
        }
        try {
            Math.multiplyExact(targetCount, targetType.elements());
            return Math.multiplyExact(originCount, originType.elements());
        } catch (final ArithmeticException e) {
            throw new RmaException(ErrorClass.COUNT,
                call + " origin_count=" + originCount + " target_count=" + targetCount + " overflow the element count");
        }
    }

    static void checkBuffer(final String call, final String name, final MemorySegment buffer, final long count,
        final Datatype type) {
        final long span = type.span(count);
        if (span > buffer.byteSize()) {
            throw new RmaException(ErrorClass.COUNT, call + " " + name + " buffer of " + buffer.byteSize()
                + " bytes is smaller than " + count + " x " + type + " (" + span + " bytes)");
        }
    }

    /**
     * @throws RmaException OP for a null op or one the type's elements do not accept ({@link Op#accepts});
     *                      TYPE for a type the accumulate family cannot combine (a struct of several basic
     *                      types), which is reported before the op.
     */
    static void checkOp(final String call, final Op op, final Datatype type) {
        if (op == null) {
            throw new RmaException(ErrorClass.OP, call + " op is null");
        }
        checkAccumulateUnit(call, type);
        if (type != null && !op.accepts(type)) {
            throw new RmaException(ErrorClass.OP,
                call + " op " + op.mpiName() + " is not defined for type " + type.unitName()
                    + " (logical and bitwise ops take integer types only; MINLOC and MAXLOC take"
                    + " pair types only, which take only MINLOC, MAXLOC, REPLACE and NO_OP)");
        }
    }

    /**
     * @throws RmaException TYPE unless {@code type} is a predefined type: basic, or a pair type (which
     *                      MPI_FETCH_AND_OP takes, MPI-3.1 section 11.3.4).
     */
    static void checkBasic(final String call, final Datatype type) {
        if (type == null || !type.isBasic() && !type.isPairType()) {
            throw new RmaException(ErrorClass.TYPE, call + " datatype " + type + " must be a predefined basic type");
        }
    }

    static void checkCompareAndSwapType(final Datatype type) {
        if (type == null || !type.isBasic()) {
            throw new RmaException(ErrorClass.TYPE,
                "compareAndSwap datatype " + type + " must be a predefined basic" + " type");
        }
        if (!type.basic().isInteger()) {
            throw new RmaException(ErrorClass.TYPE, "compareAndSwap datatype " + type
                + " is not an integer type (section 11.3.4: C integer, logical or byte types only)");
        }
    }

    static void checkAligned(final String call, final int target, final long address, final Datatype.Basic basic) {
        if (address % basic.bytes() != 0) {
            throw new RmaException(ErrorClass.DISP, call + " target element at address 0x" + Long.toHexString(address)
                + " of rank " + target + " is not aligned to its size " + basic.bytes() + " (" + basic + ")");
        }
    }

    /**
     * @throws RmaException DISP if the pair at {@code address} is not aligned to its pair type's alignment.
     */
    static void checkAligned(final String call, final int target, final long address, final Datatype.Pair pair) {
        if (address % pair.alignment() != 0) {
            throw new RmaException(ErrorClass.DISP,
                call + " target element at address 0x" + Long.toHexString(address) + " of rank " + target
                    + " is not aligned to the alignment " + pair.alignment() + " of its pair type " + pair.mpiName());
        }
    }

    /**
     * MPI-3.1 section 11.3.4: MPI_NO_OP may not be used in MPI_ACCUMULATE and MPI_RACCUMULATE.
     */
    static void checkNotNoOp(final String call, final Op op) {
        if (op == Op.NO_OP) {
            throw new RmaException(ErrorClass.OP, call + " op MPI_NO_OP is valid only in getAccumulate, fetchAndOp"
                + " and rgetAccumulate (section 11.3.4)");
        }
    }

    static void checkAssertions(final String call, final int assertions, final int allowed) {
        if ((assertions & ~allowed) != 0) {
            throw new RmaException(ErrorClass.ASSERT, call + " assert=0x" + Integer.toHexString(assertions)
                + " has bits outside the ones valid for " + call + " (0x" + Integer.toHexString(allowed) + ")");
        }
    }

    /**
     * @throws RmaException COUNT if {@code length} elements from {@code offset} are not all in an array of
     *                      {@code arrayLength}.
     */
    static void checkElements(final int arrayLength, final int offset, final int length) {
        // NOTE: one branch (widened, so the difference does not overflow): the op path keeps one exit to the error.
        if ((offset | length | (long)arrayLength - offset - length) < 0) {
            throw new RmaException(ErrorClass.COUNT, "array offset=" + offset + " length=" + length
                + " do not fit an array of " + arrayLength + " elements");
        }
    }

    /**
     * @return all of {@code array}, a primitive array of a basic type, as a segment.
     */
    static MemorySegment arraySegment(final Object array) {
        return switch (array) {
            case byte[] bytes -> MemorySegment.ofArray(bytes);
            case int[] ints -> MemorySegment.ofArray(ints);
            case long[] longs -> MemorySegment.ofArray(longs);
            case double[] doubles -> MemorySegment.ofArray(doubles);
            default -> throw new IllegalArgumentException("not an array of a basic type: " + array.getClass());
        };
    }

    /**
     * @return the bytes of {@code length} elements of {@code array} from {@code offset} (a primitive array of
     *         {@code layout}'s carrier), as a segment.
     */
    static MemorySegment arraySlice(final Object array, final int offset, final int length, final ValueLayout layout) {
        return arraySegment(array).asSlice(offset * layout.byteSize(), length * layout.byteSize());
    }

    static MemorySegment slice(final MemorySegment array, final int offset, final int length, final int elementBytes) {
        return array.asSlice(elementsAt(array, offset, length, elementBytes), (long)length * elementBytes);
    }

    /**
     * @return the byte offset of element {@code offset} of {@code array} (elements of {@code elementBytes}).
     * @throws RmaException COUNT if {@code length} elements from there are not all in the array.
     */
    static long elementsAt(final MemorySegment array, final int offset, final int length, final int elementBytes) {
        // a Java array's elements fit an int
        checkElements((int)(array.byteSize() / elementBytes), offset, length);
        return (long)offset * elementBytes;
    }
}
