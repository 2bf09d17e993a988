package org.rma4j;

import java.lang.foreign.MemorySegment;
import org.rma4j.internal.mpi.MpiLink;
import org.rma4j.internal.mpi.NativeBuffers;
import org.rma4j.shm.Words;

/**
 * The {@link Exchange} of a communicator across nodes: the collective call's barrier ({@link MpiCollective})
 * carries every member's stream length, status, root and agreement value in its record; once every member
 * agrees, the streams move in rounds of {@link MpiCollective#gather} of at most {@link #ROUND_BYTES} bytes per
 * member, and each member reads every member's chunk of the round in member order.
 */
final class MpiExchange implements Exchange {
    /** Bytes of one member's stream per round at most (one message of the link). */
    static final long ROUND_BYTES = 16L << 20;

    private static final int TOTAL_OFFSET = 0;
    private static final int STATUS_OFFSET = 8;
    private static final int ROOT_OFFSET = 12;
    private static final int AGREEMENT_OFFSET = 16;

    private final CommContext context;
    private final MpiCollective collective;
    private final MpiLink link;

    MpiExchange(final CommContext context, final MpiCollective collective) {
        this.context = context;
        this.collective = collective;
        this.link = collective.link();
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

    /** One round: every member's chunk at {@code offset} of its stream, to every member. */
    private void round(final String call, final MemorySegment[] stream, final long[] totals, final long offset,
        final Reader reader) {
        final int rank = context.rank();
        final long length = Math.max(0, Math.min(ROUND_BYTES, totals[rank] - offset));
        final NativeBuffers.Buffer mine = link.buffers().acquire(Math.max(1, length));
        final NativeBuffers.Buffer[] all;
        try {
            ShmExchange.copyOut(stream, offset, length, mine.segment(), 0);
            all = collective.gather(mine.segment().asSlice(0, length), context.job().waitStrategy(),
                context.control().liveness(rank, true), "the data of " + call + " on " + context);
        } finally {
            link.buffers().release(mine);
        }
        try {
            for (int m = 0; m < totals.length; m++) {
                final long chunk = Math.max(0, Math.min(ROUND_BYTES, totals[m] - offset));
                if (chunk > 0) {
                    reader.chunk(m, totals[m], offset, all[m].segment().asSlice(0, chunk));
                }
            }
        } finally {
            collective.release(all);
        }
    }
}
