package org.rma4j.launch;

import org.rma4j.NotifyRequest;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;

/**
 * A job of two ranks that deadlocks the way a program written with {@code try (RmaJob job = Rma.init())} does when
 * it throws: rank 0 calls {@code flush} outside a passive-target epoch (MPI_ERR_RMA_SYNC, a bad call that records
 * no failure), so the try-with-resources closes the job, a collective call, while rank 1 waits for the notification
 * with tag {@link #TAG} that rank 0 never sends. Each rank prints {@code ready <pid>} just before it blocks.
 */
public final class ThrowInCloseProgram {
    static final int TAG = 5;

    private ThrowInCloseProgram() {
    }

    public static void main(final String[] args) {
        try (RmaJob job = Rma.init()) {
            final Window window = job.allocate(64, 1);
            job.barrier();
            System.out.println("ready " + ProcessHandle.current().pid());
            if (job.rank() == 0) {
                window.flush(1);
            } else {
                final NotifyRequest request = window.notifyInit(0, TAG, 1);
                request.start();
                request.await();
            }
            window.free();
        }
    }
}
