package org.rma4j;

import java.lang.foreign.MemorySegment;

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
        private final MemorySegment[] parts;
        private final MemorySegment[] mappings;
        private final long[] starts;
        /** Each target's part's size ({@code parts[target].byteSize()}, 0 where it is not mapped here), read without
         *  the segment's type check. */
        private final long[] partSizes;
        private final int[] dispUnits;
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
            this.mappings = mappings;
            this.starts = starts;
            this.parts = new MemorySegment[mappings.length];
            this.partSizes = new long[mappings.length];
            for (int r = 0; r < parts.length; r++) {
                parts[r] = mappings[r].equals(MemorySegment.NULL)
                    ? MemorySegment.NULL
                    : mappings[r].asSlice(starts[r], sizes[r]);
                partSizes[r] = parts[r].byteSize();
            }
            this.dispUnits = dispUnits;
            this.resources = resources;
        }

        @Override
        MemorySegment resolve(final String call, final int target, final long targetDisp, final long lengthBytes) {
            return parts[target].asSlice(checkRange(call, target, targetDisp, lengthBytes), lengthBytes);
        }

        // NOTE: put and get copy into the target's part at the checked offset: no slice of it is made, so the
        // op path's compiled code stays small enough for its callers to inline (bench/README).
        @Override
        void put(final String call, final MemorySegment origin, final int target, final long targetDisp) {
            final long length = origin.byteSize();
            MemorySegment.copy(origin, 0, parts[target], checkRange(call, target, targetDisp, length), length);
        }

        @Override
        void get(final String call, final MemorySegment destination, final int target, final long targetDisp) {
            final long length = destination.byteSize();
            MemorySegment.copy(parts[target], checkRange(call, target, targetDisp, length), destination, 0, length);
        }

        @Override
        Place resolveInMapping(final String call, final int target, final long targetDisp, final long lengthBytes) {
            return new Place(mappings[target], starts[target] + checkRange(call, target, targetDisp, lengthBytes));
        }

        private long checkRange(final String call, final int target, final long targetDisp, final long lengthBytes) {
            final long size = partSizes[target];
            final int unit = dispUnits[target];
            final long start = targetDisp * unit;
            final long high = Math.multiplyHigh(targetDisp, unit);
            final long room = size - lengthBytes;
            // NOTE: one sign test for every misuse, so the op path keeps one exit to the error instead of one per
            // condition (and divides nothing): high | -high is negative when the product overflows, start or
            // lengthBytes when negative, room when the length exceeds the size, room - start when the end is past
            // the size (no overflow: room and start are not negative when it counts). rangeError tells them apart.
            if ((high | -high | start | lengthBytes | room | room - start) < 0) {
                throw rangeError(call, target, targetDisp, lengthBytes);
            }
            return start;
        }

        private RmaException rangeError(final String call, final int target, final long targetDisp,
            final long lengthBytes) {
            if (lengthBytes < 0) {
                return new RmaException(ErrorClass.COUNT, call + " length=" + lengthBytes + " is negative");
            }
            final int unit = dispUnits[target];
            final long product = targetDisp * unit;
            final long start = Math.multiplyHigh(targetDisp, unit) == 0 && product >= 0 ? product : Long.MAX_VALUE;
            return new RmaException(ErrorClass.RMA_RANGE,
                call + " target_disp=" + targetDisp + " (x disp_unit " + unit + " = byte " + start + ") + length="
                    + lengthBytes + " exceeds window size " + partSizes[target] + " of rank " + target);
        }

        MemorySegment part(final int target) {
            return parts[target];
        }

        /** @return the whole mapping that holds {@code target}'s memory ({@code NULL} for none here). */
        MemorySegment mapping(final int target) {
            return mappings[target];
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
}
