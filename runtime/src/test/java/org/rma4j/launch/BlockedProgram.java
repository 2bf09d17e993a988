package org.rma4j.launch;

import org.rma4j.Group;
import org.rma4j.LockType;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;

/**
 * A job of three ranks that hangs in point-to-point waits: rank 1 holds the exclusive lock of rank 0 and
 * never releases it; rank 0 waits in lock for it; rank 2 waits in start for a post of rank 1 that never
 * comes. Each rank prints {@code ready <pid>} just before it blocks.
 */
public final class BlockedProgram {
    private BlockedProgram() {
    }

    public static void main(final String[] args) throws InterruptedException {
        final RmaJob job = Rma.init();
        final Window window = job.allocateShared(8, 8);
        if (job.rank() == 1) {
            window.lock(LockType.EXCLUSIVE, 0);
        }
        job.barrier();
        System.out.println("ready " + ProcessHandle.current().pid());
        switch (job.rank()) {
            case 0 -> window.lock(LockType.EXCLUSIVE, 0);
            case 2 -> window.start(Group.of(1), 0);
            default -> {
                while (true) {
                    // holds the lock until the launcher stops the job
                    Thread.sleep(Long.MAX_VALUE);
                }
            }
        }
    }
}
