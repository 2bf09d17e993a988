package org.rma4j.examples.mcs;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import org.rma4j.Datatype;
import org.rma4j.Op;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.examples.SpinWait;

/**
 * A mutual-exclusion lock across the ranks of a job: the MCS queue lock of Mellor-Crummey and Scott
 * (ACM TOCS 9(1), 1991) built from MPI-3 atomic operations in a passive-target epoch, as in section
 * 4.3 ("Distributed Locks") of Hoefler et al., "Remote Memory Access Programming in MPI-3"
 * (Listing 2: acquire, Listing 3: release).
 *
 * <p>Waiting ranks form a queue through their {@code NEXT} pointers (ranks, {@link McsLayout}); the
 * host rank's {@code TAIL} names the last one. A rank enqueues itself by swapping its rank into the
 * tail and linking itself behind the previous tail; the head of the queue holds the lock and hands it
 * to its successor on release. Each rank waits on a word in its own memory, so a hand-over touches
 * one remote word and the lock grants in FIFO order.
 *
 * <p>The paper notifies the successor with {@code MPI_Send} / {@code MPI_Recv}; rma4j has no
 * point-to-point messages, so a waiting rank instead spins on a {@code BLOCKED} flag in its own
 * window that its predecessor clears, as in the original algorithm. Polling reads the flag with
 * {@code fetch_and_op(NO_OP)} followed by a flush, the portable way to read window memory that other
 * ranks update atomically.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>{@link #create} and {@link #close} are collective. In between the lock holds a
 *   {@code lock_all} epoch on its own window, so {@link #acquire} and {@link #release} are one-sided:
 *   they need no call from other ranks.</li>
 *   <li>At most one rank is between a return of {@link #acquire} and the matching {@link #release}.
 *   Every store and RMA operation completed (flushed) by the holder before {@code release} is seen
 *   by the next holder after its {@code acquire} returns.</li>
 *   <li>Not reentrant; a handle belongs to its rank and is not thread-safe. Misuse (acquire while
 *   held, release while not held, any call after close) throws {@link IllegalStateException}.</li>
 * </ul>
 */
public final class McsLock implements AutoCloseable {
    /*
     * Invariants: TAIL is NIL exactly when no rank holds or waits for the lock. A rank's NEXT is
     * written by a remote rank only between that rank's swap into TAIL and the owner's hand-over, and
     * the owner's own reset of NEXT happens before its swap, so the two never race. A rank's BLOCKED
     * is written remotely only after the owner linked itself into its predecessor's NEXT, which the
     * owner does after setting BLOCKED.
     *
     * Non-invariants: NEXT of the holder may still be NIL while a successor is already in TAIL (the
     * successor swapped but has not linked yet); release then waits for the link.
     *
     * Where each operation takes effect: acquire at the swap on TAIL (the queue order), release at the
     * compare_and_swap that empties TAIL or at the accumulate that clears the successor's BLOCKED.
     */

    /** Lifecycle of one rank's handle. */
    enum State {
        IDLE, HELD, CLOSED
    }

    /** Origin of the hand-over: one long, 0. */
    private static final MemorySegment ZERO = MemorySegment.ofArray(new long[] {0});

    private final Window window;
    private final int rank;
    private final int hostRank;
    /** Origin of the link into the predecessor's NEXT: one long, this rank. */
    private final MemorySegment self;
    private State state = State.IDLE;
    /** Acquisitions by this rank that found a predecessor and waited for its hand-over. */
    private long queuedAcquisitions;

    private McsLock(final Window window, final int rank, final int hostRank) {
        this.window = window;
        this.rank = rank;
        this.hostRank = hostRank;
        this.self = MemorySegment.ofArray(new long[] {rank});
    }

    /**
     * Creates a lock whose tail lives at rank 0. Collective.
     */
    public static McsLock create(final RmaJob job) {
        return create(job, 0);
    }

    /**
     * Creates a lock whose tail lives at {@code hostRank}: allocates the window, initializes every
     * pointer to NIL and opens a {@code lock_all} epoch held until {@link #close()}. Collective: every
     * rank passes the same host rank.
     *
     * @throws IllegalArgumentException if {@code hostRank} is not a rank of the job.
     */
    public static McsLock create(final RmaJob job, final int hostRank) {
        McsLayout.checkHostRank(hostRank, job.size());
        final int rank = job.rank();
        final Window window = job.allocate(McsLayout.recordBytes(rank, hostRank), McsLayout.DISP_UNIT);
        final MemorySegment local = window.segment();
        local.set(JAVA_LONG, McsLayout.NEXT_OFFSET, McsLayout.NIL);
        local.set(JAVA_LONG, McsLayout.BLOCKED_OFFSET, 0L);
        if (rank == hostRank) {
            local.set(JAVA_LONG, McsLayout.TAIL_OFFSET, McsLayout.NIL);
        }
        // Every rank's initial values are seen everywhere before any rank's first atomic operation.
        job.barrier();
        // Section 4.3: "all processes call MPI_Win_lock_all to initiate shared-mode access, since
        // accesses will be performed by using only atomic operations."
        window.lockAll();
        return new McsLock(window, rank, hostRank);
    }

    /**
     * Blocks until this rank holds the lock (Listing 2).
     *
     * @throws IllegalStateException if this rank holds it already or the lock is closed.
     */
    public void acquire() {
        checkState(State.IDLE, "acquire");
        final MemorySegment local = window.segment();
        // Listing 2, lines 1-3: reset this rank's queue element. No other rank can write it now: no rank
        // has this rank as predecessor until the swap below.
        local.set(JAVA_LONG, McsLayout.NEXT_OFFSET, McsLayout.NIL);
        window.sync();
        // Listing 2, lines 4-9: swap this rank into the tail; the previous tail is the predecessor.
        final long predecessor = window.fetchAndOp((long)rank, hostRank, McsLayout.TAIL_OFFSET, Op.REPLACE);
        window.flush(hostRank);
        if (predecessor != McsLayout.NIL) {
            queuedAcquisitions++;
            // NOTE: BLOCKED must be set (and synced) before the link below makes this rank known to the
            // predecessor, whose hand-over clears it; set later, it could overwrite that clear and this
            // rank would wait forever.
            local.set(JAVA_LONG, McsLayout.BLOCKED_OFFSET, 1L);
            window.sync();
            // Listing 2, lines 11-18: link behind the predecessor (accumulate REPLACE: an atomic put).
            final int target = (int)predecessor;
            window.accumulate(self, 1, Datatype.LONG, target, McsLayout.NEXT_OFFSET, 1, Datatype.LONG, Op.REPLACE);
            window.flush(target);
            // Listing 2, line 19 (MPI_Recv of the hand-over) becomes: wait until the predecessor clears BLOCKED.
            final SpinWait spin = new SpinWait();
            while (readOwn(McsLayout.BLOCKED_OFFSET) != 0) {
                spin.idle();
            }
        }
        state = State.HELD;
    }

    /**
     * Releases the lock, handing it to the next waiting rank if there is one (Listing 3).
     *
     * @throws IllegalStateException if this rank does not hold the lock.
     */
    public void release() {
        checkState(State.HELD, "release");
        // Listing 3, lines 1-6 (lost in the transcription): read this rank's next pointer.
        long next = readOwn(McsLayout.NEXT_OFFSET);
        if (next == McsLayout.NIL) {
            // Listing 3, lines 7-16: if this rank is still the tail, empty the queue.
            final long tail = window.compareAndSwap((long)rank, McsLayout.NIL, hostRank, McsLayout.TAIL_OFFSET);
            window.flush(hostRank);
            if (tail != rank) {
                // Listing 3, lines 17-25: a successor swapped itself into the tail but has not linked
                // itself yet; wait for its link.
                final SpinWait spin = new SpinWait();
                while ((next = readOwn(McsLayout.NEXT_OFFSET)) == McsLayout.NIL) {
                    spin.idle();
                }
            }
        }
        if (next != McsLayout.NIL) {
            // Listing 3, lines 27-29 (MPI_Send to the successor) becomes: clear its BLOCKED flag.
            final int successor = (int)next;
            window.accumulate(ZERO, 1, Datatype.LONG, successor, McsLayout.BLOCKED_OFFSET, 1, Datatype.LONG,
                Op.REPLACE);
            window.flush(successor);
        }
        state = State.IDLE;
    }

    /**
     * @return whether this rank holds the lock.
     */
    public boolean isHeld() {
        return state == State.HELD;
    }

    /**
     * @return how many of this rank's acquisitions found the lock held or awaited and queued behind a
     *         predecessor.
     */
    public long queuedAcquisitions() {
        return queuedAcquisitions;
    }

    /**
     * @return the tail pointer, read atomically: the rank that enqueued last, or {@link McsLayout#NIL}
     *         when no rank holds or waits for the lock. A snapshot, for tests.
     */
    long tail() {
        if (state == State.CLOSED) {
            throw new IllegalStateException("tail of the MCS lock at rank " + rank + " after close");
        }
        final long tail = window.fetchAndOp(0L, hostRank, McsLayout.TAIL_OFFSET, Op.NO_OP);
        window.flush(hostRank);
        return tail;
    }

    /**
     * @return the rank that hosts the tail.
     */
    public int hostRank() {
        return hostRank;
    }

    /**
     * Ends the {@code lock_all} epoch and frees the window. Collective; idempotent.
     *
     * @throws IllegalStateException if this rank holds the lock.
     */
    @Override
    public void close() {
        if (state == State.CLOSED) {
            return;
        }
        if (state == State.HELD) {
            throw new IllegalStateException("close of the MCS lock while rank " + rank + " holds it; release it first");
        }
        window.unlockAll();
        window.free();
        state = State.CLOSED;
    }

    /**
     * Reads a word of this rank's record atomically: fetch_and_op with NO_OP, completed by a flush
     * (Listing 3, lines 21-22).
     */
    private long readOwn(final long disp) {
        final long value = window.fetchAndOp(0L, rank, disp, Op.NO_OP);
        window.flush(rank);
        return value;
    }

    private void checkState(final State expected, final String call) {
        if (state != expected) {
            throw new IllegalStateException(
                call + " of the MCS lock at rank " + rank + " in state " + state + " (expected " + expected + ")");
        }
    }
}
