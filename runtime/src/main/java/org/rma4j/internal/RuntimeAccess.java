package org.rma4j.internal;

import java.lang.foreign.MemorySegment;
import org.rma4j.Datatype;
import org.rma4j.Op;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.WaitStrategy;

/**
 * The runtime's internals that layers above the window API inside this module ({@code org.rma4j.messaging})
 * need, in the style of the JDK's {@code SharedSecrets}: {@code org.rma4j} installs the one implementation
 * when {@link RmaJob} is initialized, and {@link #get()} returns it. This package is not exported, so no
 * application reaches these methods; the public API gains nothing that only the two-sided layer needs
 * (a job's failure record, its abandonment, the peers' liveness, the window's wait strategy, the
 * runtime's argument checks and its translation of wait failures).
 */
public interface RuntimeAccess {
    /**
     * @throws org.rma4j.RmaException OTHER if {@code job} is closed.
     */
    void checkOpen(RmaJob job, String call);

    /**
     * @return the first recorded failure of {@code job}'s rank, or null.
     */
    Throwable failure(RmaJob job);

    /**
     * Records {@code e} as a failure of {@code job}'s rank (it is then out of step with its peers).
     *
     * @return {@code e}.
     */
    RuntimeException recordFailure(RmaJob job, RuntimeException e);

    /**
     * Leaves the job without waiting for peers: the rank is marked failed (see {@link RmaJob}).
     */
    void abandon(RmaJob job, Throwable cause);

    /**
     * @return the liveness check, for a wait of a collective nature, of the other ranks of the
     *         communicator {@code window} was made over.
     */
    Liveness peers(Window window);

    /**
     * @return the wait strategy of {@code window}'s job.
     */
    WaitStrategy waitStrategy(Window window);

    /**
     * @return the job {@code window} belongs to.
     */
    RmaJob jobOf(Window window);

    /**
     * The runtime's one translation of a lower-layer wait failure into its API exception.
     */
    RuntimeException translate(RuntimeException e, int rank, String waited);

    /**
     * Runs {@code wait}, a Messaging receive or send blocked on {@code window}'s notification endpoint,
     * published as this rank's wait state for the launcher's reports and recorded as a JFR event.
     *
     * @param peer the source (or {@code Rma.ANY_SOURCE}) or the destination.
     */
    void messagingWait(Window window, boolean send, int peer, int tag, Runnable wait);

    /**
     * Takes the notifications that have arrived at this rank's endpoint of {@code window} and that no started
     * request matches (those a wait for room in a full lane moved to the unexpected queue first), in delivery
     * order, at most {@code batch.capacity()}, into {@code batch}: the two-sided layer's receive path, one hold
     * of the endpoint's guard per batch instead of a request's start and test per notification.
     *
     * @return how many were taken.
     */
    int drainArrivals(Window window, ArrivalBatch batch);

    /**
     * {@link Window#putNotify(MemorySegment, int, long, int)} that publishes its notification only if this rank's
     * lane at {@code target} has room; the data is written in any case.
     *
     * @return whether the notification was published.
     */
    boolean putNotifyIfRoom(Window window, MemorySegment origin, int target, long targetDisp, int tag);

    /**
     * A notified put of at most {@link org.rma4j.NotifyRequest#INLINE_BYTES} bytes whose data travels in its
     * notification only: the window at {@code targetDisp} is not written, and the target takes the data from the
     * arrival ({@link ArrivalBatch#inlineWords}). For a layer that owns the target's bytes at {@code targetDisp}
     * and never reads a message there (Messaging's short messages). Checks, waits for room and throws as
     * {@link Window#putNotify(MemorySegment, int, long, int)} does.
     *
     * @return false, and nothing was sent, if {@code origin} is longer than {@code INLINE_BYTES} or {@code target}
     *         is reached through the transport between nodes, whose notifications carry no data.
     */
    boolean putNotifyInlineOnly(Window window, MemorySegment origin, int target, long targetDisp, int tag);

    /**
     * @return whether {@code rank} of {@code window} runs on this node: this process maps its memory, and its
     *         process may be read directly ({@link org.rma4j.shm.CrossMemory}). False for a bad rank.
     */
    boolean onThisNode(Window window, int rank);

    /**
     * Waits until a notification has arrived at this rank's endpoint of {@code window}, through the window's wait
     * strategy with its liveness checks, and takes arrivals as {@link #drainArrivals} does in the same hold of the
     * endpoint's guard as the poll that found them (a receive that waited does not take the guard and look for
     * the entry a second time).
     *
     * @return how many were taken into {@code batch}: 0 if every arrival went to a started request.
     * @throws org.rma4j.RankFailedException if a rank of the job dies meanwhile.
     * @throws org.rma4j.RmaTimeoutException after the job's wait timeout.
     */
    int awaitArrivals(Window window, ArrivalBatch batch);

    /**
     * @return {@code length} elements of {@code elementBytes} of {@code array} from {@code offset}.
     * @throws org.rma4j.RmaException COUNT for a range outside the array.
     */
    MemorySegment slice(MemorySegment array, int offset, int length, int elementBytes);

    /**
     * @throws org.rma4j.RmaException OP if {@code type} does not accept {@code op}.
     */
    void checkOp(String call, Op op, Datatype type);

    /**
     * @return the implementation {@code org.rma4j} installed.
     */
    static RuntimeAccess get() {
        RuntimeAccess access = Holder.access;
        if (access == null) {
            try {
                Class.forName(RmaJob.class.getName(), true, RuntimeAccess.class.getClassLoader());
            } catch (final ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            access = Holder.access;
        }
        return access;
    }

    /**
     * Installs the implementation; called once by {@code org.rma4j}.
     */
    static void set(final RuntimeAccess access) {
        if (Holder.access != null) {
            throw new IllegalStateException("RuntimeAccess is installed already");
        }
        Holder.access = access;
    }

    /** The installed implementation. */
    final class Holder {
        private static volatile RuntimeAccess access;

        private Holder() {
        }
    }
}
