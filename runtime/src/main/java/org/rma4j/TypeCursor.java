package org.rma4j;

/**
 * Walks the elements of {@code count} instances of a {@link Datatype} placed at a base byte offset,
 * one contiguous run at a time; {@link #zip} pairs the runs of two or three such walks so that
 * typed transfers and accumulates move the longest contiguous pieces both sides allow.
 *
 * <p>Not thread-safe; one cursor per transfer.
 */
final class TypeCursor {
    private final Datatype type;
    private final long count;
    private final long base;
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
        this.elementBytes = type.basic().bytes();
        this.flatElements = type.isContiguous() ? this.count * type.elements() : -1;
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
        return base + instance * type.extent() + type.blockOffset(block) + done * elementBytes;
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
}
