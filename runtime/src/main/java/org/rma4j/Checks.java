package org.rma4j;

import java.lang.foreign.MemorySegment;

/**
 * Argument checks shared by the window calls; each throws {@link RmaException} with the MPI error
 * class and the offending values.
 */
final class Checks {
    private Checks() {
    }

    static void checkTypes(final String call, final long originCount, final Datatype originType, final long targetCount,
        final Datatype targetType) {
        if (originType == null || targetType == null) {
            throw new RmaException(ErrorClass.TYPE,
                call + " datatype is null (origin " + originType + ", target " + targetType + ")");
        }
        if (originCount < 0 || targetCount < 0) {
            throw new RmaException(ErrorClass.COUNT,
                call + " origin_count=" + originCount + " target_count=" + targetCount + ": counts must be >= 0");
        }
        final long originElements;
        final long targetElements;
        try {
            originElements = Math.multiplyExact(originCount, originType.elements());
            targetElements = Math.multiplyExact(targetCount, targetType.elements());
        } catch (final ArithmeticException e) {
            throw new RmaException(ErrorClass.COUNT,
                call + " origin_count=" + originCount + " target_count=" + targetCount + " overflow the element count");
        }
        if (originElements > 0 && targetElements > 0 && originType.basic() != targetType.basic()
            || originElements != targetElements) {
            throw new RmaException(ErrorClass.TYPE,
                call + " type signatures differ: origin " + originCount + " x " + originType + " = " + originElements
                    + " " + originType.basic() + ", target " + targetCount + " x " + targetType + " = " + targetElements
                    + " " + targetType.basic());
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

    static void checkOp(final String call, final Op op, final Datatype type) {
        if (op == null) {
            throw new RmaException(ErrorClass.OP, call + " op is null");
        }
        if (type != null && !op.accepts(type.basic())) {
            throw new RmaException(ErrorClass.OP, call + " op " + op.mpiName() + " is not defined for type "
                + type.basic() + " (logical and bitwise ops take integer types only)");
        }
    }

    static void checkBasic(final String call, final Datatype type) {
        if (type == null || !type.isBasic()) {
            throw new RmaException(ErrorClass.TYPE, call + " datatype " + type + " must be a predefined basic type");
        }
    }

    static void checkCompareAndSwapType(final Datatype type) {
        checkBasic("compareAndSwap", type);
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

    static MemorySegment slice(final MemorySegment array, final int offset, final int length, final int elementBytes) {
        if (offset < 0 || length < 0 || (long)offset + length > array.byteSize() / elementBytes) {
            throw new RmaException(ErrorClass.COUNT, "array offset=" + offset + " length=" + length
                + " do not fit an array of " + array.byteSize() / elementBytes + " elements");
        }
        return array.asSlice((long)offset * elementBytes, (long)length * elementBytes);
    }
}
