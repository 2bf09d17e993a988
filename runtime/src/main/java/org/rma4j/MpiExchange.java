package org.rma4j;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.rma4j.internal.mpi.MpiLink;
import org.rma4j.mpi.MpiBasicType;
import org.rma4j.mpi.MpiDatatype;
import org.rma4j.mpi.MpiRequest;
import org.rma4j.shm.Words;

/**
 * The {@link Exchange} of a communicator across nodes: the collective call's barrier ({@link MpiCollective})
 * carries every member's stream length, status, root and agreement value in its record; once every member
 * agrees, the streams move in rounds of one {@code MPI_Iallgatherv} of at most {@link #ROUND_BYTES} bytes per
 * member, and each member reads every member's chunk of the round in member order.
 */
final class MpiExchange implements Exchange {
    /** Bytes of one member's stream per round at most (MPI counts are ints). */
    static final long ROUND_BYTES = 1L << 30;

    private static final int TOTAL_OFFSET = 0;
    private static final int STATUS_OFFSET = 8;
    private static final int ROOT_OFFSET = 12;
    private static final int AGREEMENT_OFFSET = 16;

    private final CommContext context;
    private final MpiCollective collective;
    private final MpiLink link;
    private final MpiDatatype bytes;

    MpiExchange(final CommContext context, final MpiCollective collective) {
        this.context = context;
        this.collective = collective;
        this.link = collective.link();
        this.bytes = link.mpi().datatype(MpiBasicType.BYTE);
    }

    @Override
    public long[] run(final CollectiveCalls.Kind kind, final String call, final MemorySegment[] stream, final int root,
        final long agreement, final RmaException error, final Reader reader) {
        final int members = context.size();
        final int rank = context.rank();
        final long total = Exchange.total(stream, error);
        final MemorySegment own = collective.record(rank);
        Words.putLong(own, TOTAL_OFFSET, total);
        Words.putInt(own, STATUS_OFFSET, error == null ? 0 : error.errorClass().code());
        Words.putInt(own, ROOT_OFFSET, root);
        Words.putLong(own, AGREEMENT_OFFSET, agreement);
        context.collective(kind, 0, context.barrierWait());
        final int[] statuses = new int[members];
        final int[] roots = new int[members];
        final long[] agreements = new long[members];
        final long[] totals = new long[members];
        for (int m = 0; m < members; m++) {
            final MemorySegment record = collective.record(m);
            statuses[m] = Words.getInt(record, STATUS_OFFSET);
            roots[m] = Words.getInt(record, ROOT_OFFSET);
            agreements[m] = Words.getLong(record, AGREEMENT_OFFSET);
            totals[m] = Words.getLong(record, TOTAL_OFFSET);
        }
        final long longest = Exchange.checkAgreement(call, statuses, roots, agreements, totals, error);
        for (long offset = 0; offset < longest; offset += ROUND_BYTES) {
            round(call, stream, totals, offset, reader);
        }
        return totals;
    }

    /** One all-gather of every member's chunk at {@code offset} of its stream. */
    private void round(final String call, final MemorySegment[] stream, final long[] totals, final long offset,
        final Reader reader) {
        final int members = totals.length;
        final int rank = context.rank();
        final int[] counts = new int[members];
        long sum = 0;
        for (int m = 0; m < members; m++) {
            counts[m] = (int)Math.max(0, Math.min(ROUND_BYTES, totals[m] - offset));
            sum += counts[m];
        }
        try (Arena arena = Arena.ofConfined()) {
            // NOTE: displacements are ints too; a round's chunks together may exceed them, so such a round is
            // gathered into member-sized pieces of one buffer through several calls.
            final MemorySegment received = arena.allocate(Math.max(1, sum), 8);
            final MemorySegment send = arena.allocate(Math.max(1, counts[rank]), 8);
            ShmExchange.copyOut(stream, offset, counts[rank], send, 0);
            long at = 0;
            int first = 0;
            while (first < members) {
                int last = first;
                long span = 0;
                while (last < members && span + counts[last] <= Integer.MAX_VALUE) {
                    span += counts[last];
                    last++;
                }
                gather(call, send, counts, received.asSlice(at, Math.max(1, span)), first, last);
                at += span;
                first = last;
            }
            at = 0;
            for (int m = 0; m < members; m++) {
                if (counts[m] > 0) {
                    reader.chunk(m, totals[m], offset, received.asSlice(at, counts[m]));
                }
                at += counts[m];
            }
        }
    }

    /** An all-gather in which members {@code first .. last - 1} contribute, into {@code into}. */
    private void gather(final String call, final MemorySegment send, final int[] counts, final MemorySegment into,
        final int first, final int last) {
        final int rank = context.rank();
        final int[] piece = new int[counts.length];
        final int[] displacements = new int[counts.length];
        int at = 0;
        for (int m = first; m < last; m++) {
            piece[m] = counts[m];
            displacements[m] = at;
            at += counts[m];
        }
        final boolean mine = rank >= first && rank < last;
        final MpiRequest request;
        link.lock();
        try {
            request = collective.comm().iallgatherv(send, mine ? counts[rank] : 0, bytes, into, piece, displacements,
                bytes);
        } finally {
            link.unlock();
        }
        link.await(request, context.job().waitStrategy(), context.control().liveness(rank, true),
            "the data of " + call + " on " + context);
    }
}
