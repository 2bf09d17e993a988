package org.rma4j;

import java.lang.foreign.MemorySegment;
import org.rma4j.shm.Liveness;

/**
 * What a window needs from below: reach a target's memory (put and get of bytes and of typed data), element
 * atomics, the targets' lock words, the fence's barrier, the signals of general active target
 * synchronization, completion (flush, sync) and the check of the peers' liveness. The window's parts
 * ({@link TargetAccess}, {@link PassiveTarget}, {@link ActiveTarget}) keep the MPI semantics: argument checks,
 * epochs, error classes; the transport does the mechanics, and only it knows where a target's memory is
 * (address resolution and range checks are its own).
 *
 * <p>Two implementations:
 * <ul>
 *   <li>{@link ShmTransport}: every target's memory is mapped in this process (a job of one node); an
 *   operation is a load, store or atomic instruction on the target's memory at the call, so it is complete
 *   when it returns, and completion calls are memory fences.</li>
 *   <li>{@link HybridTransport}: a window over a communicator whose ranks run on several nodes. Targets of this
 *   rank's node are reached through shared memory as above (a {@link ShmTransport} over the node's window
 *   file); the others through MPI: data by MPI one-sided calls, atomics, lock words and signals by requests to
 *   the target rank, which applies them to its memory as a local origin would ({@link TargetAgent}).</li>
 * </ul>
 *
 * <p>The caller has checked the window is open, {@code target} is a rank of the window (never PROC_NULL), the
 * epoch admits the call, the displacement is not negative, and the types and buffers of the call. Methods
 * taking {@code call} name it in their errors.
 */
interface WindowTransport {
    // ---------------------------------------------------------------- reach a target's memory (section 11.3)

    /**
     * Copies {@code origin} to target's bytes at {@code targetDisp * dispUnit} (MPI_PUT of contiguous bytes).
     *
     * @throws RmaException RMA_RANGE if they are not all in the target's window memory.
     */
    void put(String call, MemorySegment origin, int target, long targetDisp);

    /**
     * Copies target's bytes at {@code targetDisp * dispUnit} to {@code destination}; they are there when this
     * returns, as in shared memory.
     *
     * @throws RmaException RMA_RANGE as {@link #put(String, MemorySegment, int, long)}.
     */
    void get(String call, MemorySegment destination, int target, long targetDisp);

    /** MPI_PUT with datatypes (matching signatures, checked by the caller). */
    void put(String call, MemorySegment origin, long originCount, Datatype originType, int target, long targetDisp,
        long targetCount, Datatype targetType);

    /** MPI_GET with datatypes; the data is in {@code destination} when this returns. */
    void get(String call, MemorySegment destination, long originCount, Datatype originType, int target, long targetDisp,
        long targetCount, Datatype targetType);

    // ---------------------------------------------------------------- element atomics (sections 11.3.4, 11.7.1)

    /** MPI_ACCUMULATE: atomic per element against every other accumulate of the element's type, from anywhere. */
    void accumulate(String call, Op op, MemorySegment origin, long originCount, Datatype originType, int target,
        long targetDisp, long targetCount, Datatype targetType);

    /**
     * MPI_GET_ACCUMULATE ({@code origin} null for NO_OP); the previous elements are in {@code result} when this
     * returns.
     */
    void getAccumulate(String call, Op op, MemorySegment origin, long originCount, Datatype originType,
        MemorySegment result, long resultCount, Datatype resultType, int target, long targetDisp, long targetCount,
        Datatype targetType);

    /** MPI_FETCH_AND_OP of one element of {@code type} (basic or pair); {@code origin} null for NO_OP. */
    void fetchAndOp(String call, Op op, Datatype type, MemorySegment origin, MemorySegment result, int target,
        long targetDisp);

    /** MPI_FETCH_AND_OP of one element of a basic type as bits. @return the previous bits. */
    long fetchAndOp(String call, Op op, Datatype type, long operand, int target, long targetDisp);

    /** MPI_COMPARE_AND_SWAP of one element of a basic type as bits. @return the previous bits. */
    long compareAndSwap(String call, Datatype type, long compare, long value, int target, long targetDisp);

    // ---------------------------------------------------------------- lock words (section 11.5.3)

    /**
     * Blocks until this rank holds target's lock word in {@code type} (waiting through the job's strategy, with
     * {@code liveness}).
     *
     * @return whether the target exposes its window in a post epoch at that moment (the caller releases and
     *         raises RMA_CONFLICT: a window may not be locked and exposed at once).
     */
    boolean lock(LockType type, int target, Liveness liveness);

    /** {@link #tryLock}: the lock word was not free enough; nothing was taken. */
    int LOCK_BUSY = 0;
    /** {@link #tryLock}: taken. */
    int LOCK_TAKEN = 1;
    /** {@link #tryLock}: taken, and the target exposes its window in a post epoch at that moment (see {@link #lock}). */
    int LOCK_TAKEN_EXPOSED = 2;

    /**
     * Takes target's lock word in {@code type} if that needs no wait: one attempt (in shared memory one atomic on the
     * word), no wait and no message. A lock that has to wait, or one this transport takes only by a request to
     * another node, is {@link #lock}'s.
     *
     * @return {@link #LOCK_TAKEN}, {@link #LOCK_TAKEN_EXPOSED} or {@link #LOCK_BUSY}.
     */
    int tryLock(LockType type, int target);

    /**
     * Releases the hold of {@link #lock}; every operation of this rank on the target made before is complete at
     * the target when the next holder gets the word.
     */
    void unlock(LockType type, int target);

    /** @return the state of target's lock word, for messages (e.g. "exclusive by rank 2"). */
    String describeLock(int target);

    // ---------------------------------------------------------------- fence (section 11.5.1)

    /**
     * @return the wait of the window's collective calls (fence, free): every member arrives, each first
     *         completes its operations to every target.
     */
    Runnable fenceWait();

    // ---------------------------------------------------------------- general active target (section 11.5.2)

    /** Sends a post to {@code origin}: one more on the (origin, this rank) post counter. */
    void post(int origin);

    /**
     * Sends a complete to {@code target} after this rank's operations to it completed there: one more on the
     * (target, this rank) complete counter.
     */
    void complete(int target);

    // ---------------------------------------------------------------- notification delivery (Notified Access)

    /**
     * Publishes a notification of this rank to {@code target}, a rank this process does not map, after every
     * operation of this rank to it issued before (the notified access's data included) took effect there: the
     * target's node publishes it in this rank's lane of the target, so the data is in the target's window before
     * the notification can be matched (Notified Access, section III). A target this process maps is notified by
     * the window's {@link Notifications} directly, after the origin moved the data.
     *
     * @param kind {@link Notifications#KIND_PUT}, {@code KIND_GET} or {@code KIND_ACCUMULATE}.
     */
    void notify(String call, int target, int tag, long displacement, int length, int kind);

    /**
     * Adds one to notification counter {@code index} of {@code target} (checked by the caller against the
     * target's attached counters) after every operation of this rank to it issued before took effect there, and
     * wakes the target's waiters: in shared memory an atomic add on the target's mapped counter block at the
     * call; to a rank this process does not map, a request applied by the target's node after the data
     * (MPI Forum issue 59, "RMA Notification").
     */
    void incrementCounter(String call, int target, int index);

    // ---------------------------------------------------------------- completion (sections 11.5.4, 11.7)

    /** MPI_WIN_FLUSH: this rank's operations to {@code target} are complete at origin and target. */
    void flush(int target);

    /** MPI_WIN_FLUSH_ALL. */
    void flushAll();

    /** MPI_WIN_FLUSH_LOCAL: the origin buffers of this rank's operations to {@code target} may be reused. */
    void flushLocal(int target);

    /** MPI_WIN_FLUSH_LOCAL_ALL. */
    void flushLocalAll();

    /** MPI_WIN_SYNC: a full memory fence (the unified model: one copy of the memory). */
    void sync();

    // ---------------------------------------------------------------- liveness and lifecycle

    /**
     * @return whether {@code target}'s memory is mapped in this process (reached by loads and stores).
     */
    boolean mapped(int target);

    /** Releases what the transport holds (MPI window, handlers) at the window's free; collective. */
    void free();

    /** Releases what the transport holds without collective calls (the job closes, or is abandoned). */
    void release();
}
