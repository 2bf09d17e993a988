package org.rma4j;

import java.util.concurrent.locks.LockSupport;
import org.rma4j.shm.ControlFile;

/**
 * Process mode: a daemon thread that ends this process with the job's abort status once any rank aborts the
 * job (MPI_ABORT, {@link RmaJob#abort}). It polls the abort word (a plain load every 20 ms, no futex, so that
 * closing the job can unmap the control file under it once it stopped).
 */
final class AbortWatcher {
    private final Thread thread;
    private volatile boolean watching = true;

    private AbortWatcher(final ControlFile control, final int rank) {
        this.thread = Thread.ofPlatform().daemon().name("rma4j-abort-watcher-" + rank).unstarted(() -> {
            while (watching) {
                final int status;
                try {
                    status = control.abortStatus();
                } catch (final IllegalStateException closed) {
                    return;
                }
                if (status >= 0 && watching) {
                    System.out.flush();
                    System.err.println("rma4j: rank " + rank + " ends: the job was aborted with status " + status);
                    System.err.flush();
                    Runtime.getRuntime().halt(status);
                }
                LockSupport.parkNanos(20_000_000L);
            }
        });
    }

    /** Starts watching the job of {@code control} for rank {@code rank}. */
    static AbortWatcher start(final ControlFile control, final int rank) {
        final AbortWatcher watcher = new AbortWatcher(control, rank);
        watcher.thread.start();
        return watcher;
    }

    /** Stops the watcher and waits for its thread (unless called from it). */
    void stop() {
        if (thread == Thread.currentThread()) {
            return;
        }
        watching = false;
        LockSupport.unpark(thread);
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (final InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
