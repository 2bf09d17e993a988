package org.rma4j.notify;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

import org.rma4j.shm.Words;

/**
 * The consumer side of dead-producer handling for one {@link NotifyRing} instance: decides whether the
 * unpublished slot at the consumer's index is given up. Consumer thread only, except {@link #skipped()}.
 *
 * <p>A slot is judged at most once per check interval. Its claimer is the producer id in its claim mark,
 * or unknown when the producer index shows a claim that is not marked yet. The slot is given up when
 * {@link ProducerLiveness#isDead} (known claimer) or {@link ProducerLiveness#anyDead} (unknown claimer)
 * says so, by a CAS of the sequence word from the value judged to the skip mark: the CAS fails if the
 * claimer recorded itself or published in between, and a producer whose unrecorded claim was given up
 * sees the skip mark in its own recording CAS and claims again.
 */
final class StuckSlots {
    /** Polls of one unpublished slot between two reads of the clock. */
    static final int POLLS_PER_CLOCK_READ = 64;

    private final MemorySegment segment;
    private final long producerIndexOffset;
    private final ProducerLiveness liveness;
    private final StuckSlotListener listener;
    private final long checkIntervalNs;
    private long watchedIndex = -1;
    private long nextCheckNs;
    private boolean watchTimed;
    private int pollsUntilClockRead;
    /** Set by a waiting thread's periodic check, read by the consumer: a hint, hence only volatile. */
    private volatile boolean clockReadRequested;
    private volatile long skipped;

    StuckSlots(final MemorySegment segment, final long producerIndexOffset, final ProducerLiveness liveness,
        final StuckSlotListener listener, final long checkIntervalNs) {
        if (checkIntervalNs < 0) {
            throw new IllegalArgumentException("stuck check interval " + checkIntervalNs + " ns is negative");
        }
        this.segment = segment;
        this.producerIndexOffset = producerIndexOffset;
        this.liveness = Objects.requireNonNull(liveness, "liveness");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.checkIntervalNs = checkIntervalNs;
    }

    /**
     * Decides about the unpublished slot at the consumer's {@code index}.
     *
     * @param index          the consumer index.
     * @param sequenceOffset offset in the segment of the slot's sequence word.
     * @param sequence       the value the consumer read from it (acquire), not the published value.
     * @return true if the slot is given up and the consumer must move past it.
     */
    boolean giveUpIfStuck(final long index, final long sequenceOffset, final long sequence) {
        if (NotifyRingLayout.isMarkFor(sequence, index) && !NotifyRingLayout.isClaimMarkFor(sequence, index)) {
            return true; // given up by an earlier consumer that did not get to advance the index
        }
        if (liveness == ProducerLiveness.NEVER_DEAD || !checkDue(index)) {
            return false;
        }
        final int claimer;
        final boolean dead;
        if (NotifyRingLayout.isClaimMarkFor(sequence, index)) {
            claimer = NotifyRingLayout.markedProducer(sequence);
            dead = liveness.isDead(claimer);
        } else if (Words.getLongVolatile(segment, producerIndexOffset) > index) {
            claimer = ProducerLiveness.UNKNOWN_PRODUCER;
            dead = liveness.anyDead();
        } else {
            return false; // nothing claimed: the ring is empty
        }
        // NOTE: a CAS from the value judged, so it fails if the claimer recorded itself or published meanwhile.
        if (!dead || !Words.compareAndSetLong(segment, sequenceOffset, sequence, NotifyRingLayout.skipMark(index))) {
            return false;
        }
        skipped = skipped + 1;
        listener.onSkipped(index, claimer);
        return true;
    }

    /**
     * @return slots given up so far; readable from any thread.
     */
    long skipped() {
        return skipped;
    }

    /**
     * Makes the next poll of an unpublished slot read the clock, whatever the poll count. A waiter calls
     * this from its periodic liveness check, so that a sleeping consumer, which polls only when woken,
     * still judges a stuck slot within a few liveness periods.
     */
    void requestClockRead() {
        clockReadRequested = true;
    }

    /**
     * Whether the slot at {@code index} has been watched for {@code checkIntervalNs}. The clock is read
     * once every {@link #POLLS_PER_CLOCK_READ} polls of an unpublished slot (or when
     * {@link #requestClockRead requested}), not on every poll: an empty ring is polled in every drain and
     * every spin of a waiter, and a clock read costs more than the rest of such a poll.
     */
    private boolean checkDue(final long index) {
        if (index != watchedIndex) {
            watchedIndex = index;
            watchTimed = false;
            pollsUntilClockRead = POLLS_PER_CLOCK_READ; // the next slot is usually just not published yet
        }
        if (checkIntervalNs > 0 && --pollsUntilClockRead > 0 && !clockReadRequested) {
            return false;
        }
        pollsUntilClockRead = POLLS_PER_CLOCK_READ;
        clockReadRequested = false;
        final long now = System.nanoTime();
        if (!watchTimed) {
            watchTimed = true;
            nextCheckNs = now + checkIntervalNs;
        }
        if (now - nextCheckNs < 0) {
            return false;
        }
        nextCheckNs = now + checkIntervalNs;
        return true;
    }
}
