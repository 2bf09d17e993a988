package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The communication calls of a {@link Window} (MPI-3.1 section 11.3): put, get, the accumulate family,
 * fetch-and-op and compare-and-swap, and their request-based variants (11.3.5). They are valid inside an access
 * epoch to their target (section 11.5; {@link WindowSynchronization}); {@link Rma#PROC_NULL} as target makes any
 * of them a no-op.
 *
 * <p>Completion: to a target on the caller's node every call is complete at origin and target when it returns;
 * across nodes see {@link WindowSynchronization}, "Completion". Each call passes its error to the window's error handler
 * ({@link WindowAttributes#setErrhandler}) before it throws.
 *
 * <p>Implemented by {@link Window} only; this interface holds the contract of these calls, grouped as the standard
 * groups them.
 */
public sealed interface WindowCommunication permits Window {
    // ---------------------------------------------------------------- communication (section 11.3)

    /**
     * Copies {@code origin} into target's window at {@code targetDisp * dispUnit(target)}
     * (MPI_PUT of contiguous bytes). Complete at origin and target on return. MPI-3.1 §11.3.1.
     *
     * @throws RmaException WIN, RANK, RMA_SYNC, DISP or RMA_RANGE on misuse.
     */
    void put(MemorySegment origin, int target, long targetDisp);

    /**
     * Copies from target's window at {@code targetDisp * dispUnit(target)} into {@code destination}
     * (MPI_GET of contiguous bytes). Complete on return. MPI-3.1 §11.3.2.
     *
     * @throws RmaException WIN, RANK, RMA_SYNC, DISP or RMA_RANGE on misuse.
     */
    void get(MemorySegment destination, int target, long targetDisp);

    /**
     * MPI_PUT with datatypes: {@code originCount} instances of {@code originType} read from
     * {@code origin} are stored as {@code targetCount} instances of {@code targetType} at target's
     * {@code targetDisp * dispUnit}. The two must match in basic type and element count. Complete at
     * origin and target on return. MPI-3.1 §11.3.1.
     *
     * @throws RmaException TYPE for a null type or a signature mismatch, COUNT for a negative count or
     *                      an origin buffer too small, and WIN, RANK, RMA_SYNC, DISP, RMA_RANGE as
     *                      {@link #put(MemorySegment, int, long)}.
     */
    void put(MemorySegment origin, long originCount, Datatype originType, int target, long targetDisp, long targetCount,
        Datatype targetType);

    /**
     * MPI_GET with datatypes: {@code targetCount} instances of {@code targetType} at target's
     * {@code targetDisp * dispUnit} are read into {@code destination} as {@code originCount} instances
     * of {@code originType}. Complete on return. MPI-3.1 §11.3.2.
     *
     * @throws RmaException as {@link #put(MemorySegment, long, Datatype, int, long, long, Datatype)}.
     */
    void get(MemorySegment destination, long originCount, Datatype originType, int target, long targetDisp,
        long targetCount, Datatype targetType);

    /** Puts {@code length} bytes of {@code origin} from {@code offset}; see {@link #put(MemorySegment, int, long)}. */
    default void put(final byte[] origin, final int offset, final int length, final int target, final long targetDisp) {
        accessPart().putArray(origin, origin.length, offset, length, ValueLayout.JAVA_BYTE, target, targetDisp);
    }

    /** Puts {@code length} ints of {@code origin} from {@code offset}; see {@link #put(MemorySegment, int, long)}. */
    default void put(final int[] origin, final int offset, final int length, final int target, final long targetDisp) {
        accessPart().putArray(origin, origin.length, offset, length, ValueLayout.JAVA_INT_UNALIGNED, target,
            targetDisp);
    }

    /** Puts {@code length} longs of {@code origin} from {@code offset}; see {@link #put(MemorySegment, int, long)}. */
    default void put(final long[] origin, final int offset, final int length, final int target, final long targetDisp) {
        accessPart().putArray(origin, origin.length, offset, length, ValueLayout.JAVA_LONG_UNALIGNED, target,
            targetDisp);
    }

    /** Puts {@code length} doubles of {@code origin} from {@code offset}; see {@link #put(MemorySegment, int, long)}. */
    default void put(final double[] origin, final int offset, final int length, final int target,
        final long targetDisp) {
        accessPart().putArray(origin, origin.length, offset, length, ValueLayout.JAVA_DOUBLE_UNALIGNED, target,
            targetDisp);
    }

    /** Gets {@code length} bytes into {@code destination} from {@code offset}; see {@link #get(MemorySegment, int, long)}. */
    default void get(final byte[] destination, final int offset, final int length, final int target,
        final long targetDisp) {
        accessPart().getArray(destination, destination.length, offset, length, ValueLayout.JAVA_BYTE, target,
            targetDisp);
    }

    /** Gets {@code length} ints into {@code destination} from {@code offset}; see {@link #get(MemorySegment, int, long)}. */
    default void get(final int[] destination, final int offset, final int length, final int target,
        final long targetDisp) {
        accessPart().getArray(destination, destination.length, offset, length, ValueLayout.JAVA_INT_UNALIGNED, target,
            targetDisp);
    }

    /** Gets {@code length} longs into {@code destination} from {@code offset}; see {@link #get(MemorySegment, int, long)}. */
    default void get(final long[] destination, final int offset, final int length, final int target,
        final long targetDisp) {
        accessPart().getArray(destination, destination.length, offset, length, ValueLayout.JAVA_LONG_UNALIGNED, target,
            targetDisp);
    }

    /** Gets {@code length} doubles into {@code destination} from {@code offset}; see {@link #get(MemorySegment, int, long)}. */
    default void get(final double[] destination, final int offset, final int length, final int target,
        final long targetDisp) {
        accessPart().getArray(destination, destination.length, offset, length, ValueLayout.JAVA_DOUBLE_UNALIGNED,
            target, targetDisp);
    }

    // ---------------------------------------------------------------- accumulate family (section 11.3.4)

    /**
     * MPI_ACCUMULATE: combines {@code originCount} x {@code originType} from {@code origin} into the
     * target's {@code targetCount} x {@code targetType} at {@code targetDisp} with {@code op},
     * element by element. Each basic element is updated atomically against every other accumulate on
     * it from any rank (section 11.7.1), with no lock of the window; REPLACE makes it an atomic put.
     * Complete at origin and target on return, so accumulates from one origin to one location are
     * ordered as issued under every {@code accumulate_ordering}. MPI-3.1 §11.3.4.
     *
     * @throws RmaException OP for an op the target's type does not accept, DISP for a target element
     *                      not aligned to its size, and the errors of typed {@link #put(MemorySegment,
     *                      long, Datatype, int, long, long, Datatype) put}.
     */
    void accumulate(MemorySegment origin, long originCount, Datatype originType, int target, long targetDisp,
        long targetCount, Datatype targetType, Op op);

    /**
     * MPI_GET_ACCUMULATE: like {@link #accumulate} and returns each target element's value before the
     * update in {@code result} ({@code resultCount} x {@code resultType}, matching the target). The
     * read and the update are one atomic step per element. With {@link Op#NO_OP} the origin is ignored
     * (it may be null with count 0): an atomic read. MPI-3.1 §11.3.4.
     *
     * @throws RmaException as {@link #accumulate}; TYPE if result and target do not match.
     */
    void getAccumulate(MemorySegment origin, long originCount, Datatype originType, MemorySegment result,
        long resultCount, Datatype resultType, int target, long targetDisp, long targetCount, Datatype targetType,
        Op op);

    /**
     * MPI_FETCH_AND_OP: one element of basic {@code type}: {@code result} receives the target's value,
     * which is atomically replaced by {@code op(value, origin)}. With NO_OP the origin is ignored. MPI-3.1 §11.3.4.
     *
     * @throws RmaException TYPE if type is not basic, OP for an op the type does not accept, DISP if
     *                      the target element is not aligned, and the errors of {@link #put}.
     */
    void fetchAndOp(MemorySegment origin, MemorySegment result, Datatype type, int target, long targetDisp, Op op);

    /**
     * {@link #fetchAndOp(MemorySegment, MemorySegment, Datatype, int, long, Op)} on a long:
     * returns the target's previous value. MPI-3.1 §11.3.4.
     */
    default long fetchAndOp(final long operand, final int target, final long targetDisp, final Op op) {
        return accessPart().fetchAndOpBits("fetchAndOp", Datatype.LONG, operand, target, targetDisp, op);
    }

    /**
     * {@link #fetchAndOp(MemorySegment, MemorySegment, Datatype, int, long, Op)} on an int:
     * returns the target's previous value. MPI-3.1 §11.3.4.
     */
    default int fetchAndOp(final int operand, final int target, final long targetDisp, final Op op) {
        return (int)accessPart().fetchAndOpBits("fetchAndOp", Datatype.INT, operand, target, targetDisp, op);
    }

    /**
     * {@link #fetchAndOp(MemorySegment, MemorySegment, Datatype, int, long, Op)} on a double:
     * returns the target's previous value. MPI-3.1 §11.3.4.
     */
    default double fetchAndOp(final double operand, final int target, final long targetDisp, final Op op) {
        return Double.longBitsToDouble(accessPart().fetchAndOpBits("fetchAndOp", Datatype.DOUBLE,
            Double.doubleToRawLongBits(operand), target, targetDisp, op));
    }

    /**
     * MPI_COMPARE_AND_SWAP: one element of basic integer {@code type}: if the target's value equals
     * {@code compare}, it is replaced by {@code origin}; {@code result} receives the value before, in
     * one atomic step. MPI-3.1 §11.3.4.
     *
     * @throws RmaException TYPE if type is not a basic integer type, DISP if the target is not aligned,
     *                      and the errors of {@link #put}.
     */
    void compareAndSwap(MemorySegment origin, MemorySegment compare, MemorySegment result, Datatype type, int target,
        long targetDisp);

    /**
     * {@link #compareAndSwap(MemorySegment, MemorySegment, MemorySegment, Datatype, int, long)} on a long: returns the
     * target's previous value (equal to compare when the swap happened). MPI-3.1 §11.3.4.
     */
    default long compareAndSwap(final long compare, final long value, final int target, final long targetDisp) {
        return accessPart().compareAndSwapBits(Datatype.LONG, compare, value, target, targetDisp);
    }

    /**
     * {@link #compareAndSwap(MemorySegment, MemorySegment, MemorySegment, Datatype, int, long)} on an int: returns the
     * target's previous value (equal to compare when the swap happened). MPI-3.1 §11.3.4.
     */
    default int compareAndSwap(final int compare, final int value, final int target, final long targetDisp) {
        return (int)accessPart().compareAndSwapBits(Datatype.INT, compare, value, target, targetDisp);
    }

    // ---------------------------------------------------------------- request-based operations (section 11.3.5)

    /**
     * MPI_RPUT: {@link #put(MemorySegment, long, Datatype, int, long, long, Datatype)} returning a
     * request. Valid in passive-target epochs only. The operation is complete when the call returns,
     * so the request is complete at once. MPI-3.1 §11.3.5.
     *
     * @throws RmaException RMA_SYNC outside a passive-target epoch to target.
     */
    RmaRequest rput(MemorySegment origin, long originCount, Datatype originType, int target, long targetDisp,
        long targetCount, Datatype targetType);

    /**
     * MPI_RGET: {@link #get(MemorySegment, long, Datatype, int, long, long, Datatype)} returning a
     * request; passive-target epochs only. MPI-3.1 §11.3.5.
     */
    RmaRequest rget(MemorySegment destination, long originCount, Datatype originType, int target, long targetDisp,
        long targetCount, Datatype targetType);

    /**
     * MPI_RACCUMULATE: {@link #accumulate} returning a request; passive-target epochs only. MPI-3.1 §11.3.5.
     */
    RmaRequest raccumulate(MemorySegment origin, long originCount, Datatype originType, int target, long targetDisp,
        long targetCount, Datatype targetType, Op op);

    /**
     * MPI_RGET_ACCUMULATE: {@link #getAccumulate} returning a request; passive-target epochs only. MPI-3.1 §11.3.5.
     */
    RmaRequest rgetAccumulate(MemorySegment origin, long originCount, Datatype originType, MemorySegment result,
        long resultCount, Datatype resultType, int target, long targetDisp, long targetCount, Datatype targetType,
        Op op);

    /** @return the part of the window that implements these calls. */
    private TargetAccess accessPart() {
        return ((Window)this).access();
    }
}
