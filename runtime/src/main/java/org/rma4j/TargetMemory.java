package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Where the memory of each target of a window is in this process, and the range check of an access
 * to it (MPI-3.1 section 11.3.1: {@code target_addr = window_base + target_disp x disp_unit}).
 *
 * <p>Static flavors (shared, allocate, create) know each target's segment at creation; a dynamic
 * window resolves the displacement among the regions the target has attached.
 */
abstract class TargetMemory {
    /**
     * @return the {@code lengthBytes} bytes of target at {@code targetDisp}, as a segment of this
     *         process's mapping.
     * @throws RmaException RMA_RANGE if they are not all inside the target's window memory.
     */
    abstract MemorySegment resolve(String call, int target, long targetDisp, long lengthBytes);

    /**
     * Copies all of {@code origin} to target's bytes at {@code targetDisp} (a contiguous put).
     *
     * @throws RmaException RMA_RANGE as {@link #resolve}.
     */
    void put(final String call, final MemorySegment origin, final int target, final long targetDisp) {
        final long length = origin.byteSize();
        MemorySegment.copy(origin, 0, resolve(call, target, targetDisp, length), 0, length);
    }

    /**
     * Copies target's bytes at {@code targetDisp} to all of {@code destination} (a contiguous get).
     *
     * @throws RmaException RMA_RANGE as {@link #resolve}.
     */
    void get(final String call, final MemorySegment destination, final int target, final long targetDisp) {
        final long length = destination.byteSize();
        MemorySegment.copy(resolve(call, target, targetDisp, length), 0, destination, 0, length);
    }

    /**
     * Like {@link #resolve} for atomic operations: the returned place is in the whole mapping that
     * holds the target memory, so that an element smaller than an int can be updated through a
     * compare-and-set of its aligned enclosing int even at the edge of the window.
     *
     * @throws RmaException RMA_RANGE if the bytes are not all inside the target's window memory.
     */
    abstract Place resolveInMapping(String call, int target, long targetDisp, long lengthBytes);

    /**
     * A byte offset in a segment of this process; the segment's address is 8-byte aligned.
     */
    record Place(MemorySegment mapping, long offset) {
        long address() {
            return mapping.address() + offset;
        }
    }

    /**
     * Unmaps what this object mapped itself. Idempotent.
     */
    abstract void close();

    /**
     * The memory of every target is one segment known at creation.
     */
    static final class Fixed extends TargetMemory {
        /** Each target's memory in this process, one object per target (one array lookup on the op path). */
        private final Part[] targets;
        private final AutoCloseable resources;

        /**
         * @param mappings  the whole mapping holding each target's memory (page-aligned).
         * @param starts    where each target's memory starts in its mapping.
         * @param sizes     each target's size.
         * @param dispUnits each target's displacement unit.
         * @param resources what to close with the window (mappings this object owns), or null.
         */
        Fixed(final MemorySegment[] mappings, final long[] starts, final long[] sizes, final int[] dispUnits,
            final AutoCloseable resources) {
            this.targets = new Part[mappings.length];
            for (int r = 0; r < targets.length; r++) {
                final MemorySegment segment = mappings[r].equals(MemorySegment.NULL)
                    ? MemorySegment.NULL
                    : mappings[r].asSlice(starts[r], sizes[r]);
                targets[r] = new Part(segment, segment.byteSize(), dispUnits[r], mappings[r], starts[r]);
            }
            this.resources = resources;
        }

        /**
         * @return each target's memory, by rank (not a copy): the op path of {@link TargetAccess} reads it without
         *         this object's dispatch.
         */
        Part[] parts() {
            return targets;
        }

        @Override
        MemorySegment resolve(final String call, final int target, final long targetDisp, final long lengthBytes) {
            final Part part = targets[target];
            return part.segment.asSlice(part.checkRange(call, target, targetDisp, lengthBytes), lengthBytes);
        }

        @Override
        void put(final String call, final MemorySegment origin, final int target, final long targetDisp) {
            targets[target].put(call, target, origin, targetDisp);
        }

        @Override
        void get(final String call, final MemorySegment destination, final int target, final long targetDisp) {
            targets[target].get(call, target, destination, targetDisp);
        }

        @Override
        Place resolveInMapping(final String call, final int target, final long targetDisp, final long lengthBytes) {
            final Part part = targets[target];
            return new Place(part.mapping, part.start + part.checkRange(call, target, targetDisp, lengthBytes));
        }

        MemorySegment part(final int target) {
            return targets[target].segment;
        }

        /** @return the whole mapping that holds {@code target}'s memory ({@code NULL} for none here). */
        MemorySegment mapping(final int target) {
            return targets[target].mapping;
        }

        @Override
        void close() {
            if (resources != null) {
                try {
                    resources.close();
                } catch (final Exception e) {
                    throw new IllegalStateException("cannot release window memory", e);
                }
            }
        }
    }

    /**
     * One target's memory of a {@link Fixed} window: its segment ({@code NULL} where it is not mapped here), that
     * segment's size (read without the segment's type check), its displacement unit, and where it starts in its
     * whole mapping; and the contiguous copies to and from it, without a slice of either side.
     */
    static final class Part {
        /**
         * Below this many bytes a get into an array goes through a segment of the array, which the JDK copies with
         * plain loads and stores (its own threshold: {@code jdk.internal.foreign.SegmentBulkOperations}); from here
         * up, through the JDK's array copy, its native copy without a segment of the array: a heap segment as the
         * destination of the native copy is not scalar-replaced (32 bytes allocated per call). As the source of a
         * put it is, so a put always goes through a segment.
         */
        private static final long SMALL_COPY = 64;
        /** The largest displacement whose product with any displacement unit (a positive int) fits a long. */
        private static final long FAST_DISP_LIMIT = 0xFFFF_FFFFL;

        private final MemorySegment segment;
        private final long size;
        private final int dispUnit;
        private final MemorySegment mapping;
        private final long start;

        Part(final MemorySegment segment, final long size, final int dispUnit, final MemorySegment mapping,
            final long start) {
            this.segment = segment;
            this.size = size;
            this.dispUnit = dispUnit;
            this.mapping = mapping;
            this.start = start;
        }

        /**
         * Copies all of {@code origin} to the bytes at {@code targetDisp} (a contiguous put to rank {@code target}).
         *
         * @throws RmaException RMA_RANGE as {@link #checkRange}.
         */
        void put(final String call, final int target, final MemorySegment origin, final long targetDisp) {
            final long length = origin.byteSize();
            MemorySegment.copy(origin, 0, segment, checkRange(call, target, targetDisp, length), length);
        }

        /**
         * Copies the bytes at {@code targetDisp} to all of {@code destination} (a contiguous get).
         *
         * @throws RmaException RMA_RANGE as {@link #checkRange}.
         */
        void get(final String call, final int target, final MemorySegment destination, final long targetDisp) {
            final long length = destination.byteSize();
            MemorySegment.copy(segment, checkRange(call, target, targetDisp, length), destination, 0, length);
        }

        /**
         * Copies {@code count} elements of {@code array} from {@code index}, each a {@code layout}, to the bytes at
         * {@code targetDisp}, through a segment of the array (see {@link #SMALL_COPY}).
         *
         * @throws RmaException RMA_RANGE as {@link #checkRange}.
         */
        void putArray(final String call, final int target, final Object array, final int index, final int count,
            final ValueLayout layout, final long targetDisp) {
            final long bytes = count * layout.byteSize();
            MemorySegment.copy(Checks.arraySegment(array), index * layout.byteSize(), segment,
                checkRange(call, target, targetDisp, bytes), bytes);
        }

        /**
         * Copies {@code count} elements of {@code layout} at {@code targetDisp} into {@code array} from
         * {@code index} (see {@link #SMALL_COPY}).
         *
         * @throws RmaException RMA_RANGE as {@link #checkRange}.
         */
        void getArray(final String call, final int target, final Object array, final int index, final int count,
            final ValueLayout layout, final long targetDisp) {
            final long bytes = count * layout.byteSize();
            final long first = checkRange(call, target, targetDisp, bytes);
            if (bytes < SMALL_COPY) {
                MemorySegment.copy(segment, first, Checks.arraySegment(array), index * layout.byteSize(), bytes);
            } else {
                MemorySegment.copy(segment, layout, first, array, index, count);
            }
        }

        /**
         * @return the byte offset of {@code targetDisp} in the segment (MPI-3.1 section 11.3.1).
         * @throws RmaException RMA_RANGE if {@code lengthBytes} from there are not all inside the segment, COUNT
         *                      for a negative length.
         */
        long checkRange(final String call, final int target, final long targetDisp, final long lengthBytes) {
            final long first = targetDisp * dispUnit;
            final long room = size - lengthBytes;
            // NOTE: one sign test, so the op path keeps one exit instead of one per condition, and no 128-bit
            // product on it: a displacement from 0 to 2^32 - 1 times a unit below 2^31 (a positive int) cannot
            // overflow, so first is not negative; lengthBytes is negative for a negative length, room when the
            // length exceeds the size, room - first when the end is past it. A larger displacement, or any misuse,
            // takes checkRangeExactly.
            if ((targetDisp | FAST_DISP_LIMIT - targetDisp | lengthBytes | room | room - first) < 0) {
                return checkRangeExactly(call, target, targetDisp, lengthBytes);
            }
            return first;
        }

        /** {@link #checkRange} for every displacement: the product's overflow tested with its high half. */
        private long checkRangeExactly(final String call, final int target, final long targetDisp,
            final long lengthBytes) {
            final long first = targetDisp * dispUnit;
            final long high = Math.multiplyHigh(targetDisp, dispUnit);
            final long room = size - lengthBytes;
            // high | -high is negative when the product overflows (no overflow: room and first are not negative
            // when room - first counts). rangeError tells the cases apart.
            if ((high | -high | first | lengthBytes | room | room - first) < 0) {
                throw rangeError(call, target, targetDisp, lengthBytes);
            }
            return first;
        }

        private RmaException rangeError(final String call, final int target, final long targetDisp,
            final long lengthBytes) {
            if (lengthBytes < 0) {
                return new RmaException(ErrorClass.COUNT, call + " length=" + lengthBytes + " is negative");
            }
            final long product = targetDisp * dispUnit;
            final long first = Math.multiplyHigh(targetDisp, dispUnit) == 0 && product >= 0 ? product : Long.MAX_VALUE;
            return new RmaException(ErrorClass.RMA_RANGE,
                call + " target_disp=" + targetDisp + " (x disp_unit " + dispUnit + " = byte " + first + ") + length="
                    + lengthBytes + " exceeds window size " + size + " of rank " + target);
        }
    }
}
