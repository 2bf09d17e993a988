package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.rma4j.internal.AtomicElements;

/**
 * Element-wise combination of a reduction's operands (MPI-3.1 section 5.9.2), with plain loads and
 * stores: {@code into[i] = op(into[i], from[i])}. Loops of their own for the usual sums, minima and
 * maxima of int, long and double; every other pairing goes through {@link AtomicElements#apply}.
 */
final class Reductions {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private Reductions() {
    }

    /**
     * Combines {@code bytes} of {@code from} (from its start) into {@code into} at {@code intoOffset}.
     */
    static void combine(final MemorySegment into, final long intoOffset, final MemorySegment from, final long bytes,
        final Datatype.Basic basic, final Op op) {
        if (combineFast(into, intoOffset, from, bytes, basic, op)) {
            return;
        }
        final int size = basic.bytes();
        for (long offset = 0; offset < bytes; offset += size) {
            AtomicElements.write(basic, into, intoOffset + offset, AtomicElements.apply(op, basic,
                AtomicElements.read(basic, into, intoOffset + offset), AtomicElements.read(basic, from, offset)));
        }
    }

    private static boolean combineFast(final MemorySegment into, final long at, final MemorySegment from,
        final long bytes, final Datatype.Basic basic, final Op op) {
        if (op != Op.SUM && op != Op.MIN && op != Op.MAX) {
            return false;
        }
        switch (basic) {
            case LONG -> {
                for (long i = 0; i < bytes; i += Long.BYTES) {
                    final long a = into.get(LONG, at + i);
                    final long b = from.get(LONG, i);
                    into.set(LONG, at + i, op == Op.SUM ? a + b : op == Op.MIN ? Math.min(a, b) : Math.max(a, b));
                }
            }
            case INT -> {
                for (long i = 0; i < bytes; i += Integer.BYTES) {
                    final int a = into.get(INT, at + i);
                    final int b = from.get(INT, i);
                    into.set(INT, at + i, op == Op.SUM ? a + b : op == Op.MIN ? Math.min(a, b) : Math.max(a, b));
                }
            }
            case DOUBLE -> {
                for (long i = 0; i < bytes; i += Double.BYTES) {
                    final double a = into.get(DOUBLE, at + i);
                    final double b = from.get(DOUBLE, i);
                    into.set(DOUBLE, at + i, op == Op.SUM ? a + b : op == Op.MIN ? Math.min(a, b) : Math.max(a, b));
                }
            }
            default -> {
                return false;
            }
        }
        return true;
    }
}
