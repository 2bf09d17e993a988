package org.rma4j;

import java.lang.foreign.MemorySegment;
import org.rma4j.internal.mpi.MpiLink;
import org.rma4j.internal.mpi.NativeBuffers;
import org.rma4j.mpi.MpiBasicType;
import org.rma4j.mpi.MpiDatatype;
import org.rma4j.mpi.MpiException;
import org.rma4j.mpi.MpiWin;

/**
 * The MPI one-sided data path of a {@link HybridTransport} of a static window: {@code MPI_Put} / {@code MPI_Get}
 * of bytes on the job's dynamic MPI window ({@link MpiLink#win()}) at a target's address, the copies of origin
 * buffers MPI reads until a put completes ({@link Staging}), which targets have puts to complete, and their
 * completion ({@code MPI_Win_flush}, {@code MPI_Win_flush_local}, {@code MPI_Win_flush_all}). Ranges and
 * alignment are the caller's.
 *
 * <p>Thread-safe as MPI calls are: every MPI call holds the link's lock, which also guards the pending puts and
 * the copies.
 */
final class MpiOneSided {
    /** Puts of at most this many bytes from native memory are copied, so their buffer may be reused at once. */
    static final int COPIED_PUT_BYTES = 4096;

    private final WindowState state;
    private final MpiLink link;
    private final MpiWin win;
    private final MpiDatatype bytes;
    /** Every rank's memory address in its process. */
    private final long[] bases;
    private final boolean[] pending;
    private final Staging staging;

    MpiOneSided(final WindowState state, final long[] bases) {
        this.state = state;
        this.link = state.job().link();
        this.win = link.win();
        this.bytes = link.mpi().datatype(MpiBasicType.BYTE);
        this.bases = bases;
        this.pending = new boolean[state.sizes().length];
        this.staging = new Staging(link.buffers(), state.sizes().length);
    }

    /** Puts {@code origin} at byte {@code at} of {@code target}'s window; complete at the next completion call. */
    void put(final String call, final int target, final MemorySegment origin, final long at) {
        link.lock();
        try {
            putBytes(call, target, stage(target, origin, origin.byteSize() <= COPIED_PUT_BYTES), at);
        } finally {
            link.unlock();
        }
    }

    /** Gets {@code destination}'s bytes from byte {@code at} of {@code target}'s window; there on return. */
    void get(final String call, final int target, final MemorySegment destination, final long at) {
        final NativeBuffers.Buffer copy = destination.isNative()
            ? null
            : link.buffers().acquire(destination.byteSize());
        link.lock();
        try {
            final MemorySegment into = copy == null ? destination : copy.segment().asSlice(0, destination.byteSize());
            getBytes(call, target, into, at);
            mpi(call, target, () -> win.flushLocal(worldRank(target)));
            if (copy != null) {
                MemorySegment.copy(into, 0, destination, 0, destination.byteSize());
            }
        } finally {
            link.unlock();
            if (copy != null) {
                link.buffers().release(copy);
            }
        }
    }

    /** A typed put: each run of {@code from} (origin) against {@code to} (target, from byte {@code at}). */
    void put(final String call, final int target, final MemorySegment origin, final TypeCursor from,
        final TypeCursor to, final long at) {
        link.lock();
        try {
            final MemorySegment source = stage(target, origin, true);
            TypeCursor.forEachRun(from, to, (fromOffset, toOffset, length) -> putBytes(call, target,
                source.asSlice(fromOffset, length), at + toOffset));
        } finally {
            link.unlock();
        }
    }

    /** A typed get: each run of {@code from} (target, from byte {@code at}) against {@code to} (destination). */
    void get(final String call, final int target, final MemorySegment destination, final TypeCursor from,
        final TypeCursor to, final long at) {
        link.lock();
        try {
            // NOTE: a heap destination is copied in first: the bytes between the type's runs stay as they were.
            final MemorySegment into = destination.isNative() ? destination : stage(target, destination, true);
            TypeCursor.forEachRun(from, to, (fromOffset, toOffset, length) -> getBytes(call, target,
                into.asSlice(toOffset, length), at + fromOffset));
            mpi(call, target, () -> win.flushLocal(worldRank(target)));
            if (into != destination) {
                MemorySegment.copy(into, 0, destination, 0, destination.byteSize());
            }
        } finally {
            link.unlock();
        }
    }

    /** Completes this rank's puts to {@code target} at the target. */
    void complete(final int target) {
        link.lock();
        try {
            if (pending[target]) {
                mpi("flush", target, () -> win.flush(worldRank(target)));
                pending[target] = false;
                staging.release(target);
            }
        } finally {
            link.unlock();
        }
    }

    /** Completes this rank's puts to every target. */
    void completeAll() {
        link.lock();
        try {
            boolean any = false;
            for (final boolean one : pending) {
                any |= one;
            }
            if (any) {
                mpi("flushAll", -1, win::flushAll);
                java.util.Arrays.fill(pending, false);
                staging.releaseAll();
            }
        } finally {
            link.unlock();
        }
    }

    /** Completes this rank's puts to {@code target} at the origin: their buffers may be reused. */
    void completeLocal(final int target) {
        link.lock();
        try {
            if (pending[target]) {
                mpi("flushLocal", target, () -> win.flushLocal(worldRank(target)));
                staging.release(target);
            }
        } finally {
            link.unlock();
        }
    }

    /** Gives back the copies of origin buffers. */
    void release() {
        link.lock();
        try {
            staging.releaseAll();
        } finally {
            link.unlock();
        }
    }

    /** {@code MPI_Put} of a native source, in pieces MPI's int counts allow (the caller holds the lock). */
    private void putBytes(final String call, final int target, final MemorySegment source, final long offset) {
        final long at = bases[target] + offset;
        for (long done = 0; done < source.byteSize();) {
            final int n = (int)Math.min(Integer.MAX_VALUE, source.byteSize() - done);
            final long from = done;
            mpi(call, target, () -> win.put(source.asSlice(from, n), n, bytes, worldRank(target), at + from));
            done += n;
        }
        pending[target] = true;
    }

    /** {@code MPI_Get} into a native destination, in pieces (the caller holds the lock and completes it). */
    private void getBytes(final String call, final int target, final MemorySegment into, final long offset) {
        final long at = bases[target] + offset;
        for (long done = 0; done < into.byteSize();) {
            final int n = (int)Math.min(Integer.MAX_VALUE, into.byteSize() - done);
            final long from = done;
            mpi(call, target, () -> win.get(into.asSlice(from, n), n, bytes, worldRank(target), at + from));
            done += n;
        }
    }

    /**
     * @return {@code origin} if MPI may read it until the put completes (native and not to be copied), else a
     *         copy that lives until then (the caller holds the lock).
     */
    private MemorySegment stage(final int target, final MemorySegment origin, final boolean copySmall) {
        if (origin.isNative() && !(copySmall && origin.byteSize() <= COPIED_PUT_BYTES)) {
            return origin;
        }
        final MemorySegment copy = staging.take(target, origin);
        MemorySegment.copy(origin, 0, copy, 0, origin.byteSize());
        return copy;
    }

    private int worldRank(final int target) {
        return state.context().jobRank(target);
    }

    /** Runs an MPI call of this window, its MPI error as an RmaException naming the call. */
    private void mpi(final String call, final int target, final Runnable body) {
        try {
            body.run();
        } catch (final MpiException e) {
            throw new RmaException(ErrorClass.OTHER, call + (target >= 0 ? " to rank " + target : "") + " on window "
                + state.number() + ": " + e.getMessage(), e);
        }
    }
}
