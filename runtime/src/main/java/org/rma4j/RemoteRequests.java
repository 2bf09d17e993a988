package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.rma4j.internal.mpi.AmLayout;

/**
 * The requests a window's origin sends to a target on another node ({@link HybridTransport}) and the target's
 * {@link TargetAgent} applies, in the frame of {@link AmLayout}: the kinds, and how an element-wise operation's
 * target places and origin data travel.
 *
 * <p>An element-wise request (accumulate, get-accumulate, fetch-and-op) carries, in its header, the target
 * displacement ({@link AmLayout#OFFSET_OFFSET}), {@code op << 16 | element} ({@link AmLayout#ARG0_OFFSET}; the
 * element is a {@link Datatype.Basic} ordinal, or {@link #PAIR} plus a {@link Datatype.Pair} ordinal), the span
 * of target bytes the operation reaches from the displacement ({@link AmLayout#ARG1_OFFSET}; the agent's range
 * check) and the number of runs ({@link AmLayout#ARG2_OFFSET}); its payload is
 *
 * <pre>
 *   0                 16 x runs
 *   +-----------------+----------------------------------------------------------+
 *   | runs: (offset,  | origin elements, packed in run order (none for NO_OP);   |
 *   | elements) longs | a pair takes its type's extent: value at 0, index after  |
 *   +-----------------+----------------------------------------------------------+
 * </pre>
 *
 * where a run's offset is in bytes from the displacement's byte, and a pair run has one element. A reply of a
 * get-accumulate carries the previous elements packed the same way.
 */
final class RemoteRequests {
    /** Element-wise accumulate (replies only in a dynamic window, with the status of its range check). */
    static final int ACCUMULATE = 1;
    /** Element-wise get-accumulate and fetch-and-op: replies with the previous elements. */
    static final int GET_ACCUMULATE = 2;
    /** Compare-and-swap of one basic element: arg0 the element, arg1 compare bits, arg2 new bits. */
    static final int COMPARE_AND_SWAP = 3;
    /** Lock word: arg0 1 for exclusive; replies 0 when held, {@link #EXPOSED} when held but exposed. */
    static final int LOCK = 4;
    /** Release of a lock word: arg0 1 for exclusive; replies once released. */
    static final int UNLOCK = 5;
    /** A PSCW post of the sender ({@link AmLayout#ORIGIN_OFFSET}) to the receiver ({@code TARGET}). */
    static final int POST = 6;
    /** A PSCW complete of the sender to the receiver. */
    static final int COMPLETE = 7;
    /** Replies once every earlier request of the sender is applied. */
    static final int FLUSH = 8;
    /** Put of the payload at the displacement of a dynamic window; replies with the range check's status. */
    static final int PUT = 9;
    /** Get of arg0 bytes at the displacement of a dynamic window; replies with the data. */
    static final int GET = 10;
    /** A notification of the sender for the receiver: arg0 tag, arg1 the displacement, arg2 length and kind. */
    static final int NOTIFY = 11;
    /** One more on the receiver's notification counter arg0, from the sender; no reply. */
    static final int COUNTER = 12;

    /** Reply status of a lock request granted while the target exposes its window in a post epoch. */
    static final int EXPOSED = 1;
    /** Element code of a pair: plus the {@link Datatype.Pair} ordinal. */
    static final int PAIR = 0x100;

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final int RUN_BYTES = 2 * Long.BYTES;

    private RemoteRequests() {
    }

    /** @return the element code of an operation on {@code type}. */
    static int element(final Datatype type) {
        final Datatype.Pair pair = type.pairOrNull();
        return pair != null ? PAIR + pair.ordinal() : type.basic().ordinal();
    }

    /** @return {@code op << 16 | element}. */
    static long opAndElement(final Op op, final int element) {
        return (long)op.ordinal() << 16 | element;
    }

    static Op op(final long opAndElement) {
        return Op.values()[(int)(opAndElement >>> 16)];
    }

    static int element(final long opAndElement) {
        return (int)(opAndElement & 0xFFFF);
    }

    /** @return the pair of an element code, or null for a basic element. */
    static Datatype.Pair pair(final int element) {
        return element >= PAIR ? Datatype.Pair.values()[element - PAIR] : null;
    }

    static Datatype.Basic basic(final int element) {
        return Datatype.Basic.values()[element];
    }

    /** @return the bytes one packed element of {@code element} takes. */
    static int packedBytes(final int element) {
        final Datatype.Pair pair = pair(element);
        return pair != null ? pair.extent() : basic(element).bytes();
    }

    /**
     * The runs of an element-wise operation: target offsets (from the displacement's byte) and, for each, the
     * origin (or result) offsets they pair with, elements per run. Basic: the longest runs both walks allow;
     * pairs: one run per pair, at its value.
     */
    record Runs(long[] targetOffsets, long[] sideOffsets, long[] elements, int count, long packedBytes) {
    }

    /**
     * @param side the origin's (or result's) walk, paired with the target's.
     */
    static Runs runs(final long sideCount, final Datatype sideType, final long targetCount, final Datatype targetType) {
        final Datatype.Pair pair = targetType.pairOrNull();
        final RunList list = new RunList();
        if (pair != null) {
            final TypeCursor targets = new TypeCursor(0, targetCount, targetType);
            final TypeCursor sides = new TypeCursor(0, sideCount, sideType);
            while (targets.hasMore()) {
                list.add(nextPair(targets), nextPair(sides), 1);
            }
            return list.runs(pair.extent());
        }
        TypeCursor.zip(new TypeCursor(0, sideCount, sideType), new TypeCursor(0, targetCount, targetType),
            (sideOffset, targetOffset, elements) -> list.add(targetOffset, sideOffset, elements));
        return list.runs(targetType.basic().bytes());
    }

    /** @return the value offset of the cursor's next pair; moves past its index. */
    private static long nextPair(final TypeCursor cursor) {
        final long offset = cursor.offset();
        cursor.advance(1);
        cursor.advance(1);
        return offset;
    }

    /** @return bytes of the runs' part of a payload. */
    static long runsBytes(final Runs runs) {
        return (long)runs.count() * RUN_BYTES;
    }

    /**
     * Writes the runs' target offsets and elements at {@code payload}'s start, then, if {@code origin} is not
     * null, the origin elements packed after them.
     */
    static void pack(final Runs runs, final int element, final MemorySegment origin, final MemorySegment payload) {
        long at = 0;
        for (int i = 0; i < runs.count(); i++) {
            payload.set(LONG, at, runs.targetOffsets()[i]);
            payload.set(LONG, at + Long.BYTES, runs.elements()[i]);
            at += RUN_BYTES;
        }
        if (origin != null) {
            copyPacked(runs, element, origin, true, payload, at);
        }
    }

    /**
     * Copies elements between the side's places ({@code side}) and a packed area ({@code packed} at
     * {@code packedAt}): into the packed area if {@code toPacked}, out of it otherwise.
     */
    static void copyPacked(final Runs runs, final int element, final MemorySegment side, final boolean toPacked,
        final MemorySegment packed, final long packedAt) {
        final Datatype.Pair pair = pair(element);
        long at = packedAt;
        for (int i = 0; i < runs.count(); i++) {
            final long sideOffset = runs.sideOffsets()[i];
            if (pair != null) {
                copy(side, sideOffset, packed, at, pair.valueType().bytes(), toPacked);
                copy(side, sideOffset + pair.indexOffset(), packed, at + pair.indexOffset(), Integer.BYTES, toPacked);
                at += pair.extent();
            } else {
                final long bytes = runs.elements()[i] * basic(element).bytes();
                copy(side, sideOffset, packed, at, bytes, toPacked);
                at += bytes;
            }
        }
    }

    private static void copy(final MemorySegment side, final long sideOffset, final MemorySegment packed,
        final long packedOffset, final long bytes, final boolean toPacked) {
        if (toPacked) {
            MemorySegment.copy(side, sideOffset, packed, packedOffset, bytes);
        } else {
            MemorySegment.copy(packed, packedOffset, side, sideOffset, bytes);
        }
    }

    /** @return the target offset of run {@code i} of a payload. */
    static long runOffset(final MemorySegment payload, final int i) {
        return payload.get(LONG, (long)i * RUN_BYTES);
    }

    /** @return the elements of run {@code i} of a payload. */
    static long runElements(final MemorySegment payload, final int i) {
        return payload.get(LONG, (long)i * RUN_BYTES + Long.BYTES);
    }

    /** A growing list of runs. */
    private static final class RunList {
        private long[] targets = new long[8];
        private long[] sides = new long[8];
        private long[] elements = new long[8];
        private int count;

        void add(final long target, final long side, final long n) {
            if (count == targets.length) {
                targets = java.util.Arrays.copyOf(targets, count * 2);
                sides = java.util.Arrays.copyOf(sides, count * 2);
                elements = java.util.Arrays.copyOf(elements, count * 2);
            }
            targets[count] = target;
            sides[count] = side;
            elements[count] = n;
            count++;
        }

        Runs runs(final int bytesPerElement) {
            long packed = 0;
            for (int i = 0; i < count; i++) {
                packed += elements[i] * bytesPerElement;
            }
            return new Runs(targets, sides, elements, count, packed);
        }
    }
}
