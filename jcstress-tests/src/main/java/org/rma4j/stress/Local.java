package org.rma4j.stress;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Local loads and stores on window memory (a rank's own part, or a shared window's part of another rank
 * from {@code sharedQuery}): what an MPI program does with plain C loads and stores on its window.
 *
 * <p>All of them are plain: no ordering and no visibility guarantee across threads (the JIT may reorder or
 * hoist them). The tests use them where the program under test relies only on rma4j's calls (flush,
 * win_sync, fence, an atomic flag read, ...) for ordering, or as the broken rung of a ladder.
 */
final class Local {
    private Local() {
    }

    /** Plain 8-byte load. */
    static long getLong(final MemorySegment segment, final long offset) {
        return segment.get(ValueLayout.JAVA_LONG, offset);
    }

    /** Plain 8-byte store. */
    static void putLong(final MemorySegment segment, final long offset, final long value) {
        segment.set(ValueLayout.JAVA_LONG, offset, value);
    }

    /** Plain 2-byte load. */
    static short getShort(final MemorySegment segment, final long offset) {
        return segment.get(ValueLayout.JAVA_SHORT, offset);
    }

    /** Plain 2-byte store. */
    static void putShort(final MemorySegment segment, final long offset, final short value) {
        segment.set(ValueLayout.JAVA_SHORT, offset, value);
    }

    /** Plain 8-byte load of a double. */
    static double getDouble(final MemorySegment segment, final long offset) {
        return segment.get(ValueLayout.JAVA_DOUBLE, offset);
    }

    /** Plain 8-byte store of a double. */
    static void putDouble(final MemorySegment segment, final long offset, final double value) {
        segment.set(ValueLayout.JAVA_DOUBLE, offset, value);
    }
}
