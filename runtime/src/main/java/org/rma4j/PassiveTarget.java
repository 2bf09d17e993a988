package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import org.rma4j.internal.LockWord;
import org.rma4j.internal.WindowLayout;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.MappingLiveness;
import org.rma4j.shm.WaitState;
import org.rma4j.shm.Words;

/**
 * Passive-target synchronization of one window (MPI-3.1 sections 11.5.3 and 11.5.4): lock, lock_all,
 * unlock, unlock_all on the window's lock table (one {@link LockWord} per rank, in the window file),
 * and flush / sync, which are full fences because every operation completes at its call. Epoch
 * states: {@link Epochs}; the lock-versus-post rule: {@link ActiveTarget}. Javadoc of each call:
 * {@link Window}.
 */
final class PassiveTarget {
    private final WindowState state;
    private final RmaJob job;
    private final int rank;
    private final int number;
    private final long[] sizes;
    private final MemorySegment mapping;
    private final long lockTable;
    private final Epochs epochs;
    private final ActiveTarget active;
    /** The lock or PSCW wait in progress, published as this rank's wait state on its slow path. */
    private final WaitPublication blocked;
    private final MappingLiveness fileCheck;
    private final Liveness lockLiveness;
    /** Info no_locks: lock calls raise RMA_SYNC; MPI_WIN_SET_INFO may change it ({@link #applyInfo}). */
    private volatile boolean noLocks;

    PassiveTarget(final WindowState state, final MemorySegment mapping, final Epochs epochs, final ActiveTarget active,
        final WaitPublication blocked, final MappingLiveness fileCheck, final boolean noLocks) {
        this.state = state;
        this.job = state.job();
        this.rank = state.rank();
        this.number = state.number();
        this.sizes = state.sizes();
        this.mapping = mapping;
        this.lockTable = WindowLayout.lockTableOffset(sizes.length);
        this.epochs = epochs;
        this.active = active;
        this.blocked = blocked;
        this.fileCheck = fileCheck;
        this.noLocks = noLocks;
        final Liveness lockPeers = fileCheck.and(state.context().control().liveness(rank, false));
        this.lockLiveness = () -> {
            blocked.publish();
            lockPeers.check();
        };
    }

    void lock(final LockType lockType, final int target, final int assertions) {
        checkOpen("lock");
        if (lockType == null) {
            throw new RmaException(ErrorClass.LOCKTYPE, "lock type is null; use LockType.SHARED or LockType.EXCLUSIVE");
        }
        if (target == Rma.PROC_NULL) {
            return;
        }
        checkRank(target, "lock");
        Checks.checkAssertions("lock", assertions, Rma.MODE_NOCHECK);
        checkLocksAllowed("lock");
        epochs.checkLock(target);
        epochs.beforePassive("lock");
        final long word = WindowLayout.lockWordOffset(lockTable, target);
        final boolean nocheck = (assertions & Rma.MODE_NOCHECK) != 0;
        if (lockType == LockType.EXCLUSIVE) {
            if (!nocheck) {
                acquire(() -> LockWord.acquireExclusive(mapping, word, rank, job.waitStrategy(), lockLiveness),
                    LockType.EXCLUSIVE, target, word);
                active.checkNotExposed("lock", target, () -> LockWord.releaseExclusive(mapping, word, rank));
            }
            epochs.locked(target, Epochs.EXCLUSIVE | (nocheck ? Epochs.NOCHECK : 0));
        } else {
            if (!nocheck) {
                acquire(() -> LockWord.acquireShared(mapping, word, job.waitStrategy(), lockLiveness), LockType.SHARED,
                    target, word);
                active.checkNotExposed("lock", target, () -> LockWord.releaseShared(mapping, word));
            }
            epochs.locked(target, Epochs.SHARED | (nocheck ? Epochs.NOCHECK : 0));
        }
        if (nocheck) {
            // NOTE: only without an acquisition: the acquiring CAS is itself a two-way barrier (volatile
            // read and write), so no access of the epoch moves before it.
            VarHandle.fullFence();
        }
    }

    void unlock(final int target) {
        checkOpen("unlock");
        if (target == Rma.PROC_NULL) {
            return;
        }
        checkRank(target, "unlock");
        final int mode = epochs.checkUnlock(target);
        release(target, mode);
        epochs.unlocked(target);
    }

    void lockAll(final int assertions) {
        checkOpen("lockAll");
        Checks.checkAssertions("lockAll", assertions, Rma.MODE_NOCHECK);
        checkLocksAllowed("lockAll");
        epochs.checkLockAll();
        epochs.beforePassive("lockAll");
        final boolean nocheck = (assertions & Rma.MODE_NOCHECK) != 0;
        if (!nocheck) {
            for (int target = 0; target < sizes.length; target++) {
                final long word = WindowLayout.lockWordOffset(lockTable, target);
                final int acquired = target;
                try {
                    acquire(() -> LockWord.acquireShared(mapping, word, job.waitStrategy(), lockLiveness), null, target,
                        word);
                } catch (final RmaTimeoutException e) {
                    for (int held = 0; held < acquired; held++) {
                        LockWord.releaseShared(mapping, WindowLayout.lockWordOffset(lockTable, held));
                    }
                    throw e;
                }
            }
            for (int target = 0; target < sizes.length; target++) {
                active.checkNotExposed("lockAll", target, () -> {
                    for (int held = 0; held < sizes.length; held++) {
                        LockWord.releaseShared(mapping, WindowLayout.lockWordOffset(lockTable, held));
                    }
                });
            }
        }
        epochs.lockedAll(Epochs.SHARED | (nocheck ? Epochs.NOCHECK : 0));
        if (nocheck) {
            VarHandle.fullFence(); // as in lock: the acquiring CASes are barriers themselves
        }
    }

    void unlockAll() {
        checkOpen("unlockAll");
        final int mode = epochs.checkUnlockAll();
        for (int target = 0; target < sizes.length; target++) {
            release(target, mode);
        }
        epochs.unlockedAll();
    }

    void flush(final int target) {
        checkFlush("flush", target);
        VarHandle.fullFence();
    }

    void flushAll() {
        checkOpen("flushAll");
        epochs.checkAnyPassive("flushAll");
        VarHandle.fullFence();
    }

    void flushLocal(final int target) {
        checkFlush("flushLocal", target);
        VarHandle.fullFence();
    }

    void flushLocalAll() {
        checkOpen("flushLocalAll");
        epochs.checkAnyPassive("flushLocalAll");
        VarHandle.fullFence();
    }

    void sync() {
        checkOpen("sync");
        VarHandle.fullFence();
    }

    private void release(final int target, final int mode) {
        if ((mode & Epochs.NOCHECK) != 0) {
            VarHandle.fullFence();
            return;
        }
        final long word = WindowLayout.lockWordOffset(lockTable, target);
        if ((mode & Epochs.EXCLUSIVE) != 0) {
            LockWord.releaseExclusive(mapping, word, rank);
        } else {
            LockWord.releaseShared(mapping, word);
        }
    }

    private void checkFlush(final String call, final int target) {
        checkOpen(call);
        if (target == Rma.PROC_NULL) {
            return;
        }
        checkRank(target, call);
        epochs.checkPassive(target, call);
    }

    /**
     * Follows hints set with MPI_WIN_SET_INFO: no_locks.
     */
    void applyInfo(final Info info) {
        noLocks = info.flag(Info.NO_LOCKS);
    }

    private void checkLocksAllowed(final String call) {
        if (noLocks) {
            throw new RmaException(ErrorClass.RMA_SYNC, call + " on a window created with info no_locks=true");
        }
    }

    /**
     * Runs a lock acquisition; a timeout names the call, the target and the lock word's state.
     *
     * @param type the lock call's type, or null for lockAll.
     */
    private void acquire(final Runnable acquisition, final LockType type, final int target, final long word) {
        blocked.begin(type == null ? WaitState.Call.LOCK_ALL : WaitState.Call.LOCK, target);
        try {
            acquisition.run();
        } catch (final InternalError e) {
            throw fileCheck.explain(e);
        } catch (final RuntimeException e) {
            // NOTE: the description is built here, not by the caller: a string concatenation per lock call
            // showed up in profiles of the uncontended lock + unlock.
            final String what = type == null
                ? "lockAll: the lock of rank " + target
                : "lock(" + type + ", " + target + ")";
            final RuntimeException translated = Failures.translate(e, rank, what + " on window " + number
                + " (lock word " + LockWord.describe(Words.getIntVolatile(mapping, word)) + ")");
            throw translated instanceof RankFailedException ? state.context().recordFailure(translated) : translated;
        } finally {
            blocked.end();
        }
    }

    private void checkOpen(final String call) {
        state.checkOpen(call);
    }

    private void checkRank(final int target, final String call) {
        state.checkRank(target, call);
    }
}
