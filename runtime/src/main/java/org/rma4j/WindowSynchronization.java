package org.rma4j;

/**
 * The synchronization calls of a {@link Window} (MPI-3.1 section 11.5): fence (11.5.1), post-start-complete-wait
 * (11.5.2), lock and lock_all (11.5.3), flush and sync (11.5.4). They open and close the epochs in which the
 * {@link WindowCommunication} calls are valid and give those calls their ordering.
 *
 * <h2>Completion</h2>
 * An rma4j origin performs every operation itself, at the call, with loads and stores on its mapping
 * of the target's memory: when {@link Window#put} or {@link Window#get} returns, the operation is complete at the
 * origin and at the target. The standard allows this (section 11.5: an operation may complete at any
 * time before the synchronization call that completes it). The synchronization calls add the
 * ordering: {@link #flush}, {@link #flushAll}, {@link #flushLocal}, {@link #flushLocalAll} and
 * {@link #sync} are full memory fences; {@link #fence}, {@link #unlock}, {@link #unlockAll} and lock
 * acquisition also fence, so a store made before any of them is seen by a load or get made after the
 * matching call at another rank (an rma4j guarantee, stronger than section 11.7's Example 11.7
 * requires in the unified model).
 * <p>
 * <b>Across nodes</b> (a job started by {@code mpirun} over several nodes), "complete on return" holds
 * for targets on the caller's node. To a target on another node a get, get_accumulate, fetch_and_op and
 * compare_and_swap still return with their data, but a put or accumulate is complete at the target only at the
 * next {@link #flush}, {@link #unlock}, {@link #fence} or {@link #complete} (the standard's rule); its origin
 * buffer may be reused on return if it is heap memory or at most 4 KiB, a larger native buffer after
 * {@link #flushLocal}. A target's peers progress while it is in any rma4j call that waits, and otherwise within
 * about a millisecond (a progress thread). The runtime's README, "Jobs across nodes", has the details.
 *
 * <p>Implemented by {@link Window} only; this interface holds the contract of these calls, grouped as the standard
 * groups them.
 */
public sealed interface WindowSynchronization permits Window {
    // ---------------------------------------------------------------- active target: fence (section 11.5.1)

    /**
     * MPI_WIN_FENCE: a barrier over the window's group with full fences on both sides. Ends the fence
     * epoch it closes and, unless {@link Rma#MODE_NOSUCCEED} is asserted, opens the next. MPI-3.1 §11.5.1.
     *
     * @param assertions 0 or a combination of MODE_NOSTORE, MODE_NOPUT, MODE_NOPRECEDE, MODE_NOSUCCEED.
     * @throws RmaException ASSERT for other bits, RMA_SYNC inside a passive-target epoch.
     */
    void fence(int assertions);

    // ---------------------------------------------------------------- general active target (section 11.5.2)

    /**
     * MPI_WIN_POST: starts an exposure epoch of this rank's window to the origins in {@code group}
     * and lets their matching {@link #start} proceed. Does not block. MPI-3.1 §11.5.2.
     *
     * @param assertions 0 or a combination of MODE_NOCHECK (every matching start also asserts it and
     *                   runs after this post: no post message is sent), MODE_NOSTORE, MODE_NOPUT.
     * @throws RmaException ASSERT, GROUP / RANK for a member outside the window, RMA_SYNC if an exposure
     *                      epoch is open or a fence epoch with RMA calls is.
     */
    void post(Group group, int assertions);

    /**
     * MPI_WIN_START: starts an access epoch to the targets in {@code group}, blocking until each has
     * posted (the standard allows start to block). RMA calls in the epoch may reach only those targets.
     * MPI-3.1 §11.5.2.
     *
     * @param assertions 0 or MODE_NOCHECK (the matching posts were made with MODE_NOCHECK and have
     *                   completed: start does not wait).
     * @throws RmaException ASSERT, GROUP / RANK, RMA_SYNC if an access epoch is open.
     */
    void start(Group group, int assertions);

    /**
     * MPI_WIN_COMPLETE: ends the access epoch of {@link #start}; every RMA call of the epoch is
     * complete (at origin and, in rma4j, at target) and the targets' {@link #await} may return. MPI-3.1 §11.5.2.
     *
     * @throws RmaException RMA_SYNC without a matching start.
     */
    void complete();

    /**
     * MPI_WIN_WAIT (named {@code await} because {@code Object.wait()} is final): blocks until every
     * origin of the matching {@link #post} has called {@link #complete}, then ends the exposure epoch;
     * their RMA calls are visible in this rank's window afterwards. MPI-3.1 §11.5.2.
     *
     * @throws RmaException RMA_SYNC without a matching post.
     */
    void await();

    /**
     * MPI_WIN_TEST: the nonblocking {@link #await}: returns true and ends the exposure epoch if every
     * origin has completed, false otherwise (the epoch stays open). MPI-3.1 §11.5.2.
     *
     * @throws RmaException RMA_SYNC without a matching post.
     */
    boolean test();

    // ---------------------------------------------------------------- passive target (section 11.5.3)

    /**
     * MPI_WIN_LOCK: starts a passive-target access epoch to {@code target}, blocking until the lock is
     * held. The target takes no part. {@link Rma#MODE_NOCHECK} skips the acquisition (the caller
     * asserts that no conflicting lock is held or will be requested). MPI-3.1 §11.5.3.
     *
     * @throws RmaException LOCKTYPE, RANK, ASSERT, or RMA_SYNC if an epoch conflicts.
     */
    void lock(LockType lockType, int target, int assertions);

    /** {@link #lock(LockType, int, int)} with no assertions. */
    default void lock(LockType lockType, int target) {
        lock(lockType, target, 0);
    }

    /**
     * MPI_WIN_UNLOCK: completes every operation to {@code target} and ends the epoch. MPI-3.1 §11.5.3.
     *
     * @throws RmaException RMA_SYNC without a matching lock.
     */
    void unlock(int target);

    /**
     * MPI_WIN_LOCK_ALL: a shared lock on every target, held until {@link #unlockAll()}. MPI-3.1 §11.5.3.
     *
     * @throws RmaException ASSERT for bits other than MODE_NOCHECK, RMA_SYNC if an epoch conflicts.
     */
    void lockAll(int assertions);

    /** {@link #lockAll(int)} with no assertions. */
    default void lockAll() {
        lockAll(0);
    }

    /**
     * MPI_WIN_UNLOCK_ALL: completes every operation and ends the lock_all epoch. MPI-3.1 §11.5.3.
     *
     * @throws RmaException RMA_SYNC without lock_all.
     */
    void unlockAll();

    // ---------------------------------------------------------------- flush and sync (section 11.5.4)

    /**
     * MPI_WIN_FLUSH: completes, at origin and target, every operation this rank issued to
     * {@code target}. Operations complete at their call in rma4j, so this is a full memory fence; the
     * epoch stays open (Example 11.18). MPI-3.1 §11.5.4.
     *
     * @throws RmaException RMA_SYNC outside a passive-target epoch to target.
     */
    void flush(int target);

    /**
     * MPI_WIN_FLUSH_ALL: {@link #flush} for every target. MPI-3.1 §11.5.4.
     */
    void flushAll();

    /**
     * MPI_WIN_FLUSH_LOCAL: completes this rank's operations to {@code target} locally (origin buffers
     * may be reused). A full fence, like {@link #flush}. MPI-3.1 §11.5.4.
     */
    void flushLocal(int target);

    /**
     * MPI_WIN_FLUSH_LOCAL_ALL: {@link #flushLocal} for every target. MPI-3.1 §11.5.4.
     */
    void flushLocalAll();

    /**
     * MPI_WIN_SYNC: synchronizes the public and private copies of this rank's window. They are the
     * same memory (UNIFIED), so this is a full memory fence, which orders this rank's loads and
     * stores on shared memory around it (Example 11.7). Valid in any epoch state. MPI-3.1 §11.5.4.
     */
    void sync();
}
