package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.rma4j.internal.mpi.NativeBuffers;

/**
 * Native copies of origin buffers that MPI reads until an operation completes ({@link MpiOneSided}: a put
 * from the Java heap, which MPI cannot read, or a small one, so the caller may reuse its buffer at once), per
 * target, given back when the target's operations complete (flush, flushLocal, unlock, fence). Guarded by the
 * link's lock.
 */
final class Staging {
    private final NativeBuffers buffers;
    private final List<List<NativeBuffers.Buffer>> held;

    Staging(final NativeBuffers buffers, final int targets) {
        this.buffers = buffers;
        this.held = new ArrayList<>(targets);
        for (int t = 0; t < targets; t++) {
            held.add(new ArrayList<>());
        }
    }

    /**
     * @return native memory of {@code like}'s size, held until {@code target}'s operations complete.
     */
    MemorySegment take(final int target, final MemorySegment like) {
        final NativeBuffers.Buffer buffer = buffers.acquire(like.byteSize());
        held.get(target).add(buffer);
        return buffer.segment().asSlice(0, like.byteSize());
    }

    /** Gives back the copies of {@code target}'s completed operations. */
    void release(final int target) {
        final List<NativeBuffers.Buffer> mine = held.get(target);
        for (final NativeBuffers.Buffer buffer : mine) {
            buffers.release(buffer);
        }
        mine.clear();
    }

    /** Gives back every copy. */
    void releaseAll() {
        for (int t = 0; t < held.size(); t++) {
            release(t);
        }
    }
}
