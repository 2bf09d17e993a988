package org.rma4j.internal.mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * Native buffers for the link's messages and for staging heap data of one-sided calls: a free list per size
 * class (256 B to 64 KiB, at most {@link #KEPT_PER_CLASS} kept each), and an arena of its own for a larger
 * buffer. Thread-safe.
 */
public final class NativeBuffers {
    /** Smallest size class. */
    static final int MIN_CLASS_BYTES = 256;
    /** Largest size class; larger buffers get an arena of their own. */
    static final int MAX_CLASS_BYTES = 64 * 1024;
    /** Buffers kept per class for reuse. */
    static final int KEPT_PER_CLASS = 64;
    private static final int CLASSES = Integer.numberOfTrailingZeros(MAX_CLASS_BYTES)
        - Integer.numberOfTrailingZeros(MIN_CLASS_BYTES) + 1;

    /** A buffer: {@link #segment()} holds at least the bytes asked for. */
    public static final class Buffer {
        private final MemorySegment segment;
        private final Arena arena;
        private final int sizeClass;

        private Buffer(final MemorySegment segment, final Arena arena, final int sizeClass) {
            this.segment = segment;
            this.arena = arena;
            this.sizeClass = sizeClass;
        }

        /** @return the whole buffer (8-byte aligned). */
        public MemorySegment segment() {
            return segment;
        }
    }

    @SuppressWarnings("unchecked")
    private final ArrayDeque<Buffer>[] free = new ArrayDeque[CLASSES];

    public NativeBuffers() {
        for (int c = 0; c < CLASSES; c++) {
            free[c] = new ArrayDeque<>();
        }
    }

    /**
     * @return a buffer of at least {@code bytes} bytes (its content is undefined).
     */
    public Buffer acquire(final long bytes) {
        if (bytes > MAX_CLASS_BYTES) {
            final Arena arena = Arena.ofShared();
            return new Buffer(arena.allocate(bytes, 8), arena, -1);
        }
        final int sizeClass = sizeClass(bytes);
        synchronized (this) {
            final Buffer kept = free[sizeClass].pollFirst();
            if (kept != null) {
                return kept;
            }
        }
        return new Buffer(Arena.global().allocate((long)MIN_CLASS_BYTES << sizeClass, 8), null, sizeClass);
    }

    /**
     * Gives a buffer back; it must no longer be used (nor read by a pending MPI operation).
     */
    public void release(final Buffer buffer) {
        if (buffer.arena != null) {
            buffer.arena.close();
            return;
        }
        synchronized (this) {
            if (free[buffer.sizeClass].size() < KEPT_PER_CLASS) {
                free[buffer.sizeClass].addFirst(buffer);
            }
        }
    }

    private static int sizeClass(final long bytes) {
        final long rounded = Math.max(MIN_CLASS_BYTES, Long.highestOneBit(Math.max(1, bytes - 1)) << 1);
        return Long.numberOfTrailingZeros(rounded) - Integer.numberOfTrailingZeros(MIN_CLASS_BYTES);
    }
}
