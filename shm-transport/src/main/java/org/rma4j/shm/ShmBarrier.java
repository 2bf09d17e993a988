package org.rma4j.shm;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;

/**
 * A sense-reversing central barrier for a fixed number of parties over a {@link BarrierLayout} in a
 * shared mapping. Each party (a thread or process) uses its own instance over its own mapping.
 *
 * <p>Every store a party made before {@link #await()} is visible to every load another party makes
 * after its own {@code await()} returns: the call begins and ends with a full fence. Once an
 * {@code await()} ended with PeerFailedException or WaitTimeoutException, the barrier is broken: every
 * later {@code await()} of that party throws the same kind of exception at once.
 */
public final class ShmBarrier {
    private final MemorySegment segment;
    private final long arrivalsOffset;
    private final long generationOffset;
    private final int parties;
    private final WaitStrategy waitStrategy;
    private final Liveness liveness;
    private final Broken broken = new Broken();
    private final Runnable arriveAndWait = this::arriveAndWait;
    /** The generation this party's current wait waits to pass (written and read by this party only). */
    private int awaited;
    /** The condition of the wait, made once: a wait allocates nothing. */
    private final BooleanSupplier passed = this::passed;

    /**
     * @param segment      mapping that holds the barrier.
     * @param offset       offset of the {@link BarrierLayout}, 8-byte aligned.
     * @param parties      number of parties, >= 1.
     * @param waitStrategy how to wait.
     * @param liveness     check of the other parties while waiting.
     */
    public ShmBarrier(final MemorySegment segment, final long offset, final int parties,
        final WaitStrategy waitStrategy, final Liveness liveness) {
        if (parties < 1) {
            throw new IllegalArgumentException("parties=" + parties + " must be >= 1");
        }
        this.segment = segment;
        this.arrivalsOffset = offset + BarrierLayout.ARRIVALS_OFFSET;
        this.generationOffset = offset + BarrierLayout.GENERATION_OFFSET;
        this.parties = parties;
        this.waitStrategy = waitStrategy;
        this.liveness = liveness;
    }

    /**
     * Waits until every party has arrived.
     *
     * @throws PeerFailedException when a party is found dead while waiting.
     */
    public void await() {
        broken.await(arriveAndWait);
    }

    private void arriveAndWait() {
        VarHandle.fullFence();
        // NOTE: the generation must be read before arriving: once this party's arrival is counted the
        // last party may advance it at any time.
        final int generation = Words.getIntVolatile(segment, generationOffset);
        final int arrived = Words.getAndAddInt(segment, arrivalsOffset, 1) + 1;
        if (arrived == parties) {
            // NOTE: reset the count before publishing the new generation; parties that see the new
            // generation may arrive at the next barrier at once.
            Words.putIntVolatile(segment, arrivalsOffset, 0);
            WaitWords.putIntVolatileAndWake(segment, generationOffset, generation + 1);
        } else {
            awaited = generation;
            waitStrategy.awaitWord(segment, generationOffset, passed, liveness);
        }
        VarHandle.fullFence();
    }

    private boolean passed() {
        return Words.getIntVolatile(segment, generationOffset) != awaited;
    }

    public int parties() {
        return parties;
    }
}
