package org.rma4j;

/**
 * What every part of a window ({@link TargetAccess}, {@link PassiveTarget}, {@link ActiveTarget},
 * {@link NotifiedAccess}, {@link Notifications}) shares: the job, the window's number, this rank, the
 * ranks' sizes, the counters, whether the window is freed, and the checks of a call's window, rank and group
 * arguments.
 */
final class WindowState {
    private final RmaJob job;
    private final int number;
    private final int rank;
    private final long[] sizes;
    private final WindowCounters counters;
    private boolean freed;

    WindowState(final RmaJob job, final int number, final long[] sizes) {
        this.job = job;
        this.number = number;
        this.rank = job.rank();
        this.sizes = sizes;
        this.counters = new WindowCounters(number, rank, sizes.length);
    }

    /**
     * @return this rank's counters of the window ({@link Window#statistics()}, JFR events).
     */
    WindowCounters counters() {
        return counters;
    }

    RmaJob job() {
        return job;
    }

    int number() {
        return number;
    }

    int rank() {
        return rank;
    }

    /**
     * @return every rank's size in bytes (not a copy).
     */
    long[] sizes() {
        return sizes;
    }

    boolean isFreed() {
        return freed;
    }

    void markFreed() {
        freed = true;
    }

    /**
     * @throws RmaException WIN on a freed window, OTHER on a closed job.
     */
    void checkOpen(final String call) {
        if (freed) {
            throw new RmaException(ErrorClass.WIN, call + " on a freed window");
        }
        job.checkOpen(call);
    }

    /**
     * @throws RmaException RANK if {@code target} is not a rank of the window.
     */
    void checkRank(final int target, final String call) {
        if (target < 0 || target >= sizes.length) {
            throw new RmaException(ErrorClass.RANK,
                call + " target rank " + target + " is outside 0.." + (sizes.length - 1));
        }
    }

    /**
     * @throws RmaException GROUP for a null group, RANK for a member outside the window.
     */
    void checkGroup(final String call, final Group group) {
        if (group == null) {
            throw new RmaException(ErrorClass.GROUP, call + " group is null (use Group.EMPTY)");
        }
        for (final int member : group.members()) {
            if (member >= sizes.length) {
                throw new RmaException(ErrorClass.RANK,
                    call + " group member " + member + " is not a rank of the window (0.." + (sizes.length - 1) + ")");
            }
        }
    }
}
