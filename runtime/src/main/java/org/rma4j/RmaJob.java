package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.rma4j.shm.ControlFile;
import org.rma4j.shm.JobDirectory;
import org.rma4j.shm.PeerFailedException;
import org.rma4j.shm.ShmBarrier;
import org.rma4j.shm.ShmFormatException;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.WaitTimeoutException;

/**
 * One rank's membership in a job: its rank, the job size, the job's collective calls and the
 * windows it creates. Obtained from {@link Rma#init()} in a process started by {@code rmarun}, or
 * from {@link Rma#runThreads} in thread mode; both map the job's files the same way.
 *
 * <p>Collective calls ({@link #barrier()}, window creation, {@link Window#free()}, {@link #close()})
 * must be made by every rank in the same order. A job handle belongs to its rank: its collective
 * calls must not run concurrently in two threads.
 */
public final class RmaJob implements AutoCloseable {
    /**
     * Info key (rma4j-specific): {@code "false"} turns off the epoch checks of communication and
     * flush calls on a window (RMA_SYNC), for speed in programs known to be correct.
     */
    public static final String EPOCH_CHECKS_INFO_KEY = "rma4j_epoch_checks";

    /**
     * Info key (rma4j-specific): entries of each rank's notification ring in the window, a power of
     * two (default 256). A full ring makes notifying origins wait, never deadlock.
     */
    public static final String NOTIFY_CAPACITY_INFO_KEY = "rma4j_notify_capacity";

    /** Largest window part one rank may allocate. */
    public static final long MAX_WINDOW_BYTES = 1L << 40;

    /** Job lifecycle. */
    enum State { OPEN, CLOSED }

    private final int rank;
    private final int size;
    private final JobDirectory directory;
    private final ControlFile control;
    private final WaitStrategy waitStrategy;
    private final ShmBarrier barrier;
    private final boolean ownsDirectory;
    private final List<Window> windows = new ArrayList<>();
    private final SharedAllocator allocator;
    private int windowSequence;
    private State state = State.OPEN;

    private RmaJob(
        final int rank, final JobDirectory directory, final ControlFile control, final WaitStrategy waitStrategy,
        final boolean ownsDirectory) {
        this.rank = rank;
        this.size = control.ranks();
        this.directory = directory;
        this.control = control;
        this.waitStrategy = waitStrategy;
        this.barrier = control.barrier(waitStrategy, control.liveness(rank, true));
        this.ownsDirectory = ownsDirectory;
        this.allocator = new SharedAllocator(directory, rank);
    }

    /**
     * Joins rank {@code rank} of the job in {@code directory}: maps its control file, records this
     * process in the rank table and waits for every rank to join.
     *
     * @throws RmaException OTHER if the control file is not a valid control file.
     */
    static RmaJob join(
        final JobDirectory directory, final int rank, final WaitStrategy waitStrategy, final boolean ownsDirectory) {
        final ControlFile control;
        try {
            control = ControlFile.open(directory.controlFile());
        } catch (final ShmFormatException e) {
            throw new RmaException(ErrorClass.OTHER, "rank " + rank + " cannot join the job: " + e.getMessage(), e);
        }
        try {
            if (rank < 0 || rank >= control.ranks()) {
                throw new RmaException(ErrorClass.RANK, "rank " + rank + " is outside the job's 0.."
                    + (control.ranks() - 1));
            }
            control.join(rank);
            final RmaJob job = new RmaJob(rank, directory, control, waitStrategy, ownsDirectory);
            job.barrier();
            if (rank == 0) {
                // Every rank has mapped the control file: its name can go, so a job killed later leaves less.
                control.unlink();
            }
            return job;
        } catch (final RuntimeException e) {
            control.close();
            throw e;
        }
    }

    /**
     * @return this process's rank, 0..size()-1.
     */
    public int rank() {
        return rank;
    }

    /**
     * @return the number of ranks in the job.
     */
    public int size() {
        return size;
    }

    /**
     * @return the group of every rank of the job, 0..size()-1 (the group of its windows).
     */
    public Group group() {
        return Group.range(size);
    }

    /**
     * Blocks until every rank has called it (MPI_BARRIER); every store made before it is seen after it.
     *
     * @throws org.rma4j.shm.PeerFailedException if a rank dies or leaves while others wait.
     */
    public void barrier() {
        checkOpen("barrier");
        try {
            barrier.await();
        } catch (final WaitTimeoutException e) {
            throw new WaitTimeoutException("barrier at rank " + rank + " of " + size, e.waitedNs());
        }
    }

    /**
     * MPI_WIN_ALLOCATE_SHARED (MPI-3.1 section 11.2.3): collective; allocates {@code sizeBytes} at every
     * rank (sizes may differ, 0 is valid) in one shared file, contiguous across ranks unless info
     * {@code alloc_shared_noncontig=true}. Every rank may load and store any rank's part through
     * {@link Window#sharedQuery}.
     *
     * @param sizeBytes this rank's size, >= 0.
     * @param dispUnit  this rank's displacement unit in bytes, > 0.
     * @param info      hints, or null.
     * @throws RmaException SIZE, DISP or INFO_VALUE for a bad argument at any rank; NO_MEM at every rank
     *                      if the job's shared memory file system has too little free space for the window.
     */
    public Window allocateShared(final long sizeBytes, final int dispUnit, final Info info) {
        checkOpen("allocateShared");
        return WindowCreation.allocateShared(this, sizeBytes, dispUnit, info);
    }

    /**
     * MPI_WIN_ALLOCATE (MPI-3.1 section 11.2.2): collective; like {@link #allocateShared} but other
     * ranks' memory is reachable only through RMA calls ({@link Window#sharedQuery} raises
     * RMA_FLAVOR).
     *
     * @throws RmaException SIZE, DISP or INFO_VALUE for a bad argument at any rank; NO_MEM at every rank
     *                      if the job's shared memory file system has too little free space for the window.
     */
    public Window allocate(final long sizeBytes, final int dispUnit, final Info info) {
        checkOpen("allocate");
        return WindowCreation.create(this, WindowFlavor.ALLOCATE, "allocate", sizeBytes, dispUnit, info, null);
    }

    /**
     * MPI_WIN_CREATE (MPI-3.1 section 11.2.1): collective; exposes {@code base} ({@code base.byteSize()}
     * bytes, 0 allowed) at every rank. The memory must come from {@link #allocMem}: memory outside a
     * shared mapping (a Java array, a private arena) cannot be reached by other processes.
     *
     * @throws RmaException BASE for memory not from allocMem, DISP / INFO_VALUE for bad arguments at
     *                      any rank; NO_MEM at every rank if the window file does not fit in the job's
     *                      shared memory file system.
     */
    public Window create(final MemorySegment base, final int dispUnit, final Info info) {
        checkOpen("create");
        final MemorySegment memory = base == null ? MemorySegment.NULL : base;
        return WindowCreation.create(this, WindowFlavor.CREATE, "create", memory.byteSize(), dispUnit, info, memory);
    }

    /**
     * MPI_WIN_CREATE_DYNAMIC (MPI-3.1 section 11.2.4): collective; a window without memory, to which
     * each rank attaches memory from {@link #allocMem} with {@link Window#attach}. Target displacements
     * are addresses in the target's process ({@link Rma#address}), displacement unit 1.
     *
     * @throws RmaException INFO_VALUE for a bad hint at any rank; NO_MEM at every rank if the window
     *                      file does not fit in the job's shared memory file system.
     */
    public Window createDynamic(final Info info) {
        checkOpen("createDynamic");
        return WindowCreation.create(this, WindowFlavor.DYNAMIC, "createDynamic", 0, 1, info, null);
    }

    /**
     * MPI_ALLOC_MEM: {@code sizeBytes} of zeroed memory in a shared mapping of this job, which
     * {@link #create} and {@link Window#attach} can expose to other ranks. Not collective. The memory
     * is reserved in the job's file system at the call, so a store into it never faults for want of space.
     *
     * @throws RmaException SIZE for a negative size; NO_MEM if the job's shared memory file system has too
     *                      little free space.
     */
    public MemorySegment allocMem(final long sizeBytes) {
        checkOpen("allocMem");
        if (sizeBytes < 0 || sizeBytes > MAX_WINDOW_BYTES) {
            throw new RmaException(ErrorClass.SIZE, "allocMem size=" + sizeBytes + " is outside 0.." + MAX_WINDOW_BYTES);
        }
        return allocator.allocate(sizeBytes);
    }

    /**
     * MPI_FREE_MEM: releases memory from {@link #allocMem}; it must no longer be in a window.
     *
     * @throws RmaException BASE if {@code base} is not the start of an allocation of this rank.
     */
    public void freeMem(final MemorySegment base) {
        checkOpen("freeMem");
        allocator.free(base);
    }

    /** {@link #allocate(long, int, Info)} with no hints. */
    public Window allocate(final long sizeBytes, final int dispUnit) {
        return allocate(sizeBytes, dispUnit, null);
    }

    /** {@link #allocateShared(long, int, Info)} with no hints. */
    public Window allocateShared(final long sizeBytes, final int dispUnit) {
        return allocateShared(sizeBytes, dispUnit, null);
    }

    /**
     * Leaves the job (like MPI_FINALIZE, collective): waits for every rank, unmaps every window still
     * open and the control file, and records this rank as finished. Idempotent.
     */
    @Override
    public void close() {
        if (state == State.CLOSED) {
            return;
        }
        try {
            barrier.await();
        } finally {
            state = State.CLOSED;
            for (final Window window : List.copyOf(windows)) {
                window.release();
            }
            windows.clear();
            allocator.close();
            control.markFinished(rank);
            control.close();
            if (ownsDirectory) {
                directory.delete();
            }
        }
    }

    /**
     * Abandons the job after a failure of this rank: unmaps everything and records the rank as failed
     * (or, when the failure is a peer's, as aborted) so that peers waiting for it throw instead of
     * hanging. No collective call is made.
     */
    void abandon(final Throwable cause) {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        for (final Window window : List.copyOf(windows)) {
            window.release();
        }
        windows.clear();
        allocator.close();
        if (cause instanceof PeerFailedException) {
            control.markAborted(rank);
        } else {
            control.markFailed(rank);
        }
        control.close();
        if (ownsDirectory) {
            directory.delete();
        }
    }

    /**
     * @return whether {@link #close()} was called.
     */
    public boolean isClosed() {
        return state == State.CLOSED;
    }

    @Override
    public String toString() {
        return "RmaJob{rank=" + rank + "/" + size + ", dir=" + directory + ", " + state + '}';
    }

    void checkOpen(final String call) {
        if (state != State.OPEN) {
            throw new RmaException(ErrorClass.OTHER, call + " on a closed job (rank " + rank + ")");
        }
    }

    ControlFile control() {
        return control;
    }

    JobDirectory directory() {
        return directory;
    }

    SharedAllocator allocator() {
        return allocator;
    }

    WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    int windowSequence() {
        return windowSequence;
    }

    String nextWindowName() {
        return "win-" + windowSequence++;
    }

    void remember(final Window window) {
        windows.add(window);
    }

    void forget(final Window window) {
        windows.remove(window);
    }
}
