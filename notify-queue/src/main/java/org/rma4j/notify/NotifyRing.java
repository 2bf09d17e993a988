package org.rma4j.notify;

import static org.rma4j.notify.NotifyRingLayout.CAPACITY_OFFSET;
import static org.rma4j.notify.NotifyRingLayout.CONSUMER_INDEX_OFFSET;
import static org.rma4j.notify.NotifyRingLayout.PRODUCER_INDEX_OFFSET;
import static org.rma4j.notify.NotifyRingLayout.SEQUENCE_OFFSET;
import static org.rma4j.notify.NotifyRingLayout.SIGNAL_OFFSET;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.rma4j.shm.Liveness;
import org.rma4j.shm.PeerFailedException;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.WaitWords;
import org.rma4j.shm.Words;

/**
 * A bounded multi-producer single-consumer ring of notifications in shared memory, laid out as
 * {@link NotifyRingLayout} describes. Each process (or thread) maps the ring's file and builds its own
 * instance over its mapping; producers in any number of processes offer, one consumer polls.
 *
 * <p>Producer side, thread-safe: {@link #offer} claims a slot lock-free (JCTools {@code MpscArrayQueue}
 * design: CAS of a padded producer index, bounded by a cached consumer index), writes the entry and
 * publishes it with a release store of the slot's sequence word, then {@link WaitWords#signal signals}
 * the consumer, which costs no system call unless the consumer announced itself sleeping. A full ring
 * makes {@code offer} return false; it never blocks.
 *
 * <p>Consumer side, one thread at a time: {@link #poll}, {@link #drain}, {@link #awaitNotEmpty}. Entries are
 * delivered in claim order; a slot is read only after an acquire load of its sequence word saw it
 * published. Happens-before: everything a producer stored before {@code offer} returned true is visible to
 * the handler that receives the entry; the handler's reads of a slot happen before any producer reuses it.
 *
 * <p>Dead producers: a producer records its id in the slot when it claims it. When the slot at the
 * consumer's index stays unpublished, the consumer asks its {@link ProducerLiveness} (at most once per
 * check interval) and gives the slot up only if the recorded producer is dead, or, for a claim not yet
 * recorded, if {@link ProducerLiveness#anyDead()}; it counts the slot in {@link #skippedSlots()} and tells
 * its {@link StuckSlotListener}. Giving up is a CAS of the sequence word to a skip mark, racing the
 * producer's own CAS that records it, so an unrecorded claim is either given up or recorded, never both.
 */
public final class NotifyRing {
    /** Default time a slot stays unpublished before the consumer asks whether its producer is dead. */
    public static final long STUCK_CHECK_INTERVAL_NS_DEFAULT = TimeUnit.MILLISECONDS.toNanos(10);

    private static final long FULL = -1;

    /*
     * Invariants:
     * - consumerIndex <= producerIndex <= consumerIndex + capacity (read at one instant).
     * - Index i is claimed by exactly one successful CAS of the producer index from i to i + 1.
     * - The sequence word of index i's slot takes the values: an earlier lap's value, then at most one of
     *   claimMark(i, p) and skipMark(i), each set by a CAS from the earlier value (so at most one wins), then
     *   possibly publishedValue(i) (from claimMark) or skipMark(i) (from claimMark, claimer dead).
     * - Slot fields are written only by the claimer of the current index, between its claim mark and its
     *   publication, and read only by the consumer after it saw the publication.
     * Non-invariants:
     * - producerLimit may lag the consumer index: it is only ever an underestimate of the free space.
     * - size() is a snapshot; it counts claimed entries, published or not.
     * Linearization: offer at the successful claim CAS (the entry's position) and becomes visible at the
     * publishing release store; a consumed entry frees its slot at the consumer index's release store.
     */

    private final MemorySegment segment;
    private final int capacity;
    private final int producerId;
    private final long producerIndexOffset;
    private final long consumerIndexOffset;
    private final long signalOffset;
    private final long ringOffset;

    /** Producer side: a lower bound of consumerIndex + capacity, shared by the producer threads of this instance. */
    private volatile long producerLimit;

    private final StuckSlots stuckSlots;
    private final Notification view = Notification.view();
    private final BooleanSupplier headReady = this::headReady;
    /** The waiter's periodic check: also has the next poll judge a stuck slot by the clock. */
    private final Liveness awaitLiveness = this::checkWhileAwaiting;
    private Liveness awaitPeers = Liveness.NONE;
    private boolean consuming;

    /**
     * A ring whose consumer never gives a slot up ({@link ProducerLiveness#NEVER_DEAD}).
     *
     * @see #NotifyRing(MemorySegment, long, int, int, ProducerLiveness, StuckSlotListener, long)
     */
    public NotifyRing(final MemorySegment segment, final long offset, final int capacity, final int producerId) {
        this(segment, offset, capacity, producerId, ProducerLiveness.NEVER_DEAD, StuckSlotListener.NONE,
            STUCK_CHECK_INTERVAL_NS_DEFAULT);
    }

    /**
     * Opens the ring that {@link #format} laid out at {@code offset} of {@code segment}.
     *
     * @param segment              the shared mapping holding the ring.
     * @param offset               start of the ring in the mapping ({@link org.rma4j.shm.Align#PAD}-aligned).
     * @param capacity             entries of the ring, as formatted.
     * @param producerId           id this instance records in the slots it claims (>= 0; -1 never offers).
     * @param liveness             consumer side: whether the producer of a stuck slot is dead.
     * @param listener             consumer side: told about each slot given up.
     * @param stuckCheckIntervalNs consumer side: least time between two liveness questions about a slot
     *                             (0: at every poll that finds it unpublished).
     * @throws IllegalArgumentException if the placement is invalid or the ring was formatted with another
     *                                  capacity.
     * @throws IllegalStateException    if the ring was never formatted.
     */
    public NotifyRing(final MemorySegment segment, final long offset, final int capacity, final int producerId,
        final ProducerLiveness liveness, final StuckSlotListener listener, final long stuckCheckIntervalNs) {
        NotifyRingLayout.checkPlacement(segment, offset, capacity);
        if (producerId != ProducerLiveness.UNKNOWN_PRODUCER) {
            NotifyRingLayout.checkProducerId(producerId);
        }
        final int formatted = Words.getIntAcquire(segment, offset + CAPACITY_OFFSET);
        if (formatted == 0) {
            throw new IllegalStateException("no ring was formatted at offset " + offset);
        }
        if (formatted != capacity) {
            throw new IllegalArgumentException(
                "ring at offset " + offset + " has capacity " + formatted + ", not " + capacity);
        }
        this.segment = segment;
        this.capacity = capacity;
        this.producerId = producerId;
        this.producerIndexOffset = offset + PRODUCER_INDEX_OFFSET;
        this.consumerIndexOffset = offset + CONSUMER_INDEX_OFFSET;
        this.signalOffset = offset + SIGNAL_OFFSET;
        this.ringOffset = offset;
        this.stuckSlots = new StuckSlots(segment, producerIndexOffset, liveness, listener, stuckCheckIntervalNs);
    }

    /**
     * Lays out an empty ring at {@code offset}: zeroes header and entries, then publishes the capacity with
     * a release store. Call once, before any other party opens the ring.
     *
     * @throws IllegalArgumentException if the placement is invalid.
     */
    public static void format(final MemorySegment segment, final long offset, final int capacity) {
        NotifyRingLayout.checkPlacement(segment, offset, capacity);
        segment.asSlice(offset, NotifyRingLayout.lengthFor(capacity)).fill((byte)0);
        Words.putIntRelease(segment, offset + CAPACITY_OFFSET, capacity);
    }

    public int capacity() {
        return capacity;
    }

    public int producerId() {
        return producerId;
    }

    /**
     * Offers one notification. Thread-safe; lock-free.
     *
     * @param source        who sends it (>= 0).
     * @param tag           the sender's tag (>= 0).
     * @param displacement  where the notified access went in the target's memory.
     * @param length        bytes of the notified access (>= 0).
     * @param flags         the caller's flags, bits of {@link NotifyRingLayout#USER_FLAGS_MASK}.
     * @param inlinePayload up to {@link NotifyRingLayout#INLINE_CAPACITY} bytes carried in the entry, or null.
     * @return true if the notification was published; false if the ring was full (nothing was written: try
     *         again after the consumer made room, draining your own ring meanwhile).
     * @throws IllegalArgumentException naming an invalid argument.
     */
    public boolean offer(final int source, final int tag, final long displacement, final int length, final int flags,
        final MemorySegment inlinePayload) {
        NotifyRingLayout.checkEntry(source, tag, length, flags, inlinePayload == null ? 0 : inlinePayload.byteSize());
        checkMayProduce();
        long index;
        do {
            index = claimIndex();
            if (index == FULL) {
                return false;
            }
        } while (!recordClaim(index));
        commit(index, source, tag, displacement, length, flags, inlinePayload);
        return true;
    }

    /**
     * First step of an offer: claims the next index by a CAS of the producer index.
     *
     * @return the claimed index, or {@link #FULL}.
     */
    long claimIndex() {
        long limit = producerLimit;
        long index;
        do {
            index = Words.getLongVolatile(segment, producerIndexOffset);
            if (index >= limit) {
                limit = Words.getLongAcquire(segment, consumerIndexOffset) + capacity;
                if (index >= limit) {
                    return FULL;
                }
                producerLimit = limit;
            }
        } while (!Words.compareAndSetLong(segment, producerIndexOffset, index, index + 1));
        return index;
    }

    /**
     * Second step: records this instance's producer id in the claimed slot by a CAS of its sequence word.
     * The CAS starts only from the value the slot holds between laps: 0 in the first lap, else the
     * published value or the skip mark of {@code index - capacity}. Any other value means the consumer gave
     * this claim up (its skip mark for {@code index}) and another producer may already have claimed and
     * recorded the slot for a later lap: recording over that would lose both notifications (ABA).
     *
     * @return false if the consumer gave the claim up first (the caller must claim another index).
     */
    boolean recordClaim(final long index) {
        final long sequenceOffset = entryOffset(index) + SEQUENCE_OFFSET;
        final long mark = NotifyRingLayout.claimMark(index, producerId);
        final long seen = Words.getLongVolatile(segment, sequenceOffset);
        if (!NotifyRingLayout.isPreviousLap(seen, index, capacity)) {
            return false;
        }
        // NOTE: a CAS, not a store: it must fail if the consumer's skip mark landed after the read.
        return Words.compareAndSetLong(segment, sequenceOffset, seen, mark);
    }

    /**
     * Last step: writes the entry, publishes it and signals the consumer.
     */
    void commit(final long index, final int source, final int tag, final long displacement, final int length,
        final int flags, final MemorySegment inlinePayload) {
        final long entry = entryOffset(index);
        Notification.writeFields(segment, entry, source, tag, displacement, length, flags, inlinePayload);
        // NOTE: release: the fields and payload must be visible before the sequence word says published.
        Words.putLongRelease(segment, entry + SEQUENCE_OFFSET, NotifyRingLayout.publishedValue(index));
        WaitWords.signal(segment, signalOffset);
    }

    /**
     * Delivers the next notification, if one is published. Consumer thread only.
     *
     * @return 1 if a notification was delivered, else 0.
     */
    public int poll(final NotificationHandler handler) {
        return drain(handler, 1);
    }

    /**
     * Delivers up to {@code limit} published notifications in ring order, stopping at the first slot not
     * yet published (after giving up slots of dead producers). Consumer thread only; not from a handler.
     * Each entry is consumed, and its slot freed, when its handler call returns or throws.
     *
     * @return notifications delivered.
     * @throws IllegalStateException if called from a handler of this ring.
     */
    public int drain(final NotificationHandler handler, final int limit) {
        Objects.requireNonNull(handler, "handler");
        enterConsumer();
        int delivered = 0;
        try {
            long index = Words.getLongAcquire(segment, consumerIndexOffset);
            while (delivered < limit) {
                final long entry = entryOffset(index);
                final long sequence = Words.getLongAcquire(segment, entry + SEQUENCE_OFFSET);
                if (sequence == NotifyRingLayout.publishedValue(index)) {
                    view.wrap(segment, entry);
                    delivered++;
                    try {
                        handler.onNotification(view);
                    } finally {
                        // NOTE: release: the handler's reads of the slot precede the producers' reuse of it.
                        Words.putLongRelease(segment, consumerIndexOffset, index + 1);
                    }
                } else if (stuckSlots.giveUpIfStuck(index, entryOffset(index) + SEQUENCE_OFFSET, sequence)) {
                    Words.putLongRelease(segment, consumerIndexOffset, index + 1);
                } else {
                    break;
                }
                index++;
            }
        } finally {
            consuming = false;
        }
        return delivered;
    }

    /**
     * Waits until {@link #poll} would deliver a notification, sleeping on the ring's signal word when idle
     * and giving up slots of dead producers meanwhile. Consumer thread only.
     *
     * @param strategy how to wait (spin, yield, futex sleep).
     * @param peers    run at least every {@link WaitStrategy#LIVENESS_PERIOD_NS} while waiting.
     * @throws PeerFailedException from {@code peers}.
     */
    public void awaitNotEmpty(final WaitStrategy strategy, final Liveness peers) {
        enterConsumer();
        try {
            awaitPeers = peers;
            strategy.awaitCondition(segment, signalOffset, headReady, awaitLiveness);
        } finally {
            consuming = false;
        }
    }

    /**
     * Waits on the ring's signal word until {@code ready} holds, for consumers shared by several threads
     * under the caller's lock: the waiting thread holds no lock while it sleeps, and {@code ready} takes
     * the lock to ask {@link #isHeadReady()} (or sees a completion another thread made and
     * {@link #wakeWaiters() signalled}). Producers signal the same word when they publish.
     *
     * @param strategy how to wait (spin, yield, futex sleep).
     * @param ready    the wake-up condition.
     * @param peers    run at least every {@link WaitStrategy#LIVENESS_PERIOD_NS} while waiting; before it
     *                 runs, the next {@link #isHeadReady()} judges a stuck slot by the clock.
     * @throws PeerFailedException from {@code peers}.
     */
    public void await(final WaitStrategy strategy, final BooleanSupplier ready, final Liveness peers) {
        strategy.awaitCondition(segment, signalOffset, ready, () -> {
            stuckSlots.requestClockRead();
            peers.check();
        });
    }

    /**
     * Whether {@link #poll} would deliver a notification now; gives up the head slot if its producer died.
     * Consumer side: one thread at a time (the caller's lock), not from a handler.
     */
    public boolean isHeadReady() {
        enterConsumer();
        try {
            return headReady();
        } finally {
            consuming = false;
        }
    }

    /**
     * Wakes every thread {@link #await waiting} on this ring: a consumer thread that completed what another
     * waits for calls it after making that visible (a volatile store). Costs a full fence and one load
     * when nobody sleeps.
     */
    public void wakeWaiters() {
        WaitWords.signal(segment, signalOffset);
    }

    /**
     * @return an estimate of the entries claimed and not yet consumed (published or not), 0..capacity.
     */
    public int size() {
        long consumer = Words.getLongVolatile(segment, consumerIndexOffset);
        while (true) {
            final long producer = Words.getLongVolatile(segment, producerIndexOffset);
            final long consumerAfter = Words.getLongVolatile(segment, consumerIndexOffset);
            if (consumerAfter == consumer) {
                return (int)Math.max(0, Math.min(capacity, producer - consumer));
            }
            consumer = consumerAfter;
        }
    }

    /**
     * @return whether no entry is claimed and unconsumed (an estimate, as {@link #size()}).
     */
    public boolean isEmpty() {
        return size() == 0;
    }

    /**
     * @return slots this instance's consumer gave up because their producer died.
     */
    public long skippedSlots() {
        return stuckSlots.skipped();
    }

    long producerIndex() {
        return Words.getLongVolatile(segment, producerIndexOffset);
    }

    long consumerIndex() {
        return Words.getLongVolatile(segment, consumerIndexOffset);
    }

    /** Offset in the segment of the consumer's signal wait word. */
    long signalOffset() {
        return signalOffset;
    }

    private void checkWhileAwaiting() {
        stuckSlots.requestClockRead();
        awaitPeers.check();
    }

    private boolean headReady() {
        while (true) {
            final long index = Words.getLongAcquire(segment, consumerIndexOffset);
            final long sequence = Words.getLongAcquire(segment, entryOffset(index) + SEQUENCE_OFFSET);
            if (sequence == NotifyRingLayout.publishedValue(index)) {
                return true;
            }
            if (!stuckSlots.giveUpIfStuck(index, entryOffset(index) + SEQUENCE_OFFSET, sequence)) {
                return false;
            }
            Words.putLongRelease(segment, consumerIndexOffset, index + 1);
        }
    }

    private long entryOffset(final long index) {
        return ringOffset + NotifyRingLayout.entryOffset(index, capacity);
    }

    private void enterConsumer() {
        if (consuming) {
            throw new IllegalStateException("the ring's consumer methods are not reentrant (called from a handler?)");
        }
        consuming = true;
    }

    private void checkMayProduce() {
        if (producerId == ProducerLiveness.UNKNOWN_PRODUCER) {
            throw new IllegalStateException("this ring instance was opened without a producer id");
        }
    }

    @Override
    public String toString() {
        return "NotifyRing{capacity=" + capacity + ", producerId=" + producerId + ", producerIndex=" + producerIndex()
            + ", consumerIndex=" + consumerIndex() + ", skippedSlots=" + skippedSlots() + '}';
    }
}
