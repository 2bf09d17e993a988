package org.rma4j;

import java.lang.foreign.MemorySegment;
import org.rma4j.internal.CommunicatorLayout;
import org.rma4j.shm.Words;

/**
 * The one data movement of a communicator's collectives (MPI-3.1 chapter 5) over its exchange halves
 * ({@link CommunicatorLayout}): every member streams bytes of its own (its contribution: possibly none),
 * and every member reads what it needs of every member's stream.
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
final class Exchange {
    /** Receives the chunks of one round, member by member in order. */
    @FunctionalInterface
    interface Reader {
        /**
         * @param member the member whose stream this is.
         * @param total  the length of its whole stream.
         * @param offset the position of the chunk in the stream.
         * @param chunk  the chunk (valid until the reader returns).
         */
        void chunk(int member, long total, long offset, MemorySegment chunk);
    }

    private final CommContext context;
    private final CommFile file;
    private final int members;
    private final int rank;
    private final int chunkLength;

    Exchange(final CommContext context, final CommFile file) {
        this.context = context;
        this.file = file;
        this.members = context.size();
        this.rank = context.rank();
        this.chunkLength = CommunicatorLayout.chunkLength(file.halfLength());
    }

    /**
     * Runs one exchange.
     *
     * @param stream    this member's stream: the parts, concatenated (none for an empty stream).
     * @param root      the root this member passed, or -1.
     * @param agreement a value every member must pass alike.
     * @param error     this member's argument error, or null (then its stream is not sent).
     * @return every member's stream length.
     * @throws RmaException this member's error, or the error naming the member at fault, at every member.
     */
    long[] run(final CollectiveCalls.Kind kind, final String call, final MemorySegment[] stream, final int root,
        final long agreement, final RmaException error, final Reader reader) {
        long total = 0;
        if (error == null) {
            for (final MemorySegment part : stream) {
                total += part.byteSize();
            }
        }
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
        final MemorySegment first = file.half(0, half);
        final int root = Words.getInt(first, CommunicatorLayout.HALF_ROOT_OFFSET);
        final long agreement = Words.getLong(first, CommunicatorLayout.HALF_AGREEMENT_OFFSET);
        long longest = 0;
        RmaException problem = null;
        for (int m = 0; m < members && problem == null; m++) {
            final MemorySegment theirs = file.half(m, half);
            final int status = Words.getInt(theirs, CommunicatorLayout.HALF_STATUS_OFFSET);
            final int theirRoot = Words.getInt(theirs, CommunicatorLayout.HALF_ROOT_OFFSET);
            if (status != 0) {
                final ErrorClass bad = ErrorClass.ofCode(status);
                problem = new RmaException(bad,
                    call + " failed: rank " + m + " passed an invalid argument (" + bad.mpiName() + ")");
            } else if (theirRoot != root) {
                problem = new RmaException(ErrorClass.ROOT, call + " failed: rank " + m + " passed root=" + theirRoot
                    + ", rank 0 root=" + root + "; every rank must pass the same root");
            } else if (Words.getLong(theirs, CommunicatorLayout.HALF_AGREEMENT_OFFSET) != agreement) {
                problem = new RmaException(ErrorClass.ARG, call + " failed: rank " + m + " passed another count,"
                    + " datatype or op than rank 0; every rank must pass the same");
            }
            totals[m] = Words.getLong(theirs, CommunicatorLayout.HALF_TOTAL_OFFSET);
            longest = Math.max(longest, totals[m]);
        }
        if (error != null) {
            throw error;
        }
        if (problem != null) {
            throw problem;
        }
        return Math.max(1, (longest + chunkLength - 1) / chunkLength);
    }

    /**
     * Copies bytes {@code offset .. offset + length} of the concatenated {@code parts} into the chunk of
     * {@code half}.
     */
    private static void copyOut(final MemorySegment[] parts, final long offset, final long length,
        final MemorySegment half) {
        long skip = offset;
        long done = 0;
        for (int i = 0; i < parts.length && done < length; i++) {
            final long size = parts[i].byteSize();
            if (skip >= size) {
                skip -= size;
                continue;
            }
            final long n = Math.min(size - skip, length - done);
            MemorySegment.copy(parts[i], skip, half, CommunicatorLayout.HALF_CHUNK_OFFSET + done, n);
            done += n;
            skip = 0;
        }
    }
}
