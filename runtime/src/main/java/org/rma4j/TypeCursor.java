package org.rma4j;

import java.lang.foreign.MemorySegment;

/**
 * Walks the elements of {@code count} instances of a {@link Datatype} placed at a base byte offset,
 * one contiguous run of one basic type at a time; {@link #zip} pairs the runs of two or three such walks
 * so that typed transfers and accumulates move the longest contiguous pieces both sides allow. Walks
 * paired by {@code zip} must have the same type signature ({@link #sameSignature}), so paired runs have
 * the same basic type.
 *
 * <p>Not thread-safe; one cursor per transfer.
 */
final class TypeCursor {
    private final Datatype type;
    private final long count;
    private final long base;
    /** Bytes of each element of a contiguous type (whose elements are of one basic type). */
    private final int elementBytes;
    /** Elements of a contiguous type, walked as one run; -1 for other types. */
    private final long flatElements;
    private long instance;
    private int block;
    private long done;

    TypeCursor(final long base, final long count, final Datatype type) {
        this.type = type;
        this.count = type.elements() == 0 ? 0 : count;
        this.base = base;
        this.flatElements = type.isContiguous() && type.blocks() > 0 ? this.count * type.elements() : -1;
        this.elementBytes = flatElements >= 0 ? type.blockBasic(0).bytes() : 0;
        if (flatElements < 0) {
            skipEmptyBlocks();
        }
    }

    boolean hasMore() {
        return flatElements >= 0 ? done < flatElements : instance < count;
    }

    /**
     * @return byte offset of the next element.
     */
    long offset() {
        if (flatElements >= 0) {
            return base + done * elementBytes;
        }
        return base + instance * type.extent() + type.blockOffset(block) + done * type.blockBasic(block).bytes();
    }

    /**
     * @return the basic type of the current run's elements.
     */
    Datatype.Basic basic() {
        return flatElements >= 0 ? type.blockBasic(0) : type.blockBasic(block);
    }

    /**
     * @return elements left in the current contiguous run.
     */
    long remaining() {
        if (flatElements >= 0) {
            return flatElements - done;
        }
        return type.blockElements(block) - done;
    }

    void advance(final long elements) {
        done += elements;
        if (flatElements < 0) {
            skipEmptyBlocks();
        }
    }

    private void skipEmptyBlocks() {
        while (instance < count && done == type.blockElements(block)) {
            done = 0;
            if (++block == type.blocks()) {
                block = 0;
                instance++;
            }
        }
    }

    /** Receives paired runs of two walks. */
    @FunctionalInterface
    interface Runs2 {
        void run(long firstOffset, long secondOffset, long elements);
    }

    /** Receives paired runs of three walks. */
    @FunctionalInterface
    interface Runs3 {
        void run(long firstOffset, long secondOffset, long thirdOffset, long elements);
    }

    /**
     * Copies the elements of one walk over {@code from} to the places of another over {@code to}, run by
     * run (the walks have the same signature).
     */
    static void copy(final MemorySegment from, final TypeCursor fromCursor, final MemorySegment to,
        final TypeCursor toCursor) {
        while (fromCursor.hasMore() && toCursor.hasMore()) {
            final long n = Math.min(fromCursor.remaining(), toCursor.remaining());
            MemorySegment.copy(from, fromCursor.offset(), to, toCursor.offset(), n * fromCursor.basic().bytes());
            fromCursor.advance(n);
            toCursor.advance(n);
        }
    }

    /**
     * @return whether the two walks have the same type signature: the same basic types in the same order
     *         (MPI-3.1 section 11.3). Consumes both walks.
     */
    static boolean sameSignature(final TypeCursor first, final TypeCursor second) {
        while (first.hasMore() && second.hasMore()) {
            if (first.basic() != second.basic()) {
                return false;
            }
            final long n = Math.min(first.remaining(), second.remaining());
            first.advance(n);
            second.advance(n);
        }
        return !first.hasMore() && !second.hasMore();
    }

    /**
     * Pairs the runs of two walks with the same number of elements.
     */
    static void zip(final TypeCursor first, final TypeCursor second, final Runs2 runs) {
        while (first.hasMore() && second.hasMore()) {
            final long n = Math.min(first.remaining(), second.remaining());
            runs.run(first.offset(), second.offset(), n);
            first.advance(n);
            second.advance(n);
        }
    }

    /**
     * Pairs the runs of three walks with the same number of elements.
     */
    static void zip(final TypeCursor first, final TypeCursor second, final TypeCursor third, final Runs3 runs) {
        while (first.hasMore() && second.hasMore() && third.hasMore()) {
            final long n = Math.min(first.remaining(), Math.min(second.remaining(), third.remaining()));
            runs.run(first.offset(), second.offset(), third.offset(), n);
            first.advance(n);
            second.advance(n);
            third.advance(n);
        }
    }

    /** Receives one run of a typed transfer: bytes at an offset of each side. */
    @FunctionalInterface
    interface Run {
        void run(long fromOffset, long toOffset, long length);
    }

    /** Walks {@code from} and {@code to} together, handing {@code run} each stretch contiguous on both sides. */
    static void forEachRun(final TypeCursor from, final TypeCursor to, final Run run) {
        while (from.hasMore() && to.hasMore()) {
            final long n = Math.min(from.remaining(), to.remaining());
            run.run(from.offset(), to.offset(), n * from.basic().bytes());
            from.advance(n);
            to.advance(n);
        }
    }
}
