package org.rma4j;

import java.util.function.IntPredicate;

import org.rma4j.shm.ControlFile;
import org.rma4j.shm.DisseminationBarrier;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.WaitState;

/**
 * The job-wide order of one rank's collective calls, and the check that every rank's calls match (MPI-3.1 section
 * 5.13, Correctness: collective operations must be executed in the same order at all members of the group; a
 * program that does not is erroneous, and this check reports it instead of a hang).
 *
 * <p>Every collective call of a rank (job barrier, window creation, fence, free, leaving the job) gets
 * the next job-wide sequence number. Before it waits, the rank publishes the call (kind, object,
 * sequence number) in its row of the control file ({@link ControlFile#publishCall}); peers compare it
 * with their own call of the same number:
 * <ul>
 *   <li>while waiting, at each liveness check (at least every 100 ms while asleep): a peer that
 *   entered a different call with the same number waits on another barrier, or on the same one for
 *   another reason, and will never arrive;</li>
 *   <li>after the barrier, once: a peer that passed the same barrier in another call (fence against
 *   free, say) is seen at once.</li>
 * </ul>
 * A mismatch is an {@link RmaException} naming both calls and ranks, at every rank that compares them.
 * At its first liveness check a wait also publishes the call as the rank's {@link WaitState}, for the
 * launcher's reports of a hung job; a wait that ends before it publishes nothing more than its call word.
 *
 * <p>Call word: bits 63..32 the sequence number, 31..24 the kind ({@code Kind} code, never an ordinal), bit 23 set once the
 * rank found that this call did not match a peer's, 22..0 the object (0 for the job, 1 + the window's
 * number for a window). Words of consecutive numbers go to different parity slots, so a peer that
 * already entered number n + 1 has not overwritten its word of n: it cannot enter n + 2 before this
 * rank entered n + 1.
 *
 * <p>A peer that failed (its process is gone, or it was marked failed or stopped) is compared only if
 * it marked its word as mismatched: otherwise its last word may belong to a call it never finished,
 * and the failure itself, which the liveness check reports, is the news.
 *
 * <p>Not thread-safe: a rank's collective calls are made by one thread at a time.
 */
final class CollectiveCalls {
    /** What a collective call is. */
    enum Kind {
        BARRIER(1, WaitState.Call.BARRIER), CREATE(2, WaitState.Call.CREATE), CLOSE(3, WaitState.Call.CLOSE), FENCE(4,
            WaitState.Call.FENCE), FREE(5, WaitState.Call.FREE), COMM_CREATE(6, WaitState.Call.COMM_CREATE), COMM_FREE(
                7, WaitState.Call.COMM_FREE), BCAST(8, WaitState.Call.BCAST), GATHER(9, WaitState.Call.GATHER), SCATTER(
                    10, WaitState.Call.SCATTER), ALLGATHER(11, WaitState.Call.ALLGATHER), ALLTOALL(12,
                        WaitState.Call.ALLTOALL), REDUCE(13, WaitState.Call.REDUCE), ALLREDUCE(14,
                            WaitState.Call.ALLREDUCE), REDUCE_SCATTER(15, WaitState.Call.REDUCE_SCATTER), SCAN(16,
                                WaitState.Call.SCAN), EXSCAN(17, WaitState.Call.EXSCAN);

        /** The kind's code in a call word (bits 31..24): explicit, never the ordinal. */
        private final int code;
        private final WaitState.Call waitCall;

        Kind(final int code, final WaitState.Call waitCall) {
            this.code = code;
            this.waitCall = waitCall;
        }

        /**
         * @return the kind with {@code code}, or null.
         */
        static Kind ofCode(final int code) {
            for (final Kind kind : values()) {
                if (kind.code == code) {
                    return kind;
                }
            }
            return null;
        }

        String callName() {
            return waitCall.callName();
        }
    }

    /**
     * Where the members' call words live: the control file's rows for the world, the slots of a
     * communicator file otherwise.
     */
    interface CallWords {
        /**
         * @return the call {@code member} last published in the word of {@code parity} (0: none yet).
         */
        long call(int member, int parity);

        /**
         * Publishes (volatile) the call {@code member} enters in the word of {@code parity}.
         */
        void publishCall(int member, int parity, long call);
    }

    private static final Kind[] KINDS = Kind.values();
    private static final int OBJECT_MASK = (1 << 23) - 1;
    private static final long MISMATCH_BIT = 1L << 23;

    private final ControlFile control;
    private final CallWords words;
    private final String scope;
    private final int rank;
    private final int ranks;
    private int sequence;
    private long current;
    /**
     * Per member, the call word its barrier flag carried in this rank's latest wait ({@link #seen}), which
     * {@link #checkCompleted} then need not read from the member's row.
     */
    private final long[] seen;
    private boolean waitPublished;

    /**
     * The calls of the job's ranks (MPI_COMM_WORLD), with call words in the control file's rows.
     */
    CollectiveCalls(final ControlFile control, final int rank) {
        this(control, rank, new CallWords() {
            @Override
            public long call(final int member, final int parity) {
                return control.call(member, parity);
            }

            @Override
            public void publishCall(final int member, final int parity, final long call) {
                control.publishCall(member, parity, call);
            }
        }, "the job");
    }

    /**
     * @param control the rows of the members (a {@link ControlFile#subset}), numbered as the members.
     * @param rank    this rank's number among the members.
     * @param words   the members' call words.
     * @param scope   what the sequence numbers count in, e.g. "the job" or "communicator c0-1".
     */
    CollectiveCalls(final ControlFile control, final int rank, final CallWords words, final String scope) {
        this.control = control;
        this.words = words;
        this.scope = scope;
        this.rank = rank;
        this.ranks = control.ranks();
        this.seen = new long[ranks];
    }

    /**
     * @return the call word of the call this rank is waiting in (0 outside a wait): the token of its barrier.
     */
    long current() {
        return current;
    }

    /**
     * Records the call word {@code member}'s barrier flag carried into the current wait (the barrier's token,
     * read from the flag's line): {@link #checkCompleted} compares it without reading the member's row.
     */
    void seen(final int member, final long call) {
        seen[member] = call;
    }

    /**
     * @return a wait on {@code barrier} (this rank's party of it) that hands the current call word to the parties
     *         it signals and records the words of those that signalled it ({@link #seen}): after it,
     *         {@link #checkCompleted} reads only the other members' rows (none with two members).
     */
    Runnable barrierWait(final DisseminationBarrier barrier) {
        return () -> {
            barrier.await(current);
            for (int round = 0; round < barrier.tokenRounds(); round++) {
                seen(barrier.signalledBy(round), barrier.receivedToken(round));
            }
        };
    }

    /**
     * Takes the next sequence number for a call and publishes it.
     *
     * @param object 0 for the job, 1 + window number for a window.
     * @return the call word.
     */
    long begin(final Kind kind, final int object) {
        sequence++;
        final long call = encode(sequence, kind, object);
        words.publishCall(rank, sequence & 1, call);
        current = call;
        return call;
    }

    /**
     * The wait of the current call is over (done or failed).
     */
    void end() {
        current = 0;
        if (waitPublished) {
            waitPublished = false;
            control.clearWait(rank);
        }
    }

    /**
     * The wait of the current call timed out: its wait state stays published, for the launcher's report
     * of the hung job ({@link #end()} no longer clears it).
     */
    void timedOut() {
        waitPublished = false;
    }

    /**
     * @return the number of collective calls this rank has begun.
     */
    int sequence() {
        return sequence;
    }

    /**
     * Wraps the peers' liveness check of a collective wait with the comparison of the calls.
     */
    Liveness whileWaiting(final Liveness peers) {
        return () -> {
            publishWaiting();
            checkWaiting(peers);
            peers.check();
        };
    }

    /**
     * Publishes the current call as this rank's wait state, once per call (the slow path of its wait).
     */
    private void publishWaiting() {
        final long mine = current;
        if (mine == 0 || waitPublished) {
            return;
        }
        final int kindCode = (int)(mine >>> 24) & 0xff;
        final int object = (int)(mine & OBJECT_MASK);
        final Kind kind = Kind.ofCode(kindCode);
        if (kind == null) {
            return;
        }
        control.publishWait(rank,
            new WaitState(kind.waitCall, object - 1, -1, sequenceOf(mine), System.currentTimeMillis()));
        waitPublished = true;
    }

    /**
     * While waiting in {@code current}: a peer whose call of the same number differs will never arrive. A peer
     * that is in another call without having reported a mismatch may be there because a member failed (it left
     * its own wait on the failure and went on to its next call): then the failure is the error, as it is for
     * that peer, and {@code peers} throws it.
     *
     * @throws RmaException naming both calls.
     */
    private void checkWaiting(final Liveness peers) {
        final long mine = current;
        if (mine == 0) {
            return;
        }
        final int number = sequenceOf(mine);
        for (int peer = 0; peer < ranks; peer++) {
            if (peer != rank) {
                final long theirs = words.call(peer, number & 1);
                if ((theirs & ~MISMATCH_BIT) != mine && sequenceOf(theirs) == number && comparable(peer, theirs)) {
                    if ((theirs & MISMATCH_BIT) == 0) {
                        peers.check();
                    }
                    throw mismatch(mine, peer, theirs);
                }
            }
        }
    }

    /**
     * After the barrier of {@code call}: every peer arrived, so each has published its call of the same
     * number; it must be the same call.
     *
     * @throws RmaException naming both calls.
     */
    void checkCompleted(final long call) {
        final int number = sequenceOf(call);
        for (int peer = 0; peer < ranks; peer++) {
            // NOTE: a call word is unique to its number: a member whose flag carried this very call is in it.
            if (peer != rank && seen[peer] != call) {
                final long theirs = words.call(peer, number & 1);
                if ((theirs & ~MISMATCH_BIT) != call && comparable(peer, theirs)) {
                    throw mismatch(call, peer, theirs);
                }
            }
        }
    }

    /**
     * For a point-to-point wait of this rank on {@code peers} (PSCW's start and wait): a peer that entered
     * a collective call this rank has not made yet waits in it for this rank, so it will never do what
     * this rank waits for.
     *
     * @param peers        the peers whose post or complete had not arrived.
     * @param stillPending   whether a peer's post or complete has still not arrived, asked again after its
     *                       call word was read: a peer that posted, then entered the collective, is fine.
     * @param waiting what this rank waits in, e.g. "start on window 0 for the posts of {1}".
     * @throws RmaException RMA_SYNC naming the peer's call.
     */
    void checkNotAwaitedBy(final int[] peers, final IntPredicate stillPending, final String waiting) {
        for (final int peer : peers) {
            if (peer == rank) {
                continue;
            }
            final long latest = latest(peer);
            // NOTE: the call word is read (volatile) before the peer's counter is asked again: the peer stores
            // its post or complete before it publishes a later call, so a peer that did both is seen to have.
            if (sequenceOf(latest) > sequence && comparable(peer, latest) && stillPending.test(peer)) {
                throw new RmaException(ErrorClass.RMA_SYNC,
                    "rank " + rank + " waits in " + waiting + ", but rank " + peer + " is in "
                        + describe(latest & ~MISMATCH_BIT) + ", which rank " + rank + " has not" + " called: rank "
                        + peer + " waits there for this rank and cannot do what it waits for");
            }
        }
    }

    private long latest(final int peer) {
        final long even = words.call(peer, 0);
        final long odd = words.call(peer, 1);
        return sequenceOf(even) - sequenceOf(odd) > 0 ? even : odd;
    }

    /**
     * Whether {@code peer}'s call word is worth comparing: it is alive, or it marked the word mismatched
     * before it failed.
     */
    private boolean comparable(final int peer, final long theirs) {
        return theirs != 0 && ((theirs & MISMATCH_BIT) != 0 || !control.isDead(peer));
    }

    private RmaException mismatch(final long mine, final int peer, final long theirs) {
        // NOTE: marked before this rank throws and abandons the job, so that peers still compare with it.
        words.publishCall(rank, sequenceOf(mine) & 1, mine | MISMATCH_BIT);
        return new RmaException(ErrorClass.OTHER,
            "collective calls do not match: " + who(rank) + " called " + describe(mine) + ", " + who(peer) + " called "
                + describe(theirs) + "; every rank must make the" + " same collective calls in the same order");
    }

    /**
     * @return "rank M", and its job rank where that differs, e.g. "rank 1 (job rank 4)".
     */
    private String who(final int member) {
        final int jobRank = control.fileRank(member);
        return "rank " + member + (jobRank == member ? "" : " (job rank " + jobRank + ")");
    }

    /**
     * @return e.g. {@code "fence on window 0 (collective call #5 of the job)"}.
     */
    String describe(final long call) {
        return describe(call, scope);
    }

    /**
     * @param scope what the sequence numbers count in, e.g. "the job".
     * @return e.g. {@code "fence on window 0 (collective call #5 of the job)"}.
     */
    static String describe(final long call, final String scope) {
        if (call == 0) {
            return "no collective call yet";
        }
        final int kindCode = (int)(call >>> 24) & 0xff;
        final int object = (int)(call & OBJECT_MASK);
        final Kind known = Kind.ofCode(kindCode);
        final String kind = known != null ? known.callName() : "an unknown call (" + kindCode + ")";
        return kind + (object == 0 ? "" : " on window " + (object - 1)) + " (collective call #" + sequenceOf(call)
            + " of " + scope + ")";
    }

    static long encode(final int sequence, final Kind kind, final int object) {
        return (long)sequence << 32 | (long)kind.code << 24 | (object & OBJECT_MASK);
    }

    static int sequenceOf(final long call) {
        return (int)(call >>> 32);
    }
}
