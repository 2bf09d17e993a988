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
     * Unmaps what this object mapped itself. Idempotent.
     */
    abstract void close();

    /**
     * The memory of every target is one segment known at creation.
     */
    static final class Fixed extends TargetMemory {
        private final MemorySegment[] parts;
        private final int[] dispUnits;
        private final AutoCloseable resources;

        Fixed(final MemorySegment[] parts, final int[] dispUnits, final AutoCloseable resources) {
            this.parts = parts;
            this.dispUnits = dispUnits;
            this.resources = resources;
        }

        @Override
        MemorySegment resolve(final String call, final int target, final long targetDisp, final long lengthBytes) {
            final MemorySegment part = parts[target];
            final long size = part.byteSize();
            final int unit = dispUnits[target];
            final long start = targetDisp > Long.MAX_VALUE / unit ? Long.MAX_VALUE : targetDisp * unit;
            if (start > size || lengthBytes > size - start) {
                throw new RmaException(ErrorClass.RMA_RANGE, call + " target_disp=" + targetDisp + " (x disp_unit "
                    + unit + " = byte " + start + ") + length=" + lengthBytes + " exceeds window size " + size
                    + " of rank " + target);
            }
            return part.asSlice(start, lengthBytes);
        }

        MemorySegment part(final int target) {
            return parts[target];
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
