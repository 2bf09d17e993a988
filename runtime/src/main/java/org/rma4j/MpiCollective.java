package org.rma4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.rma4j.internal.CommunicatorLayout;
import org.rma4j.internal.mpi.MpiLink;
import org.rma4j.mpi.MpiBasicType;
import org.rma4j.mpi.MpiComm;
import org.rma4j.mpi.MpiDatatype;
import org.rma4j.mpi.MpiRequest;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.Words;

/**
 * The collective machinery of a communicator whose members run on several nodes: its barrier, call words and
 * record areas over an MPI communicator, so that the protocols written for shared memory (call matching in
 * {@link CollectiveCalls}, window and communicator creation over records) run unchanged.
 *
 * <p>The barrier of every collective call is one {@code MPI_Iallgather} of each member's current call word and
 * record ({@link #RECORD_LENGTH} bytes): after it, {@link #record(int)} of a member is what it wrote before the
 * barrier, and {@link #call} of a member is the word it entered the barrier with, which
 * {@link CollectiveCalls#checkCompleted} compares as it compares a file's call words. A member's own record is
 * its own memory, written between barriers; the others' are copies made by the last barrier. Since every
 * collective call of the communicator starts with this all-gather of equal size, MPI matches them in order,
 * and two calls that differ are reported (by {@link CollectiveCalls}) before either issues an MPI collective of
 * another shape. A member that waits in the barrier serves its peers ({@link MpiLink#await}).
 *
 * <p>Used by one thread at a time (a rank's collective calls on one communicator).
 */
final class MpiCollective implements CollectiveCalls.CallWords {
    /** Bytes of a member's record: those of a communicator file's record area. */
    static final int RECORD_LENGTH = CommunicatorLayout.RECORD_LENGTH;
    private static final int ENTRY_LENGTH = Long.BYTES + RECORD_LENGTH;

    private final MpiLink link;
    private final MpiComm comm;
    private final MpiDatatype bytes;
    private final int rank;
    private final int size;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment own;
    private final MemorySegment gathered;
    private final long[] ownWords = new long[2];
    private final long[][] words;
    private long current;

    MpiCollective(final MpiLink link, final MpiComm comm, final int rank, final int size) {
        this.link = link;
        this.comm = comm;
        this.bytes = link.mpi().datatype(MpiBasicType.BYTE);
        this.rank = rank;
        this.size = size;
        this.own = arena.allocate(ENTRY_LENGTH, 8);
        this.gathered = arena.allocate((long)ENTRY_LENGTH * size, 8);
        this.words = new long[size][2];
    }

    MpiComm comm() {
        return comm;
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
            ? own.asSlice(Long.BYTES, RECORD_LENGTH)
            : gathered.asSlice((long)member * ENTRY_LENGTH + Long.BYTES, RECORD_LENGTH);
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
     * The barrier: gathers every member's current call word and record, serving the link while it waits.
     */
    void barrier(final WaitStrategy wait, final Liveness liveness, final String what) {
        Words.putLong(own, 0, current);
        final MpiRequest request;
        link.lock();
        try {
            request = comm.iallgather(own, ENTRY_LENGTH, bytes, gathered, ENTRY_LENGTH, bytes);
        } finally {
            link.unlock();
        }
        link.await(request, wait, liveness, what);
        for (int m = 0; m < size; m++) {
            if (m != rank) {
                final long word = Words.getLong(gathered, (long)m * ENTRY_LENGTH);
                words[m][CollectiveCalls.sequenceOf(word) & 1] = word;
            }
        }
    }

    /**
     * Frees the MPI communicator (a collective call of the members, made when each drops its last reference
     * at the same collective call) and this object's memory.
     */
    void free() {
        link.lock();
        try {
            if (!comm.isNull() && comm.handle() != link.world().handle()) {
                comm.free();
            }
        } finally {
            link.unlock();
        }
        close();
    }

    /** Releases this object's memory only (the job ends: MPI_Finalize frees the rest). */
    void close() {
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }
}
