package org.rma4j;

/**
 * Main class of the MPI-mode failure test's ranks ({@code MpiFailureMain throw|halt}): rank 3 (node 1) ends
 * while the others wait for it, in a barrier (ranks 0 and 1, node 0) and in an exclusive lock of a window it
 * holds (rank 2, node 1).
 * <ul>
 *   <li>{@code throw}: rank 3's program throws inside {@link Rma#run}; the others' waits throw
 *   {@link RankFailedException} naming it.</li>
 *   <li>{@code halt}: rank 3's process ends with status 7 without a word (as a crash would).</li>
 * </ul>
 */
public final class MpiFailureMain {
    private MpiFailureMain() {
    }

    public static void main(final String[] args) throws Exception {
        final boolean halt = args[0].equals("halt");
        Rma.run(job -> {
            final int me = job.rank();
            try (Window window = job.allocate(8, 8)) {
                if (me == 3) {
                    window.lock(LockType.EXCLUSIVE, 2);
                }
                job.barrier();
                if (me == 3) {
                    System.out.println("rank 3 ends, holding the lock of rank 2");
                    System.out.flush();
                    if (halt) {
                        Runtime.getRuntime().halt(7);
                    }
                    throw new IllegalStateException("rank 3 gives up");
                }
                if (me == 2) {
                    window.lock(LockType.EXCLUSIVE, 2);
                } else {
                    job.barrier();
                }
                System.out.println("UNEXPECTED: rank " + me + " passed its wait");
            }
        });
    }
}
