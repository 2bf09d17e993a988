package org.rma4j.examples.mcs;

import org.rma4j.Rma;

/**
 * The window of an {@link McsLock}: displacement unit 1 (byte displacements, as the paper's
 * {@code TAIL_DISP = sizeof(int)} implies), one record per rank, and the tail at the host rank only.
 * <pre>
 *   byte offset   word (long)   written by                                       at
 *     0           NEXT          the successor: accumulate REPLACE of its rank     every rank
 *                               this rank: reset to NIL before enqueueing
 *     8..127      padding
 *   128           BLOCKED       this rank: set to 1 before linking to a predecessor
 *                               the predecessor: accumulate REPLACE of 0 (hand-over)
 *   136..255      padding
 *   256           TAIL          every rank: fetch_and_op REPLACE, compare_and_swap  the host only
 *   264..383      padding
 * </pre>
 * Pointers are ranks, held in longs where the paper uses ints (the long forms of fetch_and_op and
 * compare_and_swap take them directly); {@link #NIL} ({@link Rma#PROC_NULL}) is the null pointer.
 * The BLOCKED flag replaces the paper's point-to-point hand-over message. Publication: a rank's
 * own stores (NEXT reset, BLOCKED set) precede an {@code MPI_Win_sync} and happen while no other rank
 * can reach the word; every other access is an atomic operation followed by a flush. The three words
 * are written by different processes, so each sits two cache lines from the next (the adjacent-line
 * prefetcher pairs lines).
 */
public final class McsLayout {
    /** The null pointer: no rank. */
    public static final long NIL = Rma.PROC_NULL;
    /** Displacement unit of the window: byte displacements. */
    public static final int DISP_UNIT = 1;
    /** Displacement of the queue element's next pointer (the paper's ELEM_DISP). */
    public static final long NEXT_OFFSET = 0;
    /** Displacement of the flag a waiting rank spins on; non-zero while it waits. */
    public static final long BLOCKED_OFFSET = 128;
    /** Displacement of the tail pointer at the host rank (the paper's TAIL_DISP). */
    public static final long TAIL_OFFSET = 256;
    /** Bytes of the record of a rank that does not host the tail. */
    public static final long RECORD_BYTES = 256;
    /** Bytes of the host's record: the queue element and the tail. */
    public static final long HOST_RECORD_BYTES = 384;

    private McsLayout() {
    }

    /**
     * @return the bytes {@code rank} exposes in a lock whose tail is at {@code hostRank}.
     */
    public static long recordBytes(final int rank, final int hostRank) {
        return rank == hostRank ? HOST_RECORD_BYTES : RECORD_BYTES;
    }

    /**
     * @throws IllegalArgumentException if {@code hostRank} is not a rank of a job of {@code ranks}.
     */
    public static void checkHostRank(final int hostRank, final int ranks) {
        if (hostRank < 0 || hostRank >= ranks) {
            throw new IllegalArgumentException("host rank " + hostRank + " is outside the job's 0.." + (ranks - 1));
        }
    }
}
