package org.rma4j.shm;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;

/**
 * A dissemination barrier over a {@link DisseminationBarrierLayout} in a shared mapping: ceil(log2 n)
 * rounds in which each party signals one party and waits for another, every flag with a single writer.
 * Two parties meet after one exchange of flags in each direction, which overlap: about one cache-line
 * transfer, where a central counter barrier needs the counter's line to travel and then the release's.
 *
 * <p>With more parties than the machine has CPUs ({@link AdaptiveSpin#ONLINE_CPUS}) the same region holds a
 * central counter barrier instead ({@link ShmBarrier} over its first two blocks, the {@link BarrierLayout}):
 * there each round of a dissemination barrier waits for one particular party, which is often queued behind
 * others for a core, while a central barrier needs every party to run once to arrive and the last to release
 * them all. Every party of a window makes the same choice (one machine, one count).
 *
 * <p>Each party (a thread or process) uses its own instance, created before the first {@link #await()}
 * of any party and used by one thread at a time; every party must call {@code await()} the same number
 * of times (a collective). Once an {@code await()} ended with PeerFailedException or WaitTimeoutException,
 * the barrier is broken: every later {@code await()} of that party throws the same kind of exception at
 * once. Every store a party made before {@code await()} is visible to every load
 * another party makes after its own {@code await()} returns: the call begins and ends with a full fence.
 */
public final class DisseminationBarrier {
    private final MemorySegment segment;
    private final long offset;
    private final int parties;
    private final int party;
    private final int rounds;
    private final WaitStrategy waitStrategy;
    private final Liveness liveness;
    private final BooleanSupplier flagReached = this::flagReached;
    private int episode;
    private final Broken broken = new Broken();
    private final Runnable signalAndWait = this::signalAndWait;
    private long waitedFlag;
    /** The token of the current {@link #await(long)}. */
    private long token;
    /** Per round, the token the party that signalled this one handed in the last await. */
    private final long[] received;
    /** The central barrier used instead with more parties than CPUs, or null. */
    private final ShmBarrier central;

    /**
     * @param segment      mapping that holds the barrier (zeroed before any party's first await).
     * @param offset       offset of the {@link DisseminationBarrierLayout}, 128-byte aligned.
     * @param parties      number of parties, >= 1.
     * @param party        this party, 0 .. parties - 1.
     * @param waitStrategy how to wait.
     * @param liveness     check of the other parties while waiting.
     */
    public DisseminationBarrier(final MemorySegment segment, final long offset, final int parties, final int party,
        final WaitStrategy waitStrategy, final Liveness liveness) {
        this(segment, offset, parties, party, waitStrategy, liveness, central(parties));
    }

    /**
     * @return whether the region of a barrier of {@code parties} parties holds the central counter barrier on this
     *         machine: with more parties than CPUs.
     */
    static boolean central(final int parties) {
        return parties > AdaptiveSpin.ONLINE_CPUS;
    }

    /**
     * @param central whether to run the central counter barrier in the region instead (all parties alike).
     */
    DisseminationBarrier(final MemorySegment segment, final long offset, final int parties, final int party,
        final WaitStrategy waitStrategy, final Liveness liveness, final boolean central) {
        this.rounds = DisseminationBarrierLayout.rounds(parties);
        if (party < 0 || party >= parties) {
            throw new IllegalArgumentException("party=" + party + " is outside 0.." + (parties - 1));
        }
        this.segment = segment;
        this.offset = offset;
        this.parties = parties;
        this.party = party;
        this.waitStrategy = waitStrategy;
        this.liveness = liveness;
        this.central = central && parties > 1 ? new ShmBarrier(segment, offset, parties, waitStrategy, liveness) : null;
        this.received = new long[rounds];
    }

    /**
     * Waits until every party has arrived.
     *
     * @throws PeerFailedException when a party is found dead while waiting.
     * @throws WaitTimeoutException when the wait strategy's timeout passes.
     */
    public void await() {
        await(0);
    }

    /**
     * {@link #await()}, handing {@code token} to the parties this one signals: after it returns,
     * {@link #receivedToken} gives the token each party that signalled this one handed in the same call
     * (without a further cache miss: the token travels in the flag's line). Not with the central barrier
     * ({@link #tokenRounds()} is then 0).
     */
    public void await(final long token) {
        if (central != null) {
            central.await();
        } else {
            this.token = token;
            broken.await(signalAndWait);
        }
    }

    /**
     * @return the rounds whose {@link #receivedToken} the last {@link #await(long)} filled: ceil(log2(parties)),
     *         0 with the central barrier.
     */
    public int tokenRounds() {
        return central != null ? 0 : rounds;
    }

    /**
     * @return the party that signalled this one in {@code round}: (party - 2^round) mod parties.
     */
    public int signalledBy(final int round) {
        return Math.floorMod(party - (1 << round), parties);
    }

    /**
     * @return the token {@link #signalledBy signalledBy(round)} handed to the last {@link #await(long)}.
     */
    public long receivedToken(final int round) {
        return received[round];
    }

    private void signalAndWait() {
        VarHandle.fullFence();
        final int current = ++episode;
        final long tokenAt = DisseminationBarrierLayout.tokenOffset(current);
        int distance = 1;
        for (int round = 0; round < rounds; round++) {
            final int partner = (party + distance) % parties;
            final long partnerFlag = offset + DisseminationBarrierLayout.flagOffset(parties, partner, round);
            // NOTE: plain, before the flag's volatile store that publishes it (the layout's "Token").
            Words.putLong(segment, partnerFlag + tokenAt, token);
            WaitWords.putIntVolatileAndWake(segment, partnerFlag, current);
            waitedFlag = offset + DisseminationBarrierLayout.flagOffset(parties, party, round);
            waitStrategy.awaitCondition(segment, waitedFlag, flagReached, liveness);
            received[round] = Words.getLong(segment, waitedFlag + tokenAt);
            distance <<= 1;
        }
        VarHandle.fullFence();
    }

    public int parties() {
        return parties;
    }

    private boolean flagReached() {
        return Words.getIntVolatile(segment, waitedFlag) - episode >= 0;
    }
}
