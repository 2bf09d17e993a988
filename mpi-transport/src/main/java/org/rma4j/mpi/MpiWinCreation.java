package org.rma4j.mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;

/** Window creation, shared query, dynamic attach / detach and free of {@link MpiWin} (MPI-3.1 section 11.2). */
final class MpiWinCreation {
    private MpiWinCreation() {
    }

    static MpiWin allocate(final MpiComm comm, final long sizeBytes, final int dispUnit, final Map<String, String> info,
        final boolean shared) {
        final String call = shared ? "MPI_Win_allocate_shared" : "MPI_Win_allocate";
        final Scratch scratch = Scratch.get();
        final long infoHandle = MpiInfo.create(info);
        final int rc;
        try {
            rc = (int)(shared ? MpiNative.WIN_ALLOCATE_SHARED : MpiNative.WIN_ALLOCATE).invokeExact(sizeBytes, dispUnit,
                infoHandle, comm.handle(), scratch.long0, scratch.handle0);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        } finally {
            MpiInfo.free(infoHandle);
        }
        if (rc != 0) {
            throw Errors.of(rc, call, "size=" + sizeBytes + " disp_unit=" + dispUnit + " comm=" + comm);
        }
        final long win = withErrorsReturn(scratch.handle0());
        final Arena scope = Arena.ofShared();
        final MemorySegment base = MemorySegment.ofAddress(scratch.long0()).reinterpret(sizeBytes, scope, null);
        return new MpiWin(win, shared ? MpiWin.Flavor.SHARED : MpiWin.Flavor.ALLOCATE, scope, base, dispUnit);
    }

    static MpiWin create(final MpiComm comm, final MemorySegment memory, final int dispUnit,
        final Map<String, String> info) {
        if (!memory.isNative()) {
            throw Errors.binding(MpiErrorClass.BUFFER, "MPI_Win_create",
                "base is a heap segment; MPI needs native" + " memory");
        }
        final Scratch scratch = Scratch.get();
        final long infoHandle = MpiInfo.create(info);
        final int rc;
        try {
            rc = (int)MpiNative.WIN_CREATE.invokeExact(memory, memory.byteSize(), dispUnit, infoHandle, comm.handle(),
                scratch.handle0);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        } finally {
            MpiInfo.free(infoHandle);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Win_create", "size=" + memory.byteSize() + " disp_unit=" + dispUnit);
        }
        return new MpiWin(withErrorsReturn(scratch.handle0()), MpiWin.Flavor.CREATE, Arena.ofShared(), memory,
            dispUnit);
    }

    static MpiWin createDynamic(final MpiComm comm, final Map<String, String> info) {
        final Scratch scratch = Scratch.get();
        final long infoHandle = MpiInfo.create(info);
        final int rc;
        try {
            rc = (int)MpiNative.WIN_CREATE_DYNAMIC.invokeExact(infoHandle, comm.handle(), scratch.handle0);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        } finally {
            MpiInfo.free(infoHandle);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Win_create_dynamic", "");
        }
        return new MpiWin(withErrorsReturn(scratch.handle0()), MpiWin.Flavor.DYNAMIC, Arena.ofShared(),
            MemorySegment.NULL, 1);
    }

    static MpiWin.Region sharedQuery(final MpiWin win, final int rank, final Arena scope) {
        final Scratch scratch = Scratch.get();
        final int rc;
        try {
            rc = (int)MpiNative.WIN_SHARED_QUERY.invokeExact(win.handle(), Predefined.rank(rank), scratch.long0,
                scratch.int0, scratch.long1);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Win_shared_query", "rank=" + rank);
        }
        final MemorySegment segment = MemorySegment.ofAddress(scratch.long1()).reinterpret(scratch.long0(), scope,
            null);
        return new MpiWin.Region(segment, scratch.int0());
    }

    static void attach(final MpiWin win, final MemorySegment memory) {
        if (!memory.isNative()) {
            throw Errors.binding(MpiErrorClass.BUFFER, "MPI_Win_attach", "a heap segment; MPI needs native memory");
        }
        final int rc;
        try {
            rc = (int)MpiNative.WIN_ATTACH.invokeExact(win.handle(), memory, memory.byteSize());
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Win_attach",
                "address=0x" + Long.toHexString(memory.address()) + " size=" + memory.byteSize());
        }
    }

    static void detach(final MpiWin win, final MemorySegment memory) {
        final int rc;
        try {
            rc = (int)MpiNative.WIN_DETACH.invokeExact(win.handle(), memory);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Win_detach", "address=0x" + Long.toHexString(memory.address()));
        }
    }

    static long address(final MemorySegment memory) {
        final Scratch scratch = Scratch.get();
        final int rc;
        try {
            rc = (int)MpiNative.GET_ADDRESS.invokeExact(memory, scratch.long0);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Get_address", "");
        }
        return scratch.long0();
    }

    static MpiGroup group(final MpiWin win) {
        final Scratch scratch = Scratch.get();
        final int rc;
        try {
            rc = (int)MpiNative.WIN_GET_GROUP.invokeExact(win.handle(), scratch.handle0);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Win_get_group", "");
        }
        return new MpiGroup(scratch.handle0());
    }

    /** @return the handle after {@code MPI_Win_free} ({@code MPI_WIN_NULL}). */
    static long free(final MpiWin win) {
        final Scratch scratch = Scratch.get();
        scratch.handle0(win.handle());
        final int rc;
        try {
            rc = (int)MpiNative.WIN_FREE.invokeExact(scratch.handle0);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Win_free", "");
        }
        return scratch.handle0();
    }

    private static long withErrorsReturn(final long win) {
        final int rc;
        try {
            rc = (int)MpiNative.WIN_SET_ERRHANDLER.invokeExact(win, Predefined.ERRORS_RETURN);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Win_set_errhandler", "");
        }
        return win;
    }
}
