package org.rma4j;

import java.lang.foreign.MemorySegment;

/**
 * Notification counters: the notification interface on the MPI standardization track (MPI Forum issue 59, "RMA
 * Notification"; shipped as Intel MPI's {@code MPIX_Put_notify} / {@code MPIX_Get_notify} /
 * {@code MPIX_Win_get_notify} / {@code MPIX_Win_set_notify}, and as the {@code notified_rma} extension of Bull's
 * Open MPI 5 with {@code MPIX_Win_wait_notify} / {@code MPIX_Win_test_notify}). Each rank attaches a number of
 * 64-bit counters to the window ({@link #notifyAttach}, collective); a put, get or accumulate that names a counter
 * index adds one to that counter of its target once its data is in the target's window (put, accumulate) or was
 * read from it (get); the target reads, sets, waits for and tests its counters.
 *
 * <p>Beside the paper's matched form ({@link WindowNotifiedAccess}): a counter carries no source, tag or
 * displacement and matches nothing, so it is the cheapest notification (the data and one atomic add); the
 * target learns how many operations arrived, not which. The runtime's README ("Notifications: matched requests
 * and counters") shows one program written each way.
 *
 * <h2>Ordering</h2>
 * A counter's increment becomes visible only after the operation's data: when {@link #notifyWait} or
 * {@link #notifyTest} or {@link #notifyGetValue} at the target returns a value that includes an operation's
 * increment, the operation's data is in the target's window (a put or accumulate) or was read from it (a get)
 * and loads of the target see it (happens-before, in shared memory and across nodes). Operations of one origin
 * to one target take effect in program order, like the plain calls. Nothing orders increments of different
 * origins.
 *
 * <h2>Epochs</h2>
 * Like the paper's notified access (Belli and Hoefler, section III), an operation with a counter is its own
 * epoch: allowed inside any epoch and outside all of them. It is complete at origin and target when it returns
 * (across nodes: as {@link Window}'s plain calls, its increment follows its data at the target).
 *
 * <h2>Threads</h2>
 * {@link #notifyGetValue}, {@link #notifySetValue}, {@link #notifyWait} and {@link #notifyTest} may be called
 * from several threads of the rank at once (a thread may wait for one counter while another works);
 * {@link #notifyAttach} and {@link #notifyDetach} are collective and must not overlap any other call of the
 * counters.
 *
 * <p>Implemented by {@link Window} only; this interface holds the contract of these calls.
 */
public sealed interface WindowNotifyCounters permits Window {
    // ---------------------------------------------------------------- attach and detach (collective)

    /**
     * MPI_WIN_NOTIFY_ATTACH: attaches {@code counters} notification counters, all zero, to this rank's part of the
     * window. Collective over the window's group; the counts may differ per rank (0 is valid) and are exchanged,
     * so an origin checks a counter index against its target's count. Afterwards every rank may target any
     * counter of any rank. MPI Forum issue 59.
     *
     * @throws RmaException COUNT for a count outside 0..2^20; RMA_SYNC if counters are attached already; NO_MEM if
     *                      the job's shared memory has no room for them. A rank's bad argument makes the call
     *                      throw at every rank, and nothing is attached anywhere.
     */
    default void notifyAttach(final int counters) {
        notifyCountersPart().attach(counters);
    }

    /**
     * MPI_WIN_NOTIFY_DETACH: detaches this window's counters at every rank. Collective; every operation with a
     * counter that a rank issued before the call has taken effect (its increment too) when the call returns
     * anywhere. {@link Window#free()} detaches them too. MPI Forum issue 59.
     *
     * @throws RmaException RMA_SYNC if no counters are attached (at any rank: then none is detached).
     */
    default void notifyDetach() {
        notifyCountersPart().detach();
    }

    // ---------------------------------------------------------------- this rank's counters

    /**
     * MPI_WIN_NOTIFY_GET_VALUE: the value of this rank's counter {@code counter} (an acquire load: the data of
     * every operation it counts is visible). MPI Forum issue 59.
     *
     * @throws RmaException RMA_NOTIF_RANGE for an index outside this rank's counters (or none attached).
     */
    default long notifyGetValue(final int counter) {
        return notifyCountersPart().getValue(counter);
    }

    /**
     * MPI_WIN_NOTIFY_SET_VALUE: sets this rank's counter {@code counter} (a volatile store), and wakes its
     * waiters. Increments of origins racing with the set may be lost to it, as in the proposal: set a counter
     * when no operation targets it (usually to reset it to 0 between phases). MPI Forum issue 59.
     *
     * @throws RmaException RMA_NOTIF_RANGE as {@link #notifyGetValue}.
     */
    default void notifySetValue(final int counter, final long value) {
        notifyCountersPart().setValue(counter, value);
    }

    /**
     * MPIX_WIN_WAIT_NOTIFY: blocks until this rank's counter {@code counter} is at least {@code atLeast}, through
     * the job's wait strategy (spins, yields, then sleeps on a futex that the incrementing origin wakes; checks
     * the peers' liveness and the job's timeout).
     *
     * @return the counter's value that met the condition.
     * @throws RmaException RMA_NOTIF_RANGE as {@link #notifyGetValue}.
     * @throws RankFailedException if a rank of the window fails while this one waits.
     * @throws RmaTimeoutException after the job's wait timeout.
     */
    default long notifyWait(final int counter, final long atLeast) {
        return notifyCountersPart().await(counter, atLeast);
    }

    /**
     * MPIX_WIN_TEST_NOTIFY: whether this rank's counter {@code counter} is at least {@code atLeast} now (an acquire
     * load; never blocks).
     *
     * @throws RmaException RMA_NOTIF_RANGE as {@link #notifyGetValue}.
     */
    default boolean notifyTest(final int counter, final long atLeast) {
        return notifyCountersPart().test(counter, atLeast);
    }

    // ---------------------------------------------------------------- operations with a counter

    /**
     * MPI_PUT_NOTIFY: {@link Window#put(MemorySegment, int, long) put} of {@code origin} to {@code target}, then
     * one more on {@code target}'s counter {@code counter}, visible only after the data. A zero-length put only
     * increments. No epoch needed. {@link Rma#PROC_NULL}: nothing happens. MPI Forum issue 59.
     *
     * @throws RmaException RMA_NOTIF_RANGE for an index outside the target's counters (or none attached), and
     *                      WIN, RANK, DISP, RMA_RANGE as {@link Window#put}; nothing is written or counted.
     */
    default void putNotifyCounter(final MemorySegment origin, final int target, final long targetDisp,
        final int counter) {
        notifyCountersPart().putNotifyCounter(origin, target, targetDisp, counter);
    }

    /**
     * MPI_PUT_NOTIFY with datatypes: {@link Window#put(MemorySegment, long, Datatype, int, long, long, Datatype)},
     * then the increment. MPI Forum issue 59.
     *
     * @throws RmaException as {@link #putNotifyCounter(MemorySegment, int, long, int)}, and TYPE, COUNT as put.
     */
    default void putNotifyCounter(final MemorySegment origin, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType, final int counter) {
        notifyCountersPart().putNotifyCounter(origin, originCount, originType, target, targetDisp, targetCount,
            targetType, counter);
    }

    /**
     * MPI_GET_NOTIFY: {@link Window#get(MemorySegment, int, long) get} into {@code destination} (there when this
     * returns), then one more on {@code target}'s counter {@code counter}: it tells the target its data was read.
     * MPI Forum issue 59.
     *
     * @throws RmaException as {@link #putNotifyCounter(MemorySegment, int, long, int)}.
     */
    default void getNotifyCounter(final MemorySegment destination, final int target, final long targetDisp,
        final int counter) {
        notifyCountersPart().getNotifyCounter(destination, target, targetDisp, counter);
    }

    /**
     * MPI_GET_NOTIFY with datatypes. MPI Forum issue 59.
     *
     * @throws RmaException as {@link #putNotifyCounter(MemorySegment, long, Datatype, int, long, long, Datatype, int)}.
     */
    default void getNotifyCounter(final MemorySegment destination, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType, final int counter) {
        notifyCountersPart().getNotifyCounter(destination, originCount, originType, target, targetDisp, targetCount,
            targetType, counter);
    }

    /**
     * Accumulate with a counter: {@link Window#accumulate} (atomic per element as every accumulate), then one more
     * on {@code target}'s counter {@code counter}, after the elements are updated. Not in issue 59's first text,
     * which names put and get; the same rule applied to MPI_ACCUMULATE.
     *
     * @throws RmaException as {@link Window#accumulate}, and RMA_NOTIF_RANGE.
     */
    default void accumulateNotifyCounter(final MemorySegment origin, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType, final Op op,
        final int counter) {
        notifyCountersPart().accumulateNotifyCounter(origin, originCount, originType, target, targetDisp, targetCount,
            targetType, op, counter);
    }

    /** @return the part of the window that implements these calls. */
    private NotifyCounters notifyCountersPart() {
        return ((Window)this).notifyCounters();
    }
}
