package org.rma4j;

import java.lang.invoke.VarHandle;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.MappingLiveness;
import org.rma4j.events.Waits;

/**
 * Passive-target synchronization of one window (MPI-3.1 sections 11.5.3 and 11.5.4): lock, lock_all,
 * unlock, unlock_all on the targets' lock words, and flush / sync, through the window's
 * {@link WindowTransport} (in shared memory a lock word per rank in the window file,
 * {@link org.rma4j.internal.LockWord}; flush and sync are full fences there). Epoch states: {@link Epochs}; the
 * lock-versus-post rule: {@link ActiveTarget}. Javadoc of each call: {@link WindowSynchronization}.
 */
final class PassiveTarget {
    /** The calls below hand their {@link RmaException} to the window's error handler before it leaves. */
    private final WindowErrors errors;
    private final WindowState state;
    private final int rank;
    private final int number;
    private final long[] sizes;
    private final Epochs epochs;
    private final WindowTransport transport;
    /** The lock or PSCW wait in progress, published as this rank's wait state on its slow path. */
    private final WaitPublication blocked;
    private final MappingLiveness fileCheck;
    private final Liveness lockLiveness;
    /** Info no_locks: lock calls raise RMA_SYNC; MPI_WIN_SET_INFO may change it ({@link #applyInfo}). */
    private volatile boolean noLocks;

    PassiveTarget(final WindowState state, final WindowTransport transport, final Epochs epochs,
        final WaitPublication blocked, final MappingLiveness fileCheck, final boolean noLocks,
        final WindowErrors errors) {
        this.state = state;
        this.rank = state.rank();
        this.number = state.number();
        this.sizes = state.sizes();
        this.transport = transport;
        this.epochs = epochs;
        this.blocked = blocked;
        this.fileCheck = fileCheck;
        this.noLocks = noLocks;
        this.errors = errors;
        final Liveness lockPeers = fileCheck.and(state.context().control().liveness(rank, false));
        this.lockLiveness = () -> {
            blocked.publish();
            lockPeers.check();
        };
    }

    void lock(final LockType lockType, final int target, final int assertions) {
        try {
            checkOpen("lock");
            if (lockType == null) {
                throw new RmaException(ErrorClass.LOCKTYPE,
                    "lock type is null; use LockType.SHARED or LockType.EXCLUSIVE");
            }
            if (target == Rma.PROC_NULL) {
                return;
            }
            checkRank(target, "lock");
            Checks.checkAssertions("lock", assertions, Rma.MODE_NOCHECK);
            checkLocksAllowed("lock");
            epochs.checkLock(target);
            epochs.beforePassive("lock");
            final boolean nocheck = (assertions & Rma.MODE_NOCHECK) != 0;
            if (!nocheck && !acquiredAtOnce(lockType, target)) {
                lockWaiting(lockType, target);
            }
            epochs.locked(target,
                (lockType == LockType.EXCLUSIVE ? Epochs.EXCLUSIVE : Epochs.SHARED) | (nocheck ? Epochs.NOCHECK : 0));
            if (nocheck) {
                // NOTE: only without an acquisition: the acquiring CAS is itself a two-way barrier (volatile
                // read and write), so no access of the epoch moves before it.
                VarHandle.fullFence();
            }
        } catch (final RmaException e) {
            throw errors.raise("lock", e);
        }
    }

    void unlock(final int target) {
        try {
            checkOpen("unlock");
            if (target == Rma.PROC_NULL) {
                return;
            }
            checkRank(target, "unlock");
            final int mode = epochs.checkUnlock(target);
            release(target, mode);
            epochs.unlocked(target);
        } catch (final RmaException e) {
            throw errors.raise("unlock", e);
        }
    }

    void lockAll(final int assertions) {
        try {
            checkOpen("lockAll");
            Checks.checkAssertions("lockAll", assertions, Rma.MODE_NOCHECK);
            checkLocksAllowed("lockAll");
            epochs.checkLockAll();
            epochs.beforePassive("lockAll");
            final boolean nocheck = (assertions & Rma.MODE_NOCHECK) != 0;
            if (!nocheck) {
                final int taken = Waits.timed(Waits.LOCK_ALL) ? 0 : lockAllAtOnce();
                if (taken == sizes.length) {
                    blocked.countUnblocked(Waits.LOCK_ALL);
                } else {
                    lockAllWaiting(taken);
                }
            }
            epochs.lockedAll(Epochs.SHARED | (nocheck ? Epochs.NOCHECK : 0));
            if (nocheck) {
                VarHandle.fullFence(); // as in lock: the acquiring CASes are barriers themselves
            }
        } catch (final RmaException e) {
            throw errors.raise("lockAll", e);
        }
    }

    void unlockAll() {
        try {
            checkOpen("unlockAll");
            final int mode = epochs.checkUnlockAll();
            for (int target = 0; target < sizes.length; target++) {
                release(target, mode);
            }
            epochs.unlockedAll();
        } catch (final RmaException e) {
            throw errors.raise("unlockAll", e);
        }
    }

    void flush(final int target) {
        try {
            if (checkFlush("flush", target)) {
                transport.flush(target);
            }
        } catch (final RmaException e) {
            throw errors.raise("flush", e);
        }
    }

    void flushAll() {
        try {
            checkOpen("flushAll");
            epochs.checkAnyPassive("flushAll");
            transport.flushAll();
        } catch (final RmaException e) {
            throw errors.raise("flushAll", e);
        }
    }

    void flushLocal(final int target) {
        try {
            if (checkFlush("flushLocal", target)) {
                transport.flushLocal(target);
            }
        } catch (final RmaException e) {
            throw errors.raise("flushLocal", e);
        }
    }

    void flushLocalAll() {
        try {
            checkOpen("flushLocalAll");
            epochs.checkAnyPassive("flushLocalAll");
            transport.flushLocalAll();
        } catch (final RmaException e) {
            throw errors.raise("flushLocalAll", e);
        }
    }

    void sync() {
        try {
            checkOpen("sync");
            transport.sync();
        } catch (final RmaException e) {
            throw errors.raise("sync", e);
        }
    }

    private void release(final int target, final int mode) {
        if ((mode & Epochs.NOCHECK) != 0) {
            transport.flush(target);
            return;
        }
        transport.unlock((mode & Epochs.EXCLUSIVE) != 0 ? LockType.EXCLUSIVE : LockType.SHARED, target);
    }

    /**
     * @return false for PROC_NULL (nothing to flush).
     */
    private boolean checkFlush(final String call, final int target) {
        checkOpen(call);
        if (target == Rma.PROC_NULL) {
            return false;
        }
        checkRank(target, call);
        epochs.checkPassive(target, call);
        return true;
    }

    void applyInfo(final Info info) {
        noLocks = info.flag(Info.NO_LOCKS);
    }

    private void checkLocksAllowed(final String call) {
        if (noLocks) {
            throw new RmaException(ErrorClass.RMA_SYNC, call + " on a window created with info no_locks=true");
        }
    }

    /**
     * The uncontended lock: one attempt on target's lock word, no wait begun. Counted as a blocking call of
     * kind LOCK in the statistics as a waiting lock is; while a JFR recording times lock waits, every lock takes
     * {@link #lockWaiting}, which times it.
     *
     * <p>NOTE: apart from {@link #lockWaiting} so that the compiled lock stays small enough to be inlined into its
     * caller (HotSpot inlines a method compiled on its own only below {@code -XX:InlineSmallCode}, 2 500 bytes on
     * x86, and the wait's code and its two publications took it past that: bench/README, "Lock + unlock taken
     * apart").
     *
     * @return whether the lock is held now; false: nothing taken, wait for it.
     */
    private boolean acquiredAtOnce(final LockType type, final int target) {
        if (Waits.timed(Waits.LOCK)) {
            return false;
        }
        final int taken;
        try {
            taken = transport.tryLock(type, target);
        } catch (final InternalError e) {
            throw fileCheck.explain(e);
        }
        if (taken == WindowTransport.LOCK_BUSY) {
            return false;
        }
        blocked.countUnblocked(Waits.LOCK);
        if (taken == WindowTransport.LOCK_TAKEN_EXPOSED) {
            conflict(type, target, "lock");
        }
        return true;
    }

    /**
     * lockAll's uncontended part: one attempt on each target's lock word in rank order, no wait begun, up to the
     * first it cannot take at once (held exclusively; see {@link #acquiredAtOnce}).
     *
     * @return how many targets, from rank 0, are held now (all: {@code sizes.length}).
     * @throws RmaException RMA_CONFLICT if a target exposes its window in a post epoch (every hold given back).
     */
    private int lockAllAtOnce() {
        int target = 0;
        try {
            while (target < sizes.length) {
                final int taken = transport.tryLock(LockType.SHARED, target);
                if (taken == WindowTransport.LOCK_BUSY) {
                    break;
                }
                if (taken == WindowTransport.LOCK_TAKEN_EXPOSED) {
                    releaseShared(target);
                    conflict(LockType.SHARED, target, null);
                }
                target++;
            }
        } catch (final InternalError e) {
            releaseShared(target);
            throw fileCheck.explain(e);
        }
        return target;
    }

    /**
     * lockAll from target {@code first} on, waiting for each lock word as needed, published as this rank's wait;
     * the holds of targets below {@code first} are this call's too, given back if it fails.
     */
    private void lockAllWaiting(final int first) {
        blocked.begin(Waits.LOCK_ALL, first);
        try {
            for (int target = first; target < sizes.length; target++) {
                blocked.awaiting(target);
                try {
                    acquire(LockType.SHARED, target, null);
                } catch (final RuntimeException e) {
                    releaseShared(target);
                    throw e;
                }
            }
        } finally {
            blocked.end();
        }
    }

    /** Gives back the shared holds of targets 0 to {@code below - 1}. */
    private void releaseShared(final int below) {
        for (int held = 0; held < below; held++) {
            transport.unlock(LockType.SHARED, held);
        }
    }

    /** The lock that may have to wait for target's lock word, published as this rank's wait on its slow path. */
    private void lockWaiting(final LockType type, final int target) {
        blocked.begin(Waits.LOCK, target);
        try {
            acquire(type, target, "lock");
        } finally {
            blocked.end();
        }
    }

    /**
     * Takes target's lock word, in the wait the caller has begun on {@link #blocked}; a timeout names the call,
     * the target and the lock word's state. A window may not be locked and exposed in a post epoch concurrently
     * (11.5.3): if the target exposes its window, the hold is given back and RMA_CONFLICT thrown (best effort: a
     * post and a lock that race are not always seen).
     *
     * @param call "lock", or null for lockAll.
     */
    private void acquire(final LockType type, final int target, final String call) {
        final boolean exposed;
        try {
            exposed = transport.lock(type, target, lockLiveness);
        } catch (final InternalError e) {
            throw fileCheck.explain(e);
        } catch (final RuntimeException e) {
            // NOTE: the description is built here, not by the caller: a string concatenation per lock call
            // showed up in profiles of the uncontended lock + unlock.
            final String what = call == null
                ? "lockAll: the lock of rank " + target
                : "lock(" + type + ", " + target + ")";
            final RuntimeException translated = Failures.translate(e, rank,
                what + " on window " + number + " (lock word " + transport.describeLock(target) + ")");
            throw translated instanceof RankFailedException ? state.context().recordFailure(translated) : translated;
        }
        if (exposed) {
            conflict(type, target, call);
        }
    }

    /** Gives back the hold just taken on target, which exposes its window in a post epoch, and raises RMA_CONFLICT. */
    private void conflict(final LockType type, final int target, final String call) {
        transport.unlock(type, target);
        throw new RmaException(ErrorClass.RMA_CONFLICT,
            (call == null ? "lockAll" : call) + " of rank " + target
                + " while it exposes its window in a post epoch; a window may not be locked and exposed concurrently"
                + " (11.5.3)");
    }

    private void checkOpen(final String call) {
        state.checkOpen(call);
    }

    private void checkRank(final int target, final String call) {
        state.checkRank(target, call);
    }
}
