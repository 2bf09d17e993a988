package org.rma4j;

import java.util.concurrent.locks.LockSupport;

/**
 * Main class of the process-mode test of a failure inside one communicator: 6 ranks split into the odd
 * and the even ranks; rank 3 (rank 1 of the odd half) exits with status 3. Ranks 1 and 5 wait in their
 * half's barrier and must see {@link RankFailedException} naming job rank 3 (they print it and exit with
 * 4); the even half waits until rank 3's process is gone, then works on (barrier, allreduce, a window)
 * and prints its result (exit 0). The job as a whole cannot close normally (its world holds rank 3), so
 * no rank calls close.
 */
public final class CommFailureMain {
    /** The job rank that fails: rank 1 of the odd half. */
    static final int FAILING = 3;

    private CommFailureMain() {
    }

    public static void main(final String[] args) {
        final RmaJob job = Rma.init();
        final int me = job.rank();
        final Communicator half = job.world().split(me % 2, me);
        if (me == FAILING) {
            System.exit(3);
        }
        if (me % 2 == 1) {
            try {
                half.barrier();
                System.out.println("rank " + me + " was not stopped");
                System.exit(0);
            } catch (final RankFailedException e) {
                System.out.println("rank " + me + " saw rank " + e.rank() + " fail: " + e.getMessage());
                System.exit(4);
            }
        }
        awaitDead(job, FAILING);
        System.out.println("rank " + me + " finished its half: " + CommFailureScenario.otherHalf(half));
        System.exit(0);
    }

    /** Waits until {@code rank}'s process is gone (a handshake with its failure, not a delay). */
    static void awaitDead(final RmaJob job, final int rank) {
        while (!job.control().isDead(rank)) {
            LockSupport.parkNanos(1_000_000L);
        }
    }
}
