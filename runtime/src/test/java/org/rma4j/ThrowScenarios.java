package org.rma4j;

import org.rma4j.messaging.Messaging;

/**
 * Programs of two ranks in which rank 1 fails at a chosen point while rank 0 goes on as a correct
 * program would, written the way a new user writes them: resources in {@code try}-with-resources.
 * Shared by the process-mode and thread-mode failure tests.
 *
 * <p>Throw modes (rank 1 throws an IllegalStateException "bug ..."): {@code fences} (between two
 * fences; rank 0 fences again), {@code lock} (inside an exclusive lock epoch on rank 0's window; rank 0
 * then locks it), {@code pscw} (between post and wait; rank 0 starts, puts, completes and frees),
 * {@code pscw-start} (before its post; rank 0 starts, waiting for that post),
 * {@code notify} (with a notification request active; rank 0 waits for a notification from rank 1),
 * {@code messaging} (inside a Messaging object; rank 0 receives from rank 1). Mismatch modes (no
 * throw): rank 0 calls fence while rank 1 calls {@code fence-free}, {@code fence-barrier} or
 * {@code fence-create}. Every rank prints {@link #MARK} with the time before the point of failure.
 */
final class ThrowScenarios {
    /** Printed, followed by the System.nanoTime(), just before the failing call or throw. */
    static final String MARK = "failing-now ";
    /** The message of the exception rank 1 throws. */
    static final String BUG = "bug in the program of rank 1";

    static final String[] THROW_MODES = {"fences", "lock", "pscw", "pscw-start", "notify", "messaging"};
    static final String[] MISMATCH_MODES = {"fence-free", "fence-barrier", "fence-create"};

    private ThrowScenarios() {
    }

    static void run(final String mode, final RmaJob job) {
        final int rank = job.rank();
        switch (mode) {
            case "fences" -> {
                try (Window window = job.allocateShared(64, 8)) {
                    window.fence(0);
                    if (rank == 1) {
                        throw bug();
                    }
                    window.fence(0);
                }
            }
            case "lock" -> {
                try (Window window = job.allocateShared(64, 8)) {
                    if (rank == 1) {
                        window.lock(LockType.EXCLUSIVE, 0);
                        job.barrier();
                        throw bug();
                    }
                    job.barrier();
                    window.lock(LockType.EXCLUSIVE, 0);
                    window.unlock(0);
                }
            }
            case "pscw" -> {
                try (Window window = job.allocateShared(64, 8)) {
                    if (rank == 1) {
                        window.post(Group.of(0), 0);
                        throw bug();
                    }
                    window.start(Group.of(1), 0);
                    window.put(new long[] {42}, 0, 1, 1, 0);
                    window.complete();
                }
            }
            case "pscw-start" -> {
                try (Window window = job.allocateShared(64, 8)) {
                    if (rank == 1) {
                        throw bug();
                    }
                    window.start(Group.of(1), 0);
                    window.complete();
                }
            }
            case "notify" -> {
                try (Window window = job.allocateShared(64, 8)) {
                    if (rank == 1) {
                        window.notifyInit(0, 7, 1).start();
                        job.barrier();
                        throw bug();
                    }
                    job.barrier();
                    final NotifyRequest request = window.notifyInit(1, 9, 1);
                    request.start();
                    request.await();
                }
            }
            case "messaging" -> {
                try (Messaging messaging = Messaging.create(job)) {
                    messaging.barrier();
                    if (rank == 1) {
                        throw bug();
                    }
                    messaging.recv(new long[1], 0, 1, 1, 5);
                }
            }
            case "fence-free", "fence-barrier", "fence-create" -> {
                try (Window window = job.allocateShared(64, 8)) {
                    window.fence(0);
                    mark();
                    if (rank == 0) {
                        window.fence(0);
                    } else if (mode.equals("fence-free")) {
                        window.free();
                    } else if (mode.equals("fence-barrier")) {
                        job.barrier();
                    } else {
                        job.allocateShared(8, 8).free();
                    }
                }
            }
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
    }

    private static IllegalStateException bug() {
        mark();
        return new IllegalStateException(BUG);
    }

    private static void mark() {
        System.out.println(MARK + System.nanoTime());
        System.out.flush();
    }
}
