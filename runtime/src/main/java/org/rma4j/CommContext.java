package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.util.function.IntFunction;
import org.rma4j.shm.ControlFile;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.DisseminationBarrier;
import org.rma4j.shm.WaitTimeoutException;

/**
 * One rank's collective machinery of one communicator (MPI-3.1 section 6.4: the "context" that keeps a
 * communicator's collective calls apart from every other's): the members, this rank's number among
 * them, the order of its collective calls and their matching ({@link CollectiveCalls}), the barrier, the
 * record areas of the creation protocols, the exchange of data collectives, and the record of a failed
 * call.
 *
 * <p>The world's context uses the control file's call words, barrier and scratch slots (as the job did
 * before communicators existed) and gets a communicator file for its exchanges at its first data
 * collective; every other communicator's context lives in its own communicator file, made by
 * {@link CommCreation}. A communicator whose members run on several nodes (the world of a job across nodes
 * among them) has no file: its barrier, call words, records and exchange go through an MPI communicator
 * ({@link MpiCollective}, {@link MpiExchange}).
 *
 * <p>A context is referenced by its {@link Communicator} and by every window and Messaging layer made
 * over it (MPI_COMM_FREE leaves them usable, MPI-3.1 section 6.4.3); it unmaps its file when the last
 * reference goes, or when the job closes. Not thread-safe: a rank's collective calls on one communicator
 * are made by one thread at a time.
 */
final class CommContext {
    private final RmaJob job;
    private final String id;
    private final int[] members;
    private final int rank;
    private final ControlFile control;
    private final CollectiveCalls calls;
    private final Runnable barrierWait;
    private final IntFunction<MemorySegment> records;
    /** The context's own file, or null for the world's and for one across nodes. */
    private final CommFile file;
    /** The MPI machinery of a communicator across nodes, or null. */
    private final MpiCollective mpi;
    private final boolean world;
    /** The file of the exchange halves: {@link #file}, or for the world one made at its first exchange. */
    private CommFile exchangeFile;
    private Exchange exchange;
    private int windowSequence;
    private int exchangeRounds;
    private Throwable failure;
    private int references = 1;

    private CommContext(final RmaJob job, final String id, final int[] members, final int rank,
        final ControlFile control, final CollectiveCalls calls, final Runnable barrierWait,
        final IntFunction<MemorySegment> records, final CommFile file, final MpiCollective mpi, final boolean world) {
        this.job = job;
        this.id = id;
        this.members = members;
        this.rank = rank;
        this.control = control;
        this.calls = calls;
        this.barrierWait = barrierWait;
        this.records = records;
        this.file = file;
        this.exchangeFile = file;
        this.mpi = mpi;
        this.world = world;
    }

    /**
     * The world's context: every rank of the job, over the control file.
     */
    static CommContext world(final RmaJob job, final ControlFile control, final int rank) {
        final int[] all = new int[control.ranks()];
        for (int r = 0; r < all.length; r++) {
            all[r] = r;
        }
        final CollectiveCalls calls = new CollectiveCalls(control, rank);
        final DisseminationBarrier barrier = control.barrier(rank, job.waitStrategy(),
            calls.whileWaiting(control.liveness(rank, true)));
        return new CommContext(job, "world", all, rank, control, calls, calls.barrierWait(barrier), control::scratch,
            null, null, true);
    }

    /**
     * The context of a communicator whose members run on several nodes, its messages keyed by {@code key}
     * ({@link MpiCollective#key}); the world's if {@code world}. Liveness checks look at the members' rows of this
     * node's control file (the other nodes' rows count as alive: their launcher watches them).
     */
    static CommContext acrossNodes(final RmaJob job, final String id, final int[] members, final int rank,
        final long key, final boolean world) {
        final ControlFile view = world ? job.control() : job.control().subset(members);
        final MpiCollective collective = new MpiCollective(job.link(), key, members, rank);
        final CollectiveCalls calls = new CollectiveCalls(view, rank, collective,
            world ? "the job" : "communicator " + id);
        final Liveness liveness = calls.whileWaiting(view.liveness(rank, true));
        final String what = "the members of " + (world ? "the world" : "communicator " + id) + " to arrive";
        return new CommContext(job, id, members, rank, view, calls,
            () -> collective.barrier(job.waitStrategy(), liveness, what), collective::record, null, collective, world);
    }

    /**
     * The context of a communicator of {@code members} (job ranks, in communicator order) over its mapped
     * {@code file}.
     */
    static CommContext over(final RmaJob job, final String id, final int[] members, final int rank,
        final CommFile file) {
        final ControlFile view = job.control().subset(members);
        final CollectiveCalls calls = new CollectiveCalls(view, rank, file, "communicator " + id);
        final DisseminationBarrier barrier = file.barrier(rank, job.waitStrategy(),
            calls.whileWaiting(view.liveness(rank, true)));
        return new CommContext(job, id, members, rank, view, calls, calls.barrierWait(barrier), file::record, file,
            null, false);
    }

    RmaJob job() {
        return job;
    }

    /**
     * @return "world", or {@code c<creator>-<number>}.
     */
    String id() {
        return id;
    }

    boolean isWorld() {
        return world;
    }

    /**
     * @return whether the members run on several nodes (the communicator's collective calls go through MPI).
     */
    boolean acrossNodes() {
        return mpi != null;
    }

    /**
     * @return this rank's number in the communicator.
     */
    int rank() {
        return rank;
    }

    int size() {
        return members.length;
    }

    /**
     * @return the job rank of {@code member}.
     */
    int jobRank(final int member) {
        return members[member];
    }

    /**
     * @return the members' job ranks (not a copy).
     */
    int[] members() {
        return members;
    }

    /**
     * @return the members as a group of job ranks.
     */
    Group group() {
        return isWorld() ? Group.range(members.length) : Group.of(members);
    }

    /**
     * @return the control file's rows of the members, numbered as the members.
     */
    ControlFile control() {
        return control;
    }

    CollectiveCalls calls() {
        return calls;
    }

    /**
     * @return the wait of the communicator's barrier, for its collective calls.
     */
    Runnable barrierWait() {
        return barrierWait;
    }

    /**
     * @return the creation record area of {@code member}.
     */
    MemorySegment record(final int member) {
        return records.apply(member);
    }

    /**
     * @return the exchange of the data collectives; the world's makes its file at its first use (a
     *         collective call of every rank, as every data collective is).
     */
    Exchange exchange() {
        if (exchange == null) {
            if (mpi != null) {
                exchange = new MpiExchange(this, mpi);
            } else {
                if (exchangeFile == null) {
                    exchangeFile = CommCreation.exchangeFile(this);
                }
                exchange = new ShmExchange(this, exchangeFile);
            }
        }
        return exchange;
    }

    /**
     * @return the exchange half of the next round (0 or 1), counted over every exchange of the context.
     */
    int nextHalf() {
        return exchangeRounds++ & 1;
    }

    int windowSequence() {
        return windowSequence;
    }

    /**
     * @return the name of the next window's file; numbers count the windows of this communicator.
     */
    String nextWindowName() {
        final int number = windowSequence++;
        return isWorld() ? "win-" + number : "win-" + id + "-" + number;
    }

    /**
     * Runs the wait of a collective call on this communicator: checks that this rank is in step on it,
     * publishes the call for the members' comparison, waits, and compares their calls. A failure of the
     * wait is recorded (the rank is out of step with the members) and rethrown naming the call.
     *
     * @param object 0 for the communicator, 1 + window number for a window.
     */
    void collective(final CollectiveCalls.Kind kind, final int object, final Runnable wait) {
        checkNotFailed(kind.callName());
        final long call = calls.begin(kind, object);
        try {
            wait.run();
        } catch (final RuntimeException e) {
            if (e instanceof WaitTimeoutException) {
                calls.timedOut();
            }
            throw recordFailure(Failures.translate(e, job.rank(), calls.describe(call)));
        } finally {
            calls.end();
        }
        try {
            calls.checkCompleted(call);
        } catch (final RmaException e) {
            throw recordFailure(e);
        }
    }

    /**
     * Records that a call on this communicator failed in a way that leaves the rank out of step with its
     * members; the job records it too (see {@link RmaJob}).
     *
     * @return {@code e}, for {@code throw recordFailure(e)}.
     */
    <T extends Throwable> T recordFailure(final T e) {
        if (failure == null) {
            failure = e;
        }
        job.recordFailure(e);
        return e;
    }

    /**
     * @return the first failure recorded on this communicator; for the world, on the job.
     */
    Throwable failure() {
        return isWorld() ? job.failure() : failure;
    }

    /**
     * @throws RmaException OTHER (or the kind of the first failure) if a call on this communicator failed
     *                      earlier: a collective call would not match the members'.
     */
    void checkNotFailed(final String call) {
        final Throwable first = failure();
        if (first == null) {
            return;
        }
        final String because = call + " at rank " + job.rank() + " after an earlier call of this rank failed on "
            + (isWorld() ? "the job" : "communicator " + id) + " (" + first + "); the rank is out of step with its"
            + " peers there and " + (isWorld() ? "can only leave the job" : "makes no more collective calls on it");
        // NOTE: the same kind of exception as the first failure, as a broken barrier throws.
        if (first instanceof RankFailedException failed) {
            throw new RankFailedException(failed.rank(), because, null);
        }
        if (first instanceof RmaTimeoutException) {
            throw new RmaTimeoutException(because, 0, null);
        }
        throw new RmaException(ErrorClass.OTHER, because);
    }

    /** A window or Messaging layer over this communicator starts to use it. */
    void retain() {
        references++;
    }

    /**
     * A user of this context is done with it; the last one unmaps its files.
     */
    void release() {
        if (references > 0 && --references == 0) {
            unmap();
            job.resources().forget(this);
        }
    }

    /** Unmaps the context's files whatever its references (the job closes). */
    void unmap() {
        references = 0;
        if (exchangeFile != null) {
            exchangeFile.close();
        }
        if (file != null) {
            file.close();
        }
        if (mpi != null) {
            mpi.close();
        }
    }

    @Override
    public String toString() {
        return "communicator " + id + " (rank " + rank + " of " + members.length + ")";
    }
}
