package org.rma4j;

/**
 * The epoch state of one window at one rank, and the checks of MPI-3.1 section 11.5 on it: which
 * synchronization call may follow which, and which targets an RMA call may reach.
 *
 * <p>Not thread-safe: synchronization calls on one window are made by one thread at a time.
 *
 * <p>States: a fence opens an access and exposure epoch unless it asserts NOSUCCEED, and the next
 * fence closes it (section 11.5.1). A fence epoch in which this rank issued no RMA call yet may be
 * left for lock, lock_all or PSCW without another fence (the way MPICH and Open MPI treat a fence
 * that only separates phases); once an RMA call was made in it, only a fence ends it. lock / unlock
 * hold per-target passive epochs, lock_all one epoch over all targets; the two do not mix on one
 * window at one rank (section 11.5.3: lock_all is a shared lock on every target).
 */
final class Epochs {
    static final int NONE = 0;
    static final int SHARED = 1;
    static final int EXCLUSIVE = 2;
    /** Bit set beside SHARED or EXCLUSIVE when the lock was taken with MODE_NOCHECK. */
    static final int NOCHECK = 4;

    private final int[] locks;
    private final boolean checks;
    private int locksHeld;
    private int lockAll = NONE;
    private boolean fenceOpen;
    private boolean opsInFence;
    private Group accessGroup;
    private Group exposureGroup;

    Epochs(final int ranks, final boolean checks) {
        this.locks = new int[ranks];
        this.checks = checks;
    }

    /**
     * Checks that an RMA call may reach {@code target} now, and records it.
     */
    void checkAccess(final int target, final String call) {
        if (lockAll != NONE || locks[target] != NONE) {
            return;
        }
        if (accessGroup != null) {
            if (accessGroup.contains(target) || !checks) {
                return;
            }
            throw new RmaException(ErrorClass.RMA_SYNC,
                call + " to rank " + target + " which is not in the group " + accessGroup + " of the open start epoch");
        }
        if (fenceOpen) {
            opsInFence = true;
            return;
        }
        if (checks) {
            throw new RmaException(ErrorClass.RMA_SYNC, call + " to rank " + target
                + " outside an access epoch (no fence, lock, lock_all or start epoch is open for it)");
        }
    }

    boolean passive(final int target) {
        return locks[target] != NONE || lockAll != NONE;
    }

    void checkPassive(final int target, final String call) {
        if (checks && !passive(target)) {
            throw new RmaException(ErrorClass.RMA_SYNC, call + "(" + target
                + ") outside a passive-target epoch: no lock on rank " + target + " and no lock_all is held");
        }
    }

    void checkAnyPassive(final String call) {
        if (checks && locksHeld == 0 && lockAll == NONE) {
            throw new RmaException(ErrorClass.RMA_SYNC,
                call + " outside a passive-target epoch: no lock or lock_all is held");
        }
    }

    void beforeFence(final int assertions) {
        if (accessGroup != null || exposureGroup != null) {
            throw new RmaException(ErrorClass.RMA_SYNC, "fence while a " + (accessGroup != null ? "start" : "post")
                + " epoch is open (complete / wait it first)");
        }
        if (!checks) {
            return;
        }
        if (locksHeld > 0 || lockAll != NONE) {
            throw new RmaException(ErrorClass.RMA_SYNC,
                "fence while a passive-target epoch is open (" + describePassive() + ")");
        }
        if ((assertions & Rma.MODE_NOPRECEDE) != 0 && opsInFence) {
            throw new RmaException(ErrorClass.RMA_SYNC,
                "fence with MODE_NOPRECEDE after RMA calls were issued in the fence epoch it closes");
        }
    }

    void afterFence(final int assertions) {
        fenceOpen = (assertions & Rma.MODE_NOSUCCEED) == 0;
        opsInFence = false;
    }

    /**
     * Checks that a lock or lock_all may start, leaving an unused fence epoch if one is open.
     */
    void beforePassive(final String call) {
        if (checks && fenceOpen && opsInFence) {
            throw new RmaException(ErrorClass.RMA_SYNC,
                call + " inside a fence epoch in which RMA calls were issued: end it with a fence first");
        }
        fenceOpen = false;
    }

    void checkLock(final int target) {
        if (accessGroup != null) {
            checkNoStartEpoch("lock(" + target + ")"); // NOTE: the name is built only when it will be thrown
        }
        if (locks[target] != NONE) {
            throw new RmaException(ErrorClass.RMA_SYNC, "lock(" + target + ") while this rank already holds a "
                + describe(locks[target]) + " lock on rank " + target);
        }
        if (lockAll != NONE) {
            throw new RmaException(ErrorClass.RMA_SYNC, "lock(" + target + ") while this rank holds lock_all");
        }
    }

    void locked(final int target, final int mode) {
        locks[target] = mode;
        locksHeld++;
    }

    /**
     * @return the mode the target was locked with.
     */
    int checkUnlock(final int target) {
        final int mode = locks[target];
        if (mode == NONE) {
            throw new RmaException(ErrorClass.RMA_SYNC, "unlock(" + target + ") without a lock on rank " + target
                + (lockAll != NONE ? " (lock_all is held: use unlockAll)" : ""));
        }
        return mode;
    }

    void unlocked(final int target) {
        locks[target] = NONE;
        locksHeld--;
    }

    void checkLockAll() {
        checkNoStartEpoch("lock_all");
        if (lockAll != NONE) {
            throw new RmaException(ErrorClass.RMA_SYNC, "lock_all while this rank already holds lock_all");
        }
        if (locksHeld > 0) {
            throw new RmaException(ErrorClass.RMA_SYNC, "lock_all while this rank holds " + describePassive());
        }
    }

    void lockedAll(final int mode) {
        lockAll = mode;
    }

    int checkUnlockAll() {
        if (lockAll == NONE) {
            throw new RmaException(ErrorClass.RMA_SYNC,
                "unlock_all without lock_all" + (locksHeld > 0 ? " (" + describePassive() + ": use unlock)" : ""));
        }
        return lockAll;
    }

    void unlockedAll() {
        lockAll = NONE;
    }

    void checkFree() {
        if (accessGroup != null || exposureGroup != null) {
            throw new RmaException(ErrorClass.RMA_SYNC,
                "free while a " + (accessGroup != null ? "start" : "post") + " epoch is open");
        }
        if (checks && (locksHeld > 0 || lockAll != NONE)) {
            throw new RmaException(ErrorClass.RMA_SYNC,
                "free while a passive-target epoch is open (" + describePassive() + ")");
        }
    }

    void checkPost() {
        if (exposureGroup != null) {
            throw new RmaException(ErrorClass.RMA_SYNC,
                "post while the exposure epoch to " + exposureGroup + " is open (wait or test it first)");
        }
        beforeActiveTarget("post");
    }

    void posted(final Group group) {
        exposureGroup = group;
    }

    Group checkWait(final String call) {
        if (exposureGroup == null) {
            throw new RmaException(ErrorClass.RMA_SYNC, call + " without a matching post");
        }
        return exposureGroup;
    }

    void waited() {
        exposureGroup = null;
    }

    void checkStart() {
        checkNoStartEpoch("start");
        if (locksHeld > 0 || lockAll != NONE) {
            throw new RmaException(ErrorClass.RMA_SYNC,
                "start while a passive-target epoch is open (" + describePassive() + ")");
        }
        beforeActiveTarget("start");
    }

    void started(final Group group) {
        accessGroup = group;
    }

    Group checkComplete() {
        if (accessGroup == null) {
            throw new RmaException(ErrorClass.RMA_SYNC, "complete without a matching start");
        }
        return accessGroup;
    }

    void completed() {
        accessGroup = null;
    }

    private void checkNoStartEpoch(final String call) {
        if (accessGroup != null) {
            throw new RmaException(ErrorClass.RMA_SYNC,
                call + " while the start epoch to " + accessGroup + " is open (complete it first)");
        }
    }

    private void beforeActiveTarget(final String call) {
        if (fenceOpen && opsInFence) {
            throw new RmaException(ErrorClass.RMA_SYNC,
                call + " inside a fence epoch in which RMA calls were issued: end it with a fence first");
        }
        fenceOpen = false;
    }

    private String describePassive() {
        if (lockAll != NONE) {
            return "lock_all held";
        }
        final StringBuilder held = new StringBuilder("locks held on ranks");
        for (int target = 0; target < locks.length; target++) {
            if (locks[target] != NONE) {
                held.append(' ').append(target);
            }
        }
        return held.toString();
    }

    private static String describe(final int mode) {
        return (mode & EXCLUSIVE) != 0 ? "exclusive" : "shared";
    }
}
