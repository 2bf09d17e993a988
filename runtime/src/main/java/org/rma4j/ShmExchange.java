package org.rma4j;

import java.lang.foreign.MemorySegment;
import org.rma4j.internal.CommunicatorLayout;
import org.rma4j.shm.Words;

/**
 * The {@link Exchange} of a communicator in shared memory, over its exchange halves ({@link CommunicatorLayout}).
 *
 * <p>A stream goes in rounds of one chunk ({@link CommunicatorLayout#chunkLength} bytes at most): in each
 * round a member writes its stream's total length, its argument status, root and agreement value and the
 * round's chunk into the half of the round, and enters the round's barrier (a collective call of the
 * collective's kind on the communicator, so calls that do not match are reported); then it hands the
 * chunk of every member that has one to the {@link Reader}, in member order. After round 0 every member
 * knows every total, so all agree on the number of rounds (the longest stream's); and if any member
 * reported a bad argument, passed another root or another agreement value, every member throws after
 * round 0 (the member at fault with its own error) and no data is read: the communicator stays in step.
 *
 * <p>A member's data is in its half before the barrier, so a receive buffer may be the send buffer (the
 * reductions read all of a round's chunks before they write the round's part of the result).
 */
final class ShmExchange implements Exchange {
    private final CommContext context;
    private final CommFile file;
    private final int members;
    private final int rank;
    private final int chunkLength;

    ShmExchange(final CommContext context, final CommFile file) {
        this.context = context;
        this.file = file;
        this.members = context.size();
        this.rank = context.rank();
        this.chunkLength = CommunicatorLayout.chunkLength(file.halfLength());
    }

    @Override
    public long[] run(final CollectiveCalls.Kind kind, final String call, final MemorySegment[] stream, final int root,
        final long agreement, final RmaException error, final Reader reader) {
        final long total = Exchange.total(stream, error);
        long rounds = 1;
        final long[] totals = new long[members];
        for (long round = 0; round < rounds; round++) {
            final int half = context.nextHalf();
            final long offset = round * chunkLength;
            final MemorySegment own = file.half(rank, half);
            Words.putLong(own, CommunicatorLayout.HALF_TOTAL_OFFSET, total);
            Words.putInt(own, CommunicatorLayout.HALF_STATUS_OFFSET, error == null ? 0 : error.errorClass().code());
            Words.putInt(own, CommunicatorLayout.HALF_ROOT_OFFSET, root);
            Words.putLong(own, CommunicatorLayout.HALF_AGREEMENT_OFFSET, agreement);
            copyOut(stream, offset, Math.max(0, Math.min(chunkLength, total - offset)), own);
            context.collective(kind, 0, context.barrierWait());
            if (round == 0) {
                rounds = checkFirstRound(call, half, error, totals);
            }
            for (int m = 0; m < members; m++) {
                final MemorySegment theirs = m == rank ? own : file.half(m, half);
                final long theirTotal = Words.getLong(theirs, CommunicatorLayout.HALF_TOTAL_OFFSET);
                final long length = Math.min(chunkLength, theirTotal - offset);
                if (length > 0) {
                    reader.chunk(m, theirTotal, offset, theirs.asSlice(CommunicatorLayout.HALF_CHUNK_OFFSET, length));
                }
            }
        }
        return totals;
    }

    /**
     * @return the rounds of this exchange (the longest stream's chunks, at least 1).
     * @throws RmaException at every member if one passed a bad argument or disagrees with member 0.
     */
    private long checkFirstRound(final String call, final int half, final RmaException error, final long[] totals) {
        final int[] statuses = new int[members];
        final int[] roots = new int[members];
        final long[] agreements = new long[members];
        for (int m = 0; m < members; m++) {
            final MemorySegment theirs = file.half(m, half);
            statuses[m] = Words.getInt(theirs, CommunicatorLayout.HALF_STATUS_OFFSET);
            roots[m] = Words.getInt(theirs, CommunicatorLayout.HALF_ROOT_OFFSET);
            agreements[m] = Words.getLong(theirs, CommunicatorLayout.HALF_AGREEMENT_OFFSET);
            totals[m] = Words.getLong(theirs, CommunicatorLayout.HALF_TOTAL_OFFSET);
        }
        final long longest = Exchange.checkAgreement(call, statuses, roots, agreements, totals, error);
        return Math.max(1, (longest + chunkLength - 1) / chunkLength);
    }

    /**
     * Copies bytes {@code offset .. offset + length} of the concatenated {@code parts} into the chunk of
     * {@code half}.
     */
    static void copyOut(final MemorySegment[] parts, final long offset, final long length, final MemorySegment half) {
        copyOut(parts, offset, length, half, CommunicatorLayout.HALF_CHUNK_OFFSET);
    }

    /**
     * Copies bytes {@code offset .. offset + length} of the concatenated {@code parts} to {@code into} at
     * {@code at}.
     */
    static void copyOut(final MemorySegment[] parts, final long offset, final long length, final MemorySegment into,
        final long at) {
        long skip = offset;
        long done = 0;
        for (int i = 0; i < parts.length && done < length; i++) {
            final long size = parts[i].byteSize();
            if (skip >= size) {
                skip -= size;
                continue;
            }
            final long n = Math.min(size - skip, length - done);
            MemorySegment.copy(parts[i], skip, into, at + done, n);
            done += n;
            skip = 0;
        }
    }
}
