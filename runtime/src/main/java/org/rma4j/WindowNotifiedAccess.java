package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Notified access (Belli and Hoefler, "Notified Access: Extending Remote Memory Access Programming Models for
 * Producer-Consumer Synchronization", IPDPS 2015, section III): a put, get or accumulate that also hands its
 * target a notification with a tag, which the target's {@link NotifyRequest}s match by source and tag. A notified
 * access is its own epoch: it needs no enclosing fence, lock or PSCW epoch.
 *
 * <p>Implemented by {@link Window} only; this interface holds the contract of these calls.
 */
public sealed interface WindowNotifiedAccess permits Window {
    // ---------------------------------------------------------------- notified access (Belli and Hoefler, section III)

    /**
     * Notified put: {@link Window#put(MemorySegment, int, long) put} of {@code origin} that also hands
     * {@code target} a notification with {@code tag}, matched by its {@link NotifyRequest}s. The data is
     * copied into the target window at the call and the notification published after it (release), so it
     * is in the window when a request of the target matches it, and it takes effect in program order with
     * this origin's other operations to the same target (a later put, accumulate or notified access to the
     * same place is never overwritten by it).
     * Allowed in any epoch and outside all epochs (a notified access is its own epoch, section III); a
     * zero-length put only notifies. Notified Access (Belli and Hoefler, IPDPS 2015) §III; not in MPI-3.1.
     *
     * @throws RmaException TAG for a negative tag, and WIN, RANK, DISP, RMA_RANGE as {@link Window#put}.
     */
    void putNotify(MemorySegment origin, int target, long targetDisp, int tag);

    /** {@link #putNotify(MemorySegment, int, long, int)} of {@code length} longs of {@code origin} from {@code offset}. */
    default void putNotify(final long[] origin, final int offset, final int length, final int target,
        final long targetDisp, final int tag) {
        notifiedPart().putNotifyArray(origin, origin.length, offset, length, ValueLayout.JAVA_LONG_UNALIGNED, target,
            targetDisp, tag);
    }

    /** {@link #putNotify(MemorySegment, int, long, int)} of {@code length} doubles of {@code origin} from {@code offset}. */
    default void putNotify(final double[] origin, final int offset, final int length, final int target,
        final long targetDisp, final int tag) {
        notifiedPart().putNotifyArray(origin, origin.length, offset, length, ValueLayout.JAVA_DOUBLE_UNALIGNED, target,
            targetDisp, tag);
    }

    /**
     * Notified put with datatypes: {@link Window#put(MemorySegment, long, Datatype, int, long, long, Datatype)}
     * followed by a notification with {@code tag} (never inline).
     * Notified Access (Belli and Hoefler, IPDPS 2015) §III; not in MPI-3.1.
     */
    void putNotify(MemorySegment origin, long originCount, Datatype originType, int target, long targetDisp,
        long targetCount, Datatype targetType, int tag);

    /**
     * Notified get: {@link Window#get(MemorySegment, int, long) get} into {@code destination}, then a
     * notification with {@code tag} to {@code target}, which tells it that the data has been read.
     * Notified Access (Belli and Hoefler) §III.
     *
     * @throws RmaException as {@link #putNotify(MemorySegment, int, long, int)}.
     */
    void getNotify(MemorySegment destination, int target, long targetDisp, int tag);

    /**
     * Notified accumulate: {@link Window#accumulate} of {@code count} elements of {@code type} (contiguous on
     * both sides), then a notification with {@code tag}. Notified Access (Belli and Hoefler) §III.
     *
     * @throws RmaException as {@link Window#accumulate} and TAG.
     */
    void accumulateNotify(MemorySegment origin, long count, Datatype type, int target, long targetDisp, Op op, int tag);

    /**
     * Notified fetch-and-op on a long: {@link Window#fetchAndOp(long, int, long, Op)}, then a notification.
     * Notified Access (Belli and Hoefler) §III.
     *
     * @return the target's previous value.
     */
    long fetchAndOpNotify(long operand, int target, long targetDisp, Op op, int tag);

    /**
     * Notified get-accumulate: {@link Window#getAccumulate}, then a notification with {@code tag} (kind accumulate,
     * the target's {@code targetCount} x {@code targetType} described). With {@link Op#NO_OP} an atomic read that
     * notifies. Notified Access (Belli and Hoefler) §III lets any access carry a notification.
     *
     * @throws RmaException as {@link Window#getAccumulate} and TAG.
     */
    void getAccumulateNotify(MemorySegment origin, long originCount, Datatype originType, MemorySegment result,
        long resultCount, Datatype resultType, int target, long targetDisp, long targetCount, Datatype targetType,
        Op op, int tag);

    /**
     * Notified compare-and-swap on a long: {@link Window#compareAndSwap(long, long, int, long)}, then a notification
     * (kind accumulate, 8 bytes), whether or not the swap happened. Notified Access (Belli and Hoefler) §III.
     *
     * @return the target's previous value (equal to {@code compare} when the swap happened).
     * @throws RmaException as {@link Window#compareAndSwap(long, long, int, long)} and TAG.
     */
    long compareAndSwapNotify(long compare, long value, int target, long targetDisp, int tag);

    /**
     * MPI_RPUT form of {@link #putNotify(MemorySegment, int, long, int)}: the request completes when the origin
     * buffer may be reused (MPI-3.1 §11.3.5). Unlike {@link Window#rput} it needs no passive-target epoch: a
     * notified access is its own epoch. On the caller's node the request is complete on return.
     *
     * @throws RmaException as {@link #putNotify(MemorySegment, int, long, int)}.
     */
    RmaRequest rputNotify(MemorySegment origin, int target, long targetDisp, int tag);

    /**
     * MPI_RGET form of {@link #getNotify}: the request completes when the data is in {@code destination} (on
     * return, in rma4j). No epoch needed.
     *
     * @throws RmaException as {@link #getNotify}.
     */
    RmaRequest rgetNotify(MemorySegment destination, int target, long targetDisp, int tag);

    /**
     * MPI_RACCUMULATE form of {@link #accumulateNotify}: the request completes when the origin buffer may be
     * reused. No epoch needed.
     *
     * @throws RmaException as {@link #accumulateNotify}.
     */
    RmaRequest raccumulateNotify(MemorySegment origin, long count, Datatype type, int target, long targetDisp, Op op,
        int tag);

    /**
     * MPI_RGET_ACCUMULATE form of {@link #getAccumulateNotify}: the request completes when {@code result} holds the
     * target's previous values (on return, in rma4j). No epoch needed.
     *
     * @throws RmaException as {@link #getAccumulateNotify}.
     */
    RmaRequest rgetAccumulateNotify(MemorySegment origin, long originCount, Datatype originType, MemorySegment result,
        long resultCount, Datatype resultType, int target, long targetDisp, long targetCount, Datatype targetType,
        Op op, int tag);

    /**
     * Nonblocking probe for notifications (the probe the Notified Access paper, section III, leaves to be added;
     * as MPI_IPROBE for messages): makes progress on this rank's arrivals, then reports the oldest notification
     * from {@code source} ({@link Rma#ANY_SOURCE}: any) with {@code tag} ({@link Rma#ANY_TAG}: any) that waits for
     * a request, without taking it: a request started afterwards that matches it takes it, in arrival order.
     * Notifications that an active request matches are that request's and never probed. The status has count 1.
     *
     * @return the status of that notification, or empty.
     * @throws RmaException RANK for a bad source, TAG for a bad tag, WIN on a freed window.
     */
    java.util.Optional<NotifyRequest.Status> notifyIprobe(int source, int tag);

    /**
     * Blocking probe: {@link #notifyIprobe} that waits (spin, yield, then sleep, as every wait) until such a
     * notification has arrived, and returns its status.
     *
     * @throws RmaException as {@link #notifyIprobe}.
     * @throws RankFailedException if a rank fails meanwhile.
     */
    NotifyRequest.Status notifyProbe(int source, int tag);

    /**
     * MPI_NOTIFY_INIT: a persistent request that completes after {@code expectedCount} notified
     * accesses to this rank's part of the window from {@code source} ({@link Rma#ANY_SOURCE}: any) with
     * {@code tag} ({@link Rma#ANY_TAG}: any). Notified Access (Belli and Hoefler) §III.
     *
     * @throws RmaException RANK for a bad source, TAG for a bad tag, COUNT for a negative count.
     */
    NotifyRequest notifyInit(int source, int tag, int expectedCount);

    /** @return notifications that arrived at this rank and wait for a matching request. */
    int unexpectedNotifications();

    /** @return the part of the window that implements these calls. */
    private NotifiedAccess notifiedPart() {
        return ((Window)this).notified();
    }
}
