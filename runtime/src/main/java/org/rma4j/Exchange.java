package org.rma4j;

import java.lang.foreign.MemorySegment;

/**
 * The one data movement of a communicator's collectives (MPI-3.1 chapter 5): every member streams bytes of its
 * own (its contribution: possibly none), and every member reads what it needs of every member's stream.
 *
 * <p>Before any data moves, every member learns every member's stream length, argument status, root and
 * agreement value: if any member reported a bad argument, passed another root or another agreement value than
 * member 0, every member throws (the member at fault with its own error) and no data is read, so the
 * communicator stays in step. The exchange is a collective call of the collective's kind on the communicator.
 * Implementations: {@link ShmExchange} (the exchange halves of a communicator file) and {@link MpiExchange}
 * (MPI's all-gathers, for a communicator across nodes).
 */
interface Exchange {
    /** Receives the streams' chunks, member by member in order within each round. */
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
    long[] run(CollectiveCalls.Kind kind, String call, MemorySegment[] stream, int root, long agreement,
        RmaException error, Reader reader);

    /**
     * @return the length of a member's stream: its parts' sum, 0 if it has an argument error.
     */
    static long total(final MemorySegment[] stream, final RmaException error) {
        long total = 0;
        if (error == null) {
            for (final MemorySegment part : stream) {
                total += part.byteSize();
            }
        }
        return total;
    }

    /**
     * The check every member makes once it knows every member's status, root, agreement value and total.
     *
     * @return the longest stream's length.
     * @throws RmaException {@code error} if this member has one, else the error naming the first member that
     *                      passed a bad argument, another root or another agreement value than member 0.
     */
    static long checkAgreement(final String call, final int[] statuses, final int[] roots, final long[] agreements,
        final long[] totals, final RmaException error) {
        long longest = 0;
        RmaException problem = null;
        for (int m = 0; m < statuses.length && problem == null; m++) {
            if (statuses[m] != 0) {
                final ErrorClass bad = ErrorClass.ofCode(statuses[m]);
                problem = new RmaException(bad,
                    call + " failed: rank " + m + " passed an invalid argument (" + bad.mpiName() + ")");
            } else if (roots[m] != roots[0]) {
                problem = new RmaException(ErrorClass.ROOT, call + " failed: rank " + m + " passed root=" + roots[m]
                    + ", rank 0 root=" + roots[0] + "; every rank must pass the same root");
            } else if (agreements[m] != agreements[0]) {
                problem = new RmaException(ErrorClass.ARG, call + " failed: rank " + m + " passed another count,"
                    + " datatype or op than rank 0; every rank must pass the same");
            }
            longest = Math.max(longest, totals[m]);
        }
        if (error != null) {
            throw error;
        }
        if (problem != null) {
            throw problem;
        }
        return longest;
    }
}
