package org.rma4j;

import java.util.concurrent.locks.LockSupport;

/**
 * Main class of the process-mode test of a failure inside one communicator: 6 ranks split into halves
 * {0, 1, 2} and {3, 4, 5}; rank 1 exits with status 3. Ranks 0 and 2 wait in their half's barrier and
 * must see {@link RankFailedException} naming rank 1 (they print it and exit with 4); the other half waits
 * until rank 1's process is gone, then works on (barrier, allreduce, a window) and prints its result (exit
 * 0). The job as a whole cannot close normally (its world holds rank 1), so no rank calls close.
 */
public final class CommFailureMain {
    private CommFailureMain() {
    }

    public static void main(final String[] args) {
        final RmaJob job = Rma.init();
        final int me = job.rank();
        final Communicator half = job.world().split(me < 3 ? 0 : 1, me);
        if (me == 1) {
            System.exit(3);
        }
        if (me < 3) {
            try {
                half.barrier();
                System.out.println("rank " + me + " was not stopped");
                System.exit(0);
            } catch (final RankFailedException e) {
                System.out.println("rank " + me + " saw rank " + e.rank() + " fail: " + e.getMessage());
                System.exit(4);
            }
        }
        awaitDead(job, 1);
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
