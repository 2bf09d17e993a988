package org.rma4j;

import java.io.IOException;

/**
 * Main class of the fault tests: rank 1 ends abnormally at a chosen point while rank 0 (and any
 * other rank) blocks in a call that depends on it. Rank 0 prints what it saw and exits with 4.
 *
 * <p>Modes: {@code exit3-fence} (rank 1 exits with status 3 instead of entering a fence),
 * {@code kill-lock} (rank 1 is killed with SIGKILL while it holds an exclusive lock that rank 0
 * requests), {@code kill-fence} (rank 1 is killed with SIGKILL while rank 0 waits in a fence).
 */
public final class FailureMain {
    private FailureMain() {
    }

    public static void main(final String[] args) throws Exception {
        final String mode = args[0];
        final RmaJob job = Rma.init();
        final Window window = job.allocateShared(64, 8);
        if (job.rank() == 1) {
            switch (mode) {
                case "exit3-fence" -> System.exit(3);
                case "kill-lock" -> {
                    window.lock(LockType.EXCLUSIVE, 0);
                    job.barrier();
                    killSelf();
                }
                case "kill-fence" -> killSelf();
                default -> throw new IllegalArgumentException(mode);
            }
        }
        try {
            if (mode.equals("kill-lock")) {
                job.barrier();
                window.lock(LockType.EXCLUSIVE, 0);
            } else {
                window.fence(0);
            }
            System.out.println("rank " + job.rank() + " was not stopped");
            System.exit(0);
        } catch (final RankFailedException e) {
            System.out.println("rank " + job.rank() + " saw RankFailedException: " + e.getMessage());
            System.exit(4);
        }
    }

    private static void killSelf() throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).inheritIO().start().waitFor();
        Thread.sleep(60_000);
    }
}
