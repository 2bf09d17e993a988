package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import org.rma4j.internal.CommunicatorLayout;
import org.rma4j.internal.mpi.ActiveMessage;
import org.rma4j.internal.mpi.AmHandler;
import org.rma4j.internal.mpi.AmLayout;
import org.rma4j.internal.mpi.MpiLink;
import org.rma4j.internal.mpi.NativeBuffers;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.Words;

/**
 * The collective machinery of a communicator whose members run on several nodes: its barrier, call words and
 * record areas, so that the protocols written for shared memory (call matching in {@link CollectiveCalls},
 * window and communicator creation over records) run unchanged, and the rounds of its {@link MpiExchange}.
 *
 * <p>Everything is one operation, {@link #gather}: in round {@code k} (rounds counted by each member alike, its
 * collective calls being made in the same order) every member sends its contribution to every other member as
 * a message of the link ({@link #CONTRIBUTION}, keyed by the communicator), and waits until it holds every
 * member's contribution of round {@code k}; contributions of later rounds that arrive early are kept. The
 * barrier of a collective call gathers each member's current call word and record ({@link #RECORD_LENGTH}
 * bytes): after it, {@link #record(int)} of a member is what it wrote before the barrier, and {@link #call} of
 * a member is the word it entered the barrier with, which {@link CollectiveCalls#checkCompleted} compares as it
 * compares a file's call words. A member's own record is its own memory, written between barriers.
 *
 * <p>No MPI collective is used: an MPI communicator per rma4j communicator would need {@code MPI_Comm_split}, a
 * blocking collective, which two threads of a rank making collective calls on two communicators at once would
 * deadlock under {@code MPI_THREAD_SERIALIZED}. A member that waits serves its peers ({@link MpiLink#poll}).
 *
 * <p>The barrier and the gathers are made by one thread at a time (a rank's collective calls on one
 * communicator); contributions are stored by whichever thread polls the link (guarded by this object).
 */
final class MpiCollective implements CollectiveCalls.CallWords, AmHandler {
    /** Bytes of a member's record: those of a communicator file's record area. */
    static final int RECORD_LENGTH = CommunicatorLayout.RECORD_LENGTH;
    /** Kind of a contribution message. */
    static final int CONTRIBUTION = 100;
    private static final int ENTRY_LENGTH = Long.BYTES + RECORD_LENGTH;

    private final MpiLink link;
    private final long key;
    private final int[] members;
    private final int rank;
    private final int size;
    private final NativeBuffers.Buffer own;
    private final NativeBuffers.Buffer gathered;
    private final long[] ownWords = new long[2];
    private final long[][] words;
    private long current;
    private long round;
    /** Contributions received, by round (guarded by this). */
    private final Map<Long, NativeBuffers.Buffer[]> arrived = new HashMap<>();
    private boolean closed;

    /**
     * @param key     the communicator's key in the link's messages (unique in the job).
     * @param members the members' job ranks (MPI world ranks), in communicator order.
     */
    MpiCollective(final MpiLink link, final long key, final int[] members, final int rank) {
        this.link = link;
        this.key = key;
        this.members = members;
        this.rank = rank;
        this.size = members.length;
        this.own = link.buffers().acquire(ENTRY_LENGTH);
        this.gathered = link.buffers().acquire((long)ENTRY_LENGTH * size);
        this.words = new long[size][2];
        own.segment().asSlice(0, ENTRY_LENGTH).fill((byte)0);
        link.register(key, this);
    }

    /** The key of the communicator {@code number} of job rank {@code creator} (-1: the world). */
    static long key(final int creator, final int number) {
        return 1L << 62 | (long)(creator + 1) << 32 | (number & 0xFFFFFFFFL);
    }

    MpiLink link() {
        return link;
    }

    /**
     * @return the record area of {@code member}: this member's own, or the copy of another's made by the last
     *         barrier.
     */
    MemorySegment record(final int member) {
        return member == rank
            ? own.segment().asSlice(Long.BYTES, RECORD_LENGTH)
            : gathered.segment().asSlice((long)member * ENTRY_LENGTH + Long.BYTES, RECORD_LENGTH);
    }

    @Override
    public long call(final int member, final int parity) {
        return member == rank ? ownWords[parity] : words[member][parity];
    }

    @Override
    public void publishCall(final int member, final int parity, final long call) {
        if (member != rank) {
            throw new IllegalStateException("member " + rank + " publishes only its own call word, not " + member);
        }
        ownWords[parity] = call;
        current = call;
    }

    /**
     * The barrier: gathers every member's current call word and record.
     */
    void barrier(final WaitStrategy wait, final Liveness liveness, final String what) {
        Words.putLong(own.segment(), 0, current);
        final NativeBuffers.Buffer[] all = gather(own.segment().asSlice(0, ENTRY_LENGTH), wait, liveness, what);
        for (int m = 0; m < size; m++) {
            if (m != rank) {
                MemorySegment.copy(all[m].segment(), 0, gathered.segment(), (long)m * ENTRY_LENGTH, ENTRY_LENGTH);
                final long word = Words.getLong(all[m].segment(), 0);
                words[m][CollectiveCalls.sequenceOf(word) & 1] = word;
            }
        }
        release(all);
    }

    /**
     * One round: sends {@code mine} to every other member and waits until every member's contribution of the
     * round arrived, serving the link meanwhile.
     *
     * @return every member's contribution (this member's a copy of {@code mine}), to {@link #release} when read;
     *         each holds the contribution at its start (its length is the sender's business).
     */
    NativeBuffers.Buffer[] gather(final MemorySegment mine, final WaitStrategy wait, final Liveness liveness,
        final String what) {
        final long thisRound = round++;
        for (int m = 0; m < size; m++) {
            if (m != rank) {
                final NativeBuffers.Buffer message = link.request(mine.byteSize());
                AmLayout.writeHeader(message.segment(), CONTRIBUTION, key, m, rank, thisRound, 0, 0, 0,
                    mine.byteSize());
                MemorySegment.copy(mine, 0, message.segment(), AmLayout.HEADER_LENGTH, mine.byteSize());
                link.send(members[m], message);
            }
        }
        final NativeBuffers.Buffer copy = link.buffers().acquire(Math.max(1, mine.byteSize()));
        MemorySegment.copy(mine, 0, copy.segment(), 0, mine.byteSize());
        store(thisRound, rank, copy);
        wait.awaitPolled(() -> complete(thisRound), liveness, what);
        synchronized (this) {
            return arrived.remove(thisRound);
        }
    }

    private synchronized boolean complete(final long which) {
        final NativeBuffers.Buffer[] all = arrived.get(which);
        if (all == null) {
            return false;
        }
        for (final NativeBuffers.Buffer contribution : all) {
            if (contribution == null) {
                return false;
            }
        }
        return true;
    }

    private synchronized void store(final long which, final int member, final NativeBuffers.Buffer contribution) {
        arrived.computeIfAbsent(which, r -> new NativeBuffers.Buffer[size])[member] = contribution;
    }

    @Override
    public boolean handle(final ActiveMessage message) {
        final MemorySegment payload = message.payload();
        final NativeBuffers.Buffer contribution = link.buffers().acquire(Math.max(1, payload.byteSize()));
        MemorySegment.copy(payload, 0, contribution.segment(), 0, payload.byteSize());
        store(message.offset(), message.origin(), contribution);
        return true;
    }

    /** Gives back the buffers of a gathered round. */
    void release(final NativeBuffers.Buffer[] contributions) {
        for (final NativeBuffers.Buffer contribution : contributions) {
            link.buffers().release(contribution);
        }
    }

    /**
     * Ends the communicator's machinery at this rank: no more contributions are accepted. Local (the members
     * drop their last reference at the same collective call, or the job ends).
     */
    synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        link.unregister(key);
        for (final NativeBuffers.Buffer[] left : arrived.values()) {
            for (final NativeBuffers.Buffer contribution : left) {
                if (contribution != null) {
                    link.buffers().release(contribution);
                }
            }
        }
        arrived.clear();
        link.buffers().release(own);
        link.buffers().release(gathered);
    }
}
