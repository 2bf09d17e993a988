package org.rma4j;

import java.lang.foreign.MemorySegment;
import org.rma4j.internal.AtomicPairs;

/**
 * The accumulate family on pair-typed elements (MPI_MINLOC and MPI_MAXLOC, and REPLACE and NO_OP, on
 * MPI_LONG_INT, MPI_2INT, MPI_DOUBLE_INT, MPI_FLOAT_INT, MPI_SHORT_INT and types built from one of them;
 * MPI-3.1 sections 5.9.4 and 11.3.4): pair by pair, each pair atomic against every other accumulate of the
 * same pair type on it ({@link AtomicPairs}: one compare-and-set for an aligned 8-byte pair, else the
 * pair's stripe of the window's {@link PairLocks}).
 *
 * <p>A pair is the value element and the index element that follows it in the type map; walks over
 * origin, result and target are paired pair by pair (their types have the same pair type, checked by the
 * caller).
 */
final class PairAccumulates {
    private PairAccumulates() {
    }

    /**
     * Applies {@code op} to every target pair, writing each previous pair to the result if there is one.
     *
     * @param origin      the origin buffer, or null for NO_OP.
     * @param result      the result buffer, or null for accumulate.
     * @param place       the target memory: its whole mapping, and where the target's data starts in it.
     * @throws RmaException DISP, before any pair changes, if a target pair is not aligned to its pair type's
     *                      alignment.
     */
    static void apply(final String call, final PairLocks locks, final Op op, final Datatype.Pair pair, final int target,
        final MemorySegment origin, final long originCount, final Datatype originType, final MemorySegment result,
        final long resultCount, final Datatype resultType, final TargetMemory.Place place, final long targetCount,
        final Datatype targetType) {
        final MemorySegment mapping = place.mapping();
        final long base = mapping.address();
        for (final TypeCursor check = new TypeCursor(place.offset(), targetCount, targetType); check.hasMore();) {
            final long offset = next(check);
            Checks.checkAligned(call, target, base + offset, pair);
        }
        final TypeCursor targets = new TypeCursor(place.offset(), targetCount, targetType);
        final TypeCursor origins = origin == null ? null : new TypeCursor(0, originCount, originType);
        final TypeCursor results = result == null ? null : new TypeCursor(0, resultCount, resultType);
        while (targets.hasMore()) {
            final long targetOffset = next(targets);
            long valueBits = 0;
            int index = 0;
            if (origins != null) {
                final long originOffset = next(origins);
                valueBits = AtomicPairs.readValue(pair, origin, originOffset);
                index = AtomicPairs.readIndex(pair, origin, originOffset);
            }
            final long resultOffset = results == null ? 0 : next(results);
            if (AtomicPairs.fitsOneWord(pair, base + targetOffset)) {
                AtomicPairs.getAndApplyWord(op, pair, mapping, targetOffset, valueBits, index, result, resultOffset);
            } else {
                // The offset in the mapping is the offset in the file: the same stripe in every process.
                final long stripe = locks.lock(call, targetOffset);
                try {
                    AtomicPairs.getAndApplyLocked(op, pair, mapping, targetOffset, valueBits, index, result,
                        resultOffset);
                } finally {
                    locks.unlock(stripe);
                }
            }
        }
    }

    /**
     * @return the offset of the next pair's value; moves past its index.
     */
    private static long next(final TypeCursor cursor) {
        final long offset = cursor.offset();
        cursor.advance(1);
        cursor.advance(1);
        return offset;
    }
}
