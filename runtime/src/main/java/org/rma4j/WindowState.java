package org.rma4j;

/**
 * What every part of a window ({@link TargetAccess}, {@link PassiveTarget}, {@link ActiveTarget},
 * {@link NotifiedAccess}, {@link Notifications}) shares: the job, the communicator's collective context, the
 * window's number, this rank, the ranks' sizes, the counters, whether the window is freed, and the checks
 * of a call's window, rank and group arguments. Ranks of a window are ranks of its communicator.
 */
final class WindowState {
    private final RmaJob job;
    private final CommContext context;
    private final int number;
    private final int rank;
    private final long[] sizes;
    private final WindowCounters counters;
    private final AttachedCounters attachedCounters = new AttachedCounters();
    private boolean freed;

    WindowState(final CommContext context, final int number, final long[] sizes) {
        this.job = context.job();
        this.context = context;
        this.number = number;
        this.rank = context.rank();
        this.sizes = sizes;
        this.counters = new WindowCounters(number, rank, sizes.length);
    }

    /**
     * @return this rank's counters of the window ({@link Window#statistics()}, JFR events).
     */
    WindowCounters counters() {
        return counters;
    }

    /**
     * @return the notification counters attached to the window ({@link NotifyCounters}).
     */
    AttachedCounters attachedCounters() {
        return attachedCounters;
    }

    RmaJob job() {
        return job;
    }

    /**
     * @return the collective machinery of the window's communicator: its collective calls (fence, free),
     *         failure record and members.
     */
    CommContext context() {
        return context;
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
     * @throws RmaException WIN on a freed window, also one of a closed job: a job that closes, or is abandoned,
     *                      frees every window of it first ({@code RmaJob.releaseLocally}), so this one test covers
     *                      both (the op path's compiled code keeps one exit for them).
     */
    void checkOpen(final String call) {
        if (freed) {
            throw new RmaException(ErrorClass.WIN, call + " on a freed window");
        }
    }

    /**
     * @throws RmaException RANK if {@code target} is not a rank of the window.
     */
    void checkRank(final int target, final String call) {
        if (Integer.compareUnsigned(target, sizes.length) >= 0) {
            throw new RmaException(ErrorClass.RANK,
                call + " target rank " + target + " is outside 0.." + (sizes.length - 1));
        }
    }

    /**
     * A group names processes by job rank (MPI-3.1 section 6.3); the window's calls number them as its
     * communicator does.
     *
     * @return {@code group} with each member replaced by its rank in the window, in the same order.
     * @throws RmaException GROUP for a null group, RANK for a member outside the window's communicator.
     */
    Group windowRanks(final String call, final Group group) {
        if (group == null) {
            throw new RmaException(ErrorClass.GROUP, call + " group is null (use Group.EMPTY)");
        }
        final int[] members = group.members();
        for (int i = 0; i < members.length; i++) {
            final int windowRank = context.isWorld() ? members[i] : indexOf(context.members(), members[i]);
            if (windowRank < 0 || windowRank >= sizes.length) {
                throw new RmaException(ErrorClass.RANK,
                    call + " group member " + members[i] + " is not a rank "
                        + (context.isWorld()
                            ? "of the window (0.." + (sizes.length - 1) + ")"
                            : "of the window's communicator " + context.id() + " (job ranks "
                                + java.util.Arrays.toString(context.members()) + ")"));
            }
            members[i] = windowRank;
        }
        return context.isWorld() ? group : Group.of(members);
    }

    private static int indexOf(final int[] array, final int value) {
        for (int i = 0; i < array.length; i++) {
            if (array[i] == value) {
                return i;
            }
        }
        return -1;
    }
}
