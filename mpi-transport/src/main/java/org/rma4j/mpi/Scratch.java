package org.rma4j.mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The out parameters of the calling thread: preallocated native memory that every call of the binding
 * reuses, so that a call allocates nothing. One per thread (the binding may be called from several threads
 * under {@code MPI_THREAD_SERIALIZED}); allocated from an automatic arena, freed with its thread.
 *
 * <pre>
 *   0                  64                 96                     128
 *   +------------------+------------------+----------------------+--------------------+
 *   | 16 int slots     | 4 handle slots   | 4 long slots         | MPI_Status (<= 64) |
 *   +------------------+------------------+----------------------+--------------------+
 * </pre>
 */
final class Scratch {
    static final long INTS = 0;
    static final long HANDLES = 64;
    static final long LONGS = 96;
    static final long STATUS = 128;
    static final long SIZE = STATUS + 64;

    private static final ThreadLocal<Scratch> CURRENT = ThreadLocal.withInitial(Scratch::new);

    /** The whole area. */
    final MemorySegment area = Arena.ofAuto().allocate(SIZE, 16);
    /** Slot 0 of the ints, as its own segment (an {@code int *} argument). */
    final MemorySegment int0 = area.asSlice(INTS, 4);
    /** Slot 1 of the ints. */
    final MemorySegment int1 = area.asSlice(INTS + 4, 4);
    /** Slot 2 of the ints. */
    final MemorySegment int2 = area.asSlice(INTS + 8, 4);
    /** Handle slot 0 (an {@code MPI_Comm *} or {@code MPI_Request *} argument). */
    final MemorySegment handle0 = area.asSlice(HANDLES, 8);
    /** Long slot 0 (an {@code MPI_Aint *} or {@code void **} argument). */
    final MemorySegment long0 = area.asSlice(LONGS, 8);
    /** Long slot 1. */
    final MemorySegment long1 = area.asSlice(LONGS + 8, 8);
    /** An {@code MPI_Status}. */
    final MemorySegment status = area.asSlice(STATUS, 64);

    static Scratch get() {
        return CURRENT.get();
    }

    int int0() {
        return int0.get(ValueLayout.JAVA_INT, 0);
    }

    int int1() {
        return int1.get(ValueLayout.JAVA_INT, 0);
    }

    int int2() {
        return int2.get(ValueLayout.JAVA_INT, 0);
    }

    long long0() {
        return long0.get(ValueLayout.JAVA_LONG, 0);
    }

    long long1() {
        return long1.get(ValueLayout.JAVA_LONG, 0);
    }

    long handle0() {
        return MpiNative.ABI.readHandle(handle0, 0);
    }

    void handle0(final long handle) {
        MpiNative.ABI.writeHandle(handle0, 0, handle);
    }
}
