package org.rma4j.mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * A window ({@code MPI_Win}, MPI-3.1 chapter 11): its creation ({@link #allocate}, {@link #allocateShared},
 * {@link #create}, {@link #createDynamic}), communication calls (section 11.3), synchronization calls (section
 * 11.5) and {@link #free()}.
 *
 * <p>Every window gets {@code MPI_ERRORS_RETURN} at creation (section 8.3.2: windows do not inherit the
 * communicator's handler). The memory MPI allocated ({@link #base()}, {@link #sharedQuery}) is a segment of
 * the window's own arena, closed by {@link #free()}: an access after free throws
 * {@link IllegalStateException} instead of touching freed memory.
 *
 * <p>Origin buffers are native segments that hold their count of elements (checked before the call); they
 * must stay valid until the operation completes (a flush, unlock, fence, complete, or the request). Target
 * ranks are ranks of the window's communicator; {@link Mpi#PROC_NULL} is translated. Not thread-safe.
 */
public final class MpiWin {
    /** How a window's memory came to be ({@code MPI_WIN_CREATE_FLAVOR}, section 11.2.6). */
    public enum Flavor {
        /** {@code MPI_Win_create} over memory the caller gave. */
        CREATE,
        /** {@code MPI_Win_allocate}. */
        ALLOCATE,
        /** {@code MPI_Win_allocate_shared}. */
        SHARED,
        /** {@code MPI_Win_create_dynamic}. */
        DYNAMIC
    }

    /**
     * A rank's part of a shared window ({@code MPI_Win_shared_query}).
     *
     * @param segment  its memory, mapped in this process too.
     * @param dispUnit its displacement unit.
     */
    public record Region(MemorySegment segment, int dispUnit) {
    }

    private long handle;
    private final Flavor flavor;
    private final Arena scope;
    private final MemorySegment base;
    private final int dispUnit;

    MpiWin(final long handle, final Flavor flavor, final Arena scope, final MemorySegment base, final int dispUnit) {
        this.handle = handle;
        this.flavor = flavor;
        this.scope = scope;
        this.base = base;
        this.dispUnit = dispUnit;
    }

    /**
     * {@code MPI_Win_allocate} (collective over {@code comm}).
     *
     * @param sizeBytes this process's part, in bytes.
     * @param dispUnit  the displacement unit of this process's part.
     * @param info      info keys ({@code MPI_Info_set}); empty for {@code MPI_INFO_NULL}.
     */
    public static MpiWin allocate(final MpiComm comm, final long sizeBytes, final int dispUnit,
        final Map<String, String> info) {
        return MpiWinCreation.allocate(comm, sizeBytes, dispUnit, info, false);
    }

    /**
     * {@code MPI_Win_allocate_shared} (collective over {@code comm}, whose processes must share memory: a
     * communicator from {@link MpiComm#splitTypeShared}). Other ranks' parts: {@link #sharedQuery}.
     */
    public static MpiWin allocateShared(final MpiComm comm, final long sizeBytes, final int dispUnit,
        final Map<String, String> info) {
        return MpiWinCreation.allocate(comm, sizeBytes, dispUnit, info, true);
    }

    /**
     * {@code MPI_Win_create} over {@code memory} (native; it must stay valid until {@link #free()}).
     */
    public static MpiWin create(final MpiComm comm, final MemorySegment memory, final int dispUnit,
        final Map<String, String> info) {
        return MpiWinCreation.create(comm, memory, dispUnit, info);
    }

    /**
     * {@code MPI_Win_create_dynamic}: a window without memory; {@link #attach} adds some. Displacements are
     * addresses ({@link #address}).
     */
    public static MpiWin createDynamic(final MpiComm comm, final Map<String, String> info) {
        return MpiWinCreation.createDynamic(comm, info);
    }

    /**
     * {@code MPI_Get_address}: the displacement of {@code memory} in a dynamic window.
     */
    public static long address(final MemorySegment memory) {
        return MpiWinCreation.address(memory);
    }

    /**
     * @return the implementation's handle ({@code MPI_WIN_NULL} once freed).
     */
    public long handle() {
        return handle;
    }

    /**
     * @return how the window's memory came to be.
     */
    public Flavor flavor() {
        return flavor;
    }

    /**
     * @return this process's part of the window (empty for a dynamic window).
     */
    public MemorySegment base() {
        return base;
    }

    /**
     * @return this process's displacement unit.
     */
    public int dispUnit() {
        return dispUnit;
    }

    /**
     * {@code MPI_Win_shared_query}: rank {@code rank}'s part of a window from {@link #allocateShared}.
     */
    public Region sharedQuery(final int rank) {
        return MpiWinCreation.sharedQuery(this, rank, scope);
    }

    /**
     * {@code MPI_Win_attach}: exposes {@code memory} (native) in this dynamic window.
     */
    public void attach(final MemorySegment memory) {
        MpiWinCreation.attach(this, memory);
    }

    /**
     * {@code MPI_Win_detach}.
     */
    public void detach(final MemorySegment memory) {
        MpiWinCreation.detach(this, memory);
    }

    /**
     * {@code MPI_Win_get_group}.
     */
    public MpiGroup group() {
        return MpiWinCreation.group(this);
    }

    /**
     * {@code MPI_Win_free} (collective), then closes the arena of {@link #base()} and the shared parts.
     */
    public void free() {
        handle = MpiWinCreation.free(this);
        scope.close();
    }

    /**
     * {@code MPI_Win_lock}: starts a passive-target epoch to {@code rank} (section 11.5.3).
     *
     * @param assertions {@link MpiMode#NOCHECK} or 0.
     */
    public void lock(final MpiLockType lockType, final int rank, final int assertions) {
        MpiWinSync.lock(handle, lockType, rank, assertions);
    }

    /**
     * {@code MPI_Win_unlock}: completes the epoch's operations at the origin and the target.
     */
    public void unlock(final int rank) {
        MpiWinSync.unlock(handle, rank);
    }

    /**
     * {@code MPI_Win_lock_all}: a shared lock on every rank.
     */
    public void lockAll(final int assertions) {
        MpiWinSync.lockAll(handle, assertions);
    }

    /**
     * {@code MPI_Win_unlock_all}.
     */
    public void unlockAll() {
        MpiWinSync.unlockAll(handle);
    }

    /**
     * {@code MPI_Win_flush}: completes this process's operations to {@code rank} at the origin and the target
     * (section 11.5.4); the epoch stays open.
     */
    public void flush(final int rank) {
        MpiWinSync.flush(handle, rank);
    }

    /**
     * {@code MPI_Win_flush_all}.
     */
    public void flushAll() {
        MpiWinSync.flushAll(handle);
    }

    /**
     * {@code MPI_Win_flush_local}: completes this process's operations to {@code rank} at the origin (its
     * buffers may be reused).
     */
    public void flushLocal(final int rank) {
        MpiWinSync.flushLocal(handle, rank);
    }

    /**
     * {@code MPI_Win_flush_local_all}.
     */
    public void flushLocalAll() {
        MpiWinSync.flushLocalAll(handle);
    }

    /**
     * {@code MPI_Win_sync}: synchronizes the public and private copies of this process's part (section
     * 11.5.4); a memory barrier in the unified model.
     */
    public void sync() {
        MpiWinSync.sync(handle);
    }

    /**
     * {@code MPI_Win_fence} (collective, section 11.5.1).
     *
     * @param assertions a combination of {@link MpiMode#NOSTORE}, {@link MpiMode#NOPUT},
     *                   {@link MpiMode#NOPRECEDE}, {@link MpiMode#NOSUCCEED}.
     */
    public void fence(final int assertions) {
        MpiWinSync.fence(handle, assertions);
    }

    /**
     * {@code MPI_Win_post}: starts an exposure epoch for the processes of {@code group} (section 11.5.2).
     */
    public void post(final MpiGroup group, final int assertions) {
        MpiWinSync.post(handle, group, assertions);
    }

    /**
     * {@code MPI_Win_start}: starts an access epoch to the processes of {@code group}.
     */
    public void start(final MpiGroup group, final int assertions) {
        MpiWinSync.start(handle, group, assertions);
    }

    /**
     * {@code MPI_Win_complete}: ends the access epoch of {@link #start}.
     */
    public void complete() {
        MpiWinSync.complete(handle);
    }

    /**
     * {@code MPI_Win_wait} (named so because {@code wait} is {@link Object}'s): ends the exposure epoch of
     * {@link #post} once every origin of the group completed.
     */
    public void await() {
        MpiWinSync.await(handle);
    }

    /**
     * {@code MPI_Win_test}: {@link #await()} without blocking.
     *
     * @return whether the exposure epoch ended.
     */
    public boolean test() {
        return MpiWinSync.test(handle);
    }

    /**
     * {@code MPI_Put}.
     */
    public void put(final MemorySegment origin, final int originCount, final MpiDatatype originType,
        final int targetRank, final long targetDisp, final int targetCount, final MpiDatatype targetType) {
        Errors.checkBuffer(origin, originCount, originType, "MPI_Put", "origin_addr");
        final int rc;
        try {
            rc = (int)MpiNative.PUT.invokeExact(origin, originCount, originType.handle(), Predefined.rank(targetRank),
                targetDisp, targetCount, targetType.handle(), handle);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw failed(rc, "MPI_Put", targetRank, targetDisp, targetCount, targetType);
        }
    }

    /**
     * {@code MPI_Put} of {@code count} elements of {@code type} to the same count and type at the target.
     */
    public void put(final MemorySegment origin, final int count, final MpiDatatype type, final int targetRank,
        final long targetDisp) {
        put(origin, count, type, targetRank, targetDisp, count, type);
    }

    /**
     * {@code MPI_Get}.
     */
    public void get(final MemorySegment origin, final int originCount, final MpiDatatype originType,
        final int targetRank, final long targetDisp, final int targetCount, final MpiDatatype targetType) {
        Errors.checkBuffer(origin, originCount, originType, "MPI_Get", "origin_addr");
        final int rc;
        try {
            rc = (int)MpiNative.GET.invokeExact(origin, originCount, originType.handle(), Predefined.rank(targetRank),
                targetDisp, targetCount, targetType.handle(), handle);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw failed(rc, "MPI_Get", targetRank, targetDisp, targetCount, targetType);
        }
    }

    /**
     * {@code MPI_Get} of {@code count} elements of {@code type}.
     */
    public void get(final MemorySegment origin, final int count, final MpiDatatype type, final int targetRank,
        final long targetDisp) {
        get(origin, count, type, targetRank, targetDisp, count, type);
    }

    /**
     * {@code MPI_Accumulate}.
     */
    public void accumulate(final MemorySegment origin, final int count, final MpiDatatype type, final int targetRank,
        final long targetDisp, final MpiOp op) {
        Errors.checkBuffer(origin, count, type, "MPI_Accumulate", "origin_addr");
        final int rc;
        try {
            rc = (int)MpiNative.ACCUMULATE.invokeExact(origin, count, type.handle(), Predefined.rank(targetRank),
                targetDisp, count, type.handle(), Predefined.op(op), handle);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw failed(rc, "MPI_Accumulate", targetRank, targetDisp, count, type);
        }
    }

    /**
     * {@code MPI_Get_accumulate}: {@code result} receives the target's elements before {@code op} combined
     * {@code origin} into them.
     */
    public void getAccumulate(final MemorySegment origin, final MemorySegment result, final int count,
        final MpiDatatype type, final int targetRank, final long targetDisp, final MpiOp op) {
        if (op != MpiOp.NO_OP) {
            Errors.checkBuffer(origin, count, type, "MPI_Get_accumulate", "origin_addr");
        }
        Errors.checkBuffer(result, count, type, "MPI_Get_accumulate", "result_addr");
        final int rc;
        try {
            rc = (int)MpiNative.GET_ACCUMULATE.invokeExact(origin, count, type.handle(), result, count, type.handle(),
                Predefined.rank(targetRank), targetDisp, count, type.handle(), Predefined.op(op), handle);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw failed(rc, "MPI_Get_accumulate", targetRank, targetDisp, count, type);
        }
    }

    /**
     * {@code MPI_Fetch_and_op} of one element of {@code type}.
     */
    public void fetchAndOp(final MemorySegment origin, final MemorySegment result, final MpiDatatype type,
        final int targetRank, final long targetDisp, final MpiOp op) {
        if (op != MpiOp.NO_OP) {
            Errors.checkBuffer(origin, 1, type, "MPI_Fetch_and_op", "origin_addr");
        }
        Errors.checkBuffer(result, 1, type, "MPI_Fetch_and_op", "result_addr");
        final int rc;
        try {
            rc = (int)MpiNative.FETCH_AND_OP.invokeExact(origin, result, type.handle(), Predefined.rank(targetRank),
                targetDisp, Predefined.op(op), handle);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw failed(rc, "MPI_Fetch_and_op", targetRank, targetDisp, 1, type);
        }
    }

    /**
     * {@code MPI_Compare_and_swap} of one element: the target's element becomes {@code origin}'s if it equals
     * {@code compare}'s; {@code result} receives its value before.
     */
    public void compareAndSwap(final MemorySegment origin, final MemorySegment compare, final MemorySegment result,
        final MpiDatatype type, final int targetRank, final long targetDisp) {
        Errors.checkBuffer(origin, 1, type, "MPI_Compare_and_swap", "origin_addr");
        Errors.checkBuffer(compare, 1, type, "MPI_Compare_and_swap", "compare_addr");
        Errors.checkBuffer(result, 1, type, "MPI_Compare_and_swap", "result_addr");
        final int rc;
        try {
            rc = (int)MpiNative.COMPARE_AND_SWAP.invokeExact(origin, compare, result, type.handle(),
                Predefined.rank(targetRank), targetDisp, handle);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw failed(rc, "MPI_Compare_and_swap", targetRank, targetDisp, 1, type);
        }
    }

    /**
     * {@code MPI_Rput}: a put whose request completes it locally (section 11.3.5).
     */
    public MpiRequest rput(final MemorySegment origin, final int count, final MpiDatatype type, final int targetRank,
        final long targetDisp) {
        Errors.checkBuffer(origin, count, type, "MPI_Rput", "origin_addr");
        final Scratch scratch = Scratch.get();
        final int rc;
        try {
            rc = (int)MpiNative.RPUT.invokeExact(origin, count, type.handle(), Predefined.rank(targetRank), targetDisp,
                count, type.handle(), handle, scratch.handle0);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw failed(rc, "MPI_Rput", targetRank, targetDisp, count, type);
        }
        return new MpiRequest(scratch.handle0(), type, "MPI_Rput");
    }

    /**
     * {@code MPI_Rget}: a get whose request completes it.
     */
    public MpiRequest rget(final MemorySegment origin, final int count, final MpiDatatype type, final int targetRank,
        final long targetDisp) {
        Errors.checkBuffer(origin, count, type, "MPI_Rget", "origin_addr");
        final Scratch scratch = Scratch.get();
        final int rc;
        try {
            rc = (int)MpiNative.RGET.invokeExact(origin, count, type.handle(), Predefined.rank(targetRank), targetDisp,
                count, type.handle(), handle, scratch.handle0);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw failed(rc, "MPI_Rget", targetRank, targetDisp, count, type);
        }
        return new MpiRequest(scratch.handle0(), type, "MPI_Rget");
    }

    /**
     * {@code MPI_Raccumulate}.
     */
    public MpiRequest raccumulate(final MemorySegment origin, final int count, final MpiDatatype type,
        final int targetRank, final long targetDisp, final MpiOp op) {
        Errors.checkBuffer(origin, count, type, "MPI_Raccumulate", "origin_addr");
        final Scratch scratch = Scratch.get();
        final int rc;
        try {
            rc = (int)MpiNative.RACCUMULATE.invokeExact(origin, count, type.handle(), Predefined.rank(targetRank),
                targetDisp, count, type.handle(), Predefined.op(op), handle, scratch.handle0);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw failed(rc, "MPI_Raccumulate", targetRank, targetDisp, count, type);
        }
        return new MpiRequest(scratch.handle0(), type, "MPI_Raccumulate");
    }

    /**
     * {@code MPI_Rget_accumulate}.
     */
    public MpiRequest rgetAccumulate(final MemorySegment origin, final MemorySegment result, final int count,
        final MpiDatatype type, final int targetRank, final long targetDisp, final MpiOp op) {
        if (op != MpiOp.NO_OP) {
            Errors.checkBuffer(origin, count, type, "MPI_Rget_accumulate", "origin_addr");
        }
        Errors.checkBuffer(result, count, type, "MPI_Rget_accumulate", "result_addr");
        final Scratch scratch = Scratch.get();
        final int rc;
        try {
            rc = (int)MpiNative.RGET_ACCUMULATE.invokeExact(origin, count, type.handle(), result, count, type.handle(),
                Predefined.rank(targetRank), targetDisp, count, type.handle(), Predefined.op(op), handle,
                scratch.handle0);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw failed(rc, "MPI_Rget_accumulate", targetRank, targetDisp, count, type);
        }
        return new MpiRequest(scratch.handle0(), type, "MPI_Rget_accumulate");
    }

    @Override
    public String toString() {
        return "MpiWin[" + flavor + ", 0x" + Long.toHexString(handle) + "]";
    }

    private static MpiException failed(final int rc, final String call, final int targetRank, final long targetDisp,
        final int count, final MpiDatatype type) {
        return Errors.of(rc, call, "target_rank=" + targetRank + " target_disp=" + targetDisp + " target_count=" + count
            + " datatype=" + type);
    }
}
