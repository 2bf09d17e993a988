package org.rma4j.examples.tour;

import java.lang.foreign.ValueLayout;
import org.rma4j.LockType;
import org.rma4j.Rma;
import org.rma4j.SharedRegion;
import org.rma4j.Window;

/**
 * The README's tour of the API, compiled and run by its test on 1 and 3 processes and alone: the
 * README's code block is the part of {@link #main} between the {@code tour:begin} and {@code tour:end}
 * lines, and {@code TourTest} checks that they are the same.
 *
 * <p>Each rank prints one line: what its left neighbour put into its window (the neighbour's rank),
 * what it read from rank 0 under a lock (n - 1, which rank n - 1 put there), and what the last rank
 * holds where this rank put in the lock_all epoch (100 + its rank).
 */
public final class Tour {
    private Tour() {
    }

    public static void main(final String[] args) throws Exception {
        // @formatter:off (the README shows this block as written)
        // tour:begin
        Rma.run(job -> {                                      // joins the job rmarun started (or a job of one)
            final int me = job.rank(), n = job.size();
            try (Window win = job.allocateShared(16L * n, 8)) { // MPI_Win_allocate_shared: 2n longs, disp_unit 8
                win.fence(Rma.MODE_NOPRECEDE);                // MPI_Win_fence opens an epoch
                win.put(new long[] {me}, 0, 1, (me + 1) % n, me); // MPI_Put: 1 long to rank me+1 at disp me
                win.fence(Rma.MODE_NOSUCCEED);                // every put is now visible at its target
                final long fromLeft = win.segment().get(ValueLayout.JAVA_LONG, 8L * ((me + n - 1) % n));

                final long[] buffer = new long[1];
                win.lock(LockType.EXCLUSIVE, 0);              // passive target: rank 0 takes no part
                win.get(buffer, 0, 1, 0, n - 1);              // MPI_Get: 1 long from rank 0 at disp n-1
                win.unlock(0);

                final long[] data = {100 + me};
                win.lockAll();                                // shared lock on every target
                win.put(data, 0, data.length, n - 1, n + me); // 1 long to the last rank at disp n+me
                win.flush(n - 1);                             // complete at rank n-1; the epoch stays open
                win.unlockAll();
                job.barrier();                                // every rank's put is done

                final SharedRegion last = win.sharedQuery(n - 1); // MPI_Win_shared_query: direct load/store
                final long lastHolds = last.segment().getAtIndex(ValueLayout.JAVA_LONG, n + me);
                System.out.println("rank " + me + " of " + n + ": left put " + fromLeft + ", rank 0 holds "
                    + buffer[0] + ", rank " + (n - 1) + " holds " + lastHolds);
            }                                                 // MPI_Win_free (collective)
        });                                                   // leaves the job (collective, like MPI_Finalize);
                                                              // if the body throws, abandons it instead
        // tour:end
        // @formatter:on
    }
}
