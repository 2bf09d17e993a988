package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;
import org.rma4j.internal.mpi.MpiLink;
import org.rma4j.shm.ControlFile;
import org.rma4j.shm.JobDirectory;
import org.rma4j.shm.RankState;
import org.rma4j.shm.ShmFormatException;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.WaitStrategy;

/**
 * One rank's membership in a job: its rank, the job size, the job's collective calls and the
 * windows it creates. Obtained from {@link Rma#init()} in a process started by {@code rmarun}, or
 * from {@link Rma#runThreads} in thread mode; both map the job's files the same way.
 *
 * <p>The job's collective calls ({@link #barrier()}, window creation, {@link Window#fence} and
 * {@link Window#free()} of its windows, {@link #close()}) are those of its world communicator
 * ({@link #world()}; other communicators have their own, see {@link Communicator}) and must be made by
 * every rank in the same order. Each carries its kind and a sequence number of the communicator that
 * peers compare: calls that do not match (one rank in fence while another frees
 * the window, or calls the job barrier) end with an {@link RmaException} naming both calls and ranks,
 * at every rank involved, instead of matching each other or waiting forever. A job handle belongs to
 * its rank: the collective calls of one communicator must not run concurrently in two threads (those of
 * different communicators may, see {@link Communicator}).
 *
 * <h2>Failures</h2>
 * A collective or blocking call that fails after it communicated (a peer failed, a wait timed out,
 * the calls did not match) leaves this rank out of step with its peers: the job records it, every
 * later collective call throws at once, and {@link #close()} (and {@link Window#close()}) abandon
 * instead of waiting for peers: the rank is marked failed (or, when the failure was a peer's, stopped),
 * unmaps everything, and the peers' blocking calls throw {@link RankFailedException} naming it within
 * the liveness period (100 ms). A call that throws for a bad argument changes nothing and records no
 * failure. {@link Rma#run} abandons the job as well when the program's body throws, and
 * {@link #abort(int)} ends every rank of the job (MPI_ABORT).
 */
public final class RmaJob implements AutoCloseable {
    /** How long MPI_Abort retries the deletion of this node's directory (see {@link #abort}). */
    private static final long ABORT_CLEANUP_NS = 100_000_000L;

    static {
        org.rma4j.internal.RuntimeAccess.set(new RuntimeAccessImpl());
    }

    /**
     * Info key (rma4j-specific): {@code "false"} turns off the epoch checks of communication and
     * flush calls on a window (RMA_SYNC), for speed in programs known to be correct.
     */
    public static final String EPOCH_CHECKS_INFO_KEY = "rma4j_epoch_checks";

    /**
     * Info key (rma4j-specific): how many notifications one origin may have published to one target rank
     * and not yet consumed by it in the window (the capacity of the origin's notification lane at the
     * target), a power of two in 1..16384; rank 0's value applies to the window. The default is 2048 divided
     * by the ranks, rounded down to a power of two, between 64 and 1024 (1024 up to 2 ranks, 256 at 8, 64 from
     * 32 on): deep lanes for few ranks, so that a stream of small notifications keeps flowing while its
     * consumer is descheduled. Each rank's part of the window file holds one lane per origin:
     * {@code ranks x (128 + 64 x capacity)} bytes. A full lane makes its origin wait (draining its own lanes
     * meanwhile), never deadlock.
     */
    public static final String NOTIFY_CAPACITY_INFO_KEY = "rma4j_notify_capacity";

    /** Largest window part one rank may allocate. */
    public static final long MAX_WINDOW_BYTES = 1L << 40;

    /** Job lifecycle. */
    enum State {
        OPEN, CLOSED
    }

    private final int rank;
    private final int size;
    private final JobDirectory directory;
    private final ControlFile control;
    private WaitStrategy waitStrategy;
    private final boolean ownsDirectory;
    /** The windows open at this rank and the contexts of the communicators it made. */
    private final JobResources resources = new JobResources();
    private final SharedAllocator allocator;
    private final CommContext worldContext;
    private final Communicator world;
    private final boolean processMode;
    /** The number this rank gives the next communicator file it may create ({@link CommFile#name}). */
    private final java.util.concurrent.atomic.AtomicInteger commNumber = new java.util.concurrent.atomic.AtomicInteger();
    private State state = State.OPEN;
    private final long[] pids;
    /** The first failure of this rank: written under this object's lock, read without it (every collective). */
    private volatile Throwable failure;
    /** Process mode: ends this process when another rank aborts the job, or null. */
    private AbortWatcher abortWatcher;
    /** The rank's connection to MPI in a job launched by an MPI launcher, or null. */
    private final MpiLink link;

    private RmaJob(final int rank, final JobDirectory directory, final ControlFile control,
        final WaitStrategy waitStrategy, final boolean ownsDirectory, final boolean processMode, final MpiLink link) {
        this.rank = rank;
        this.size = control.ranks();
        this.directory = directory;
        this.control = control;
        this.waitStrategy = waitStrategy;
        this.pids = new long[size];
        this.link = link;
        this.worldContext = link != null && link.nodes() > 1
            ? CommContext.acrossNodes(this, "world", java.util.stream.IntStream.range(0, size).toArray(), rank,
                MpiCollective.key(-1, 0), true)
            : CommContext.world(this, control, rank);
        this.world = new Communicator(worldContext);
        this.ownsDirectory = ownsDirectory;
        this.processMode = processMode;
        this.allocator = new SharedAllocator(directory, rank);
    }

    /**
     * Joins rank {@code rank} of the job in {@code directory}: maps its control file, records this process in the
     * rank table and waits for every rank to join. A job joined in process mode ({@code processMode}) is the only
     * job of its process: {@link #abort} ends the process, and a watcher thread ends it when another rank aborts
     * the job. A job launched by an MPI launcher has a {@code link} (else null): {@code directory} is this node's,
     * its control file has a row per rank of the job (those of other nodes
     * {@link org.rma4j.shm.RankState#ELSEWHERE}), and the world communicator goes through MPI when the job spans
     * several nodes.
     *
     * @throws RmaException OTHER if the control file is not a valid control file, RANK for a rank outside it.
     */
    static RmaJob join(final JobDirectory directory, final int rank, final WaitStrategy waitStrategy,
        final boolean ownsDirectory, final boolean processMode, final MpiLink link) {
        final ControlFile control;
        try {
            control = ControlFile.open(directory.controlFile());
        } catch (final ShmFormatException e) {
            throw new RmaException(ErrorClass.OTHER, "rank " + rank + " cannot join the job: " + e.getMessage(), e);
        }
        try {
            if (rank < 0 || rank >= control.ranks()) {
                throw new RmaException(ErrorClass.RANK,
                    "rank " + rank + " is outside the job's 0.." + (control.ranks() - 1));
            }
            control.join(rank);
            final RmaJob job = new RmaJob(rank, directory, control, waitStrategy, ownsDirectory, processMode, link);
            job.barrier();
            for (int r = 0; r < job.size; r++) {
                job.pids[r] = control.pid(r);
            }
            if (processMode) {
                job.abortWatcher = AbortWatcher.start(control, rank);
            }
            if (link != null && link.nodes() > 1) {
                // A rank of another node that fails tells this one; its row of this node's file then says so.
                FailureNotices.listen(link, control);
            }
            if (rank == job.nodeLeader()) {
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
     * MPI_COMM_WORLD: the communicator of every rank of the job, in job rank order. The job's collective
     * calls ({@link #barrier()}, {@link #allocate}, ...) are shorthands for calls on it. Always the same
     * object; it cannot be freed.
     */
    public Communicator world() {
        return world;
    }

    /**
     * MPI_COMM_RANK of the job's ranks (MPI_COMM_WORLD).
     *
     * @return this process's rank, 0..size()-1.
     */
    public int rank() {
        return rank;
    }

    /**
     * MPI_COMM_SIZE of the job's ranks (MPI_COMM_WORLD).
     *
     * @return the number of ranks in the job.
     */
    public int size() {
        return size;
    }

    /**
     * MPI_COMM_GROUP of the job's ranks (MPI_COMM_WORLD).
     *
     * @return the group of every rank of the job, 0..size()-1 (the group of its windows).
     */
    public Group group() {
        return Group.range(size);
    }

    /**
     * Blocks until every rank has called it (MPI_BARRIER); every store made before it is seen after it.
     *
     * @throws RankFailedException if a rank dies or leaves while others wait.
     */
    public void barrier() {
        world.barrier();
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
        return world.allocateShared(sizeBytes, dispUnit, info);
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
        return world.allocate(sizeBytes, dispUnit, info);
    }

    /**
     * MPI_WIN_CREATE (MPI-3.1 section 11.2.1): collective; exposes {@code base} ({@code base.byteSize()}
     * bytes, 0 allowed) at every rank. The memory may be any memory in a shared mapping of the job:
     * {@link #allocMem} memory or a slice of it, or the memory of an allocate or allocateShared window;
     * memory outside a shared mapping (a Java array, a private arena) cannot be reached by other processes.
     *
     * @throws RmaException BASE for memory outside a shared mapping, DISP / INFO_VALUE for bad arguments at
     *                      any rank; NO_MEM at every rank if the window file does not fit in the job's
     *                      shared memory file system.
     */
    public Window create(final MemorySegment base, final int dispUnit, final Info info) {
        return world.create(base, dispUnit, info);
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
        return world.createDynamic(info);
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
            throw new RmaException(ErrorClass.SIZE,
                "allocMem size=" + sizeBytes + " is outside 0.." + MAX_WINDOW_BYTES);
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
     *
     * <p>After a failed call of this rank (see the class comment) it abandons the job instead of waiting:
     * no collective call is made, the rank is marked failed, and nothing is thrown (the failure was
     * thrown by the call that failed). If the wait for the peers fails, the job is abandoned as well and
     * the failure thrown.
     */
    @Override
    public void close() {
        if (state == State.CLOSED) {
            return;
        }
        if (failure != null) {
            abandon(failure);
            return;
        }
        try {
            worldContext.collective(CollectiveCalls.Kind.CLOSE, 0, worldContext.barrierWait());
        } catch (final RuntimeException e) {
            abandon(e);
            throw e;
        }
        releaseLocally();
        control.markFinished(rank);
        control.close();
        if (ownsDirectory) {
            directory.delete();
        }
        if (link != null) {
            link.close(waitStrategy);
        }
    }

    /**
     * Ends this rank's use of the job without a collective call: closes the state, stops the abort
     * watcher, unmaps every window and allocation.
     */
    private void releaseLocally() {
        state = State.CLOSED;
        if (link != null) {
            FailureNotices.stop(link);
        }
        if (abortWatcher != null) {
            abortWatcher.stop();
        }
        resources.releaseAll();
        worldContext.unmap();
        allocator.close();
    }

    /**
     * Abandons the job after a failure of this rank: unmaps everything and records the rank as failed
     * (or, when the failure is a peer's, as aborted) so that peers waiting for it throw instead of
     * hanging. No collective call is made. Idempotent.
     */
    void abandon(final Throwable cause) {
        if (state == State.CLOSED) {
            return;
        }
        recordFailure(cause);
        releaseLocally();
        if (isConsequence(cause)) {
            control.markAborted(rank);
        } else {
            control.markFailed(rank);
            if (link != null && link.nodes() > 1) {
                FailureNotices.announce(link, size, rank);
            }
        }
        control.close();
        // NOTE: in a job across nodes the node's other ranks may still use the directory; the shutdown hooks of
        // the node's ranks remove it when the launcher ends the job.
        if (ownsDirectory && link == null) {
            directory.delete();
        }
    }

    /**
     * Whether {@code cause} only reports another rank's failure: this rank then stops as a consequence.
     */
    private boolean isConsequence(final Throwable cause) {
        return cause instanceof RankFailedException failed && failed.rank() != rank;
    }

    /**
     * MPI_ABORT: ends every rank of the job with exit status {@code status} (0..255), from any rank at any
     * time. In process mode this process and every other rank's process exit with that status (each
     * rank's watcher thread sees the abort within a few tens of milliseconds, wherever its program is);
     * the call does not return. In thread mode every rank is marked failed, so their blocking calls
     * throw, and this call throws {@link JobAbortedException}; {@link Rma#runThreads} then throws a
     * {@link JobAbortedException} with the status.
     *
     * @throws JobAbortedException in thread mode.
     */
    public void abort(final int status) {
        if (state == State.CLOSED) {
            throw new RmaException(ErrorClass.OTHER, "abort on a closed job (rank " + rank + ")");
        }
        if (link != null) {
            // NOTE: the abort word ends this node's other ranks without their shutdown hooks (their watchers
            // halt them), and the launcher may end this rank as soon as one of them exits: the node's directory
            // goes before the word is set (its files are unlinked, every mapping of them stays valid; the other
            // nodes' ranks are stopped with SIGTERM and remove theirs). A rank of this node may still be creating
            // a file in it: delete until it is gone (bounded).
            final long deadline = System.nanoTime() + ABORT_CLEANUP_NS;
            while (!directory.delete() && System.nanoTime() < deadline) {
                LockSupport.parkNanos(1_000_000L);
            }
        }
        final int code = control.abort(status);
        final JobAbortedException aborted = new JobAbortedException(rank, code);
        if (link != null) {
            System.out.flush();
            System.err.println("rma4j: rank " + rank + " aborted the job with status " + code + " (MPI_Abort)");
            System.err.flush();
            abandon(aborted);
            link.abort(code);
        }
        if (processMode) {
            System.out.flush();
            System.err.println("rma4j: rank " + rank + " aborted the job with status " + code);
            System.err.flush();
            abandon(aborted);
            Runtime.getRuntime().halt(code);
        }
        for (int r = 0; r < size; r++) {
            if (r != rank && control.state(r) != RankState.FINISHED) {
                control.markFailed(r);
            }
        }
        abandon(aborted);
        throw aborted;
    }

    /**
     * Records that a call of this rank failed in a way that leaves it out of step with its peers (the
     * first such failure is kept).
     *
     * @return {@code e}, for {@code throw recordFailure(e)}.
     */
    synchronized <T extends Throwable> T recordFailure(final T e) {
        if (failure == null) {
            failure = e;
        }
        return e;
    }

    /**
     * @return the first recorded failure of this rank, or null.
     */
    Throwable failure() {
        return failure;
    }

    /**
     * MPI_WAITANY over requests of any kinds ({@link Request}: RMA, notification and message requests of this
     * job together): blocks until one active request completes and returns its index, or -1 (MPI_UNDEFINED) if
     * none is active; nulls and inactive requests are skipped. Each kind's own {@code waitAny} sleeps on its
     * arrivals; this one polls them, parking up to 1 ms between rounds (see {@code RequestWaits}).
     *
     * @throws RankFailedException if a rank of the job fails meanwhile.
     * @throws RmaTimeoutException after the job's wait timeout.
     */
    public int waitAny(final Request... requests) {
        return RequestWaits.waitAny(this, requests);
    }

    /** MPI_WAITALL over requests of any kinds: {@link #waitAny(Request...)} until none is active. */
    public void waitAll(final Request... requests) {
        RequestWaits.waitAll(this, requests);
    }

    /** MPI_TESTANY over requests of any kinds: one round; the index of a completed request, or -1. */
    public int testAny(final Request... requests) {
        return RequestWaits.testAny(this, requests);
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

    /** @return the liveness of every rank of the job, for a wait of this rank. */
    Liveness liveness() {
        return control.liveness(rank, true);
    }

    WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    /**
     * Test hook: replaces this rank's wait strategy for the waits that read it at each call (passive-target
     * lock requests), so that a test can give one call a timeout; the barrier, windows made before and their
     * PSCW and notification waits keep the strategy they were made with. Called by the rank's own thread.
     */
    void replaceWaitStrategyForTest(final WaitStrategy strategy) {
        this.waitStrategy = strategy;
    }

    /**
     * @return the number of windows made over the world so far.
     */
    int windowSequence() {
        return worldContext.windowSequence();
    }

    /**
     * @return the world's collective machinery.
     */
    CommContext worldContext() {
        return worldContext;
    }

    /**
     * @return a number for a communicator file this rank may create, never returned before (numbers that
     *         end up unused are skipped).
     */
    int takeCommNumber() {
        return commNumber.getAndIncrement();
    }

    /**
     * @return the process id of {@code rank}, as recorded when every rank had joined.
     */
    long pidOf(final int rank) {
        return pids[rank];
    }

    boolean processMode() {
        return processMode;
    }

    /**
     * @return the rank's connection to MPI (a job launched by an MPI launcher), or null.
     */
    MpiLink link() {
        return link;
    }

    /**
     * @return the node {@code jobRank} runs on, numbered from 0 in the order of the nodes' lowest ranks; 0 in a
     *         job of one node.
     */
    int nodeOf(final int jobRank) {
        return link == null ? 0 : link.nodeOf(jobRank);
    }

    /**
     * @return the lowest job rank of this rank's node (the one that made the node's job directory).
     */
    int nodeLeader() {
        int leader = 0;
        while (nodeOf(leader) != nodeOf(rank)) {
            leader++;
        }
        return leader;
    }

    /** @return the windows and communicator contexts this rank has open. */
    JobResources resources() {
        return resources;
    }
}
