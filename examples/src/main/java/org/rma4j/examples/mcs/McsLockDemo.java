package org.rma4j.examples.mcs;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.util.Locale;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;

/**
 * Checks {@link McsLock} the plain way: every rank enters the critical section K times and increments
 * a counter at rank 0 with a non-atomic read-modify-write (get, add one, put, each completed by a
 * flush). Without mutual exclusion increments are lost; with it the counter ends at exactly
 * ranks x K.
 *
 * <h2>Running</h2>
 * <pre>
 * bin/rmarun -n 4 -cp examples/target/rma4j-examples.jar org.rma4j.examples.mcs.McsLockDemo [K]
 * </pre>
 * K defaults to {@value #DEFAULT_ACQUISITIONS}. Rank 0 prints one line, for example
 * <pre>
 * mcs-lock: 4 ranks x 1000 acquisitions, counter = 4000 (expected 4000): VERIFIED, 81.2 ms
 * </pre>
 * and the job exits with status 1 (FAILED in place of VERIFIED) if the counter is wrong, 2 for bad
 * arguments. The time is that of the K acquisitions at every rank, measured by rank 0 between two
 * barriers.
 */
public final class McsLockDemo {
    /** Default number of acquisitions per rank. */
    public static final int DEFAULT_ACQUISITIONS = 1000;

    /** Exit status when the counter is wrong. */
    static final int EXIT_FAILED = 1;
    /** Exit status for bad arguments. */
    static final int EXIT_USAGE = 2;

    private static final String USAGE = "usage: McsLockDemo [acquisitions]  (default " + DEFAULT_ACQUISITIONS + ")";
    /** Rank holding the counter. */
    private static final int COUNTER_RANK = 0;

    private McsLockDemo() {
    }

    /**
     * The outcome of {@link #run} at one rank.
     *
     * @param counter      at rank 0 the final counter, -1 at the other ranks.
     * @param elapsedNanos this rank's time for the acquisitions, between two barriers.
     */
    public record Result(long counter, long elapsedNanos) {
    }

    /**
     * Increments the shared counter {@code acquisitions} times under the lock, as the calling rank of
     * {@code job}. Collective: every rank calls it with the same arguments. Creates and frees two
     * windows: the lock's and the counter's.
     *
     * @return the final counter at rank 0, and the timing.
     * @throws IllegalArgumentException if acquisitions is negative (at every rank, before any
     *                                  collective call).
     */
    public static Result run(final RmaJob job, final int acquisitions) {
        checkAcquisitions(acquisitions);
        final int rank = job.rank();
        final McsLock lock = McsLock.create(job);
        final Window counter = job.allocate(rank == COUNTER_RANK ? Long.BYTES : 0, Long.BYTES);
        if (rank == COUNTER_RANK) {
            counter.segment().set(JAVA_LONG, 0, 0L);
        }
        job.barrier();
        counter.lockAll();
        final long[] value = new long[1];

        job.barrier();
        final long start = System.nanoTime();
        for (int i = 0; i < acquisitions; i++) {
            lock.acquire();
            try {
                // Deliberately not atomic: only the lock keeps two ranks from interleaving here.
                counter.get(value, 0, 1, COUNTER_RANK, 0);
                counter.flush(COUNTER_RANK);
                value[0]++;
                counter.put(value, 0, 1, COUNTER_RANK, 0);
                counter.flush(COUNTER_RANK);
            } finally {
                lock.release();
            }
        }
        job.barrier();
        final long elapsedNanos = System.nanoTime() - start;

        long total = -1;
        if (rank == COUNTER_RANK) {
            counter.get(value, 0, 1, COUNTER_RANK, 0);
            counter.flush(COUNTER_RANK);
            total = value[0];
        }
        counter.unlockAll();
        counter.free();
        lock.close();
        return new Result(total, elapsedNanos);
    }

    /**
     * @return whether the counter is exactly ranks x acquisitions.
     */
    static boolean verified(final long counter, final int ranks, final int acquisitions) {
        return counter == (long)ranks * acquisitions;
    }

    /**
     * @return the summary line rank 0 prints.
     */
    static String summary(final int ranks, final int acquisitions, final long counter, final long elapsedNanos) {
        return String.format(Locale.ROOT, "mcs-lock: %d %s x %d acquisitions, counter = %d (expected %d): %s, %.1f ms",
            ranks, ranks == 1 ? "rank" : "ranks", acquisitions, counter, (long)ranks * acquisitions,
            verified(counter, ranks, acquisitions) ? "VERIFIED" : "FAILED", elapsedNanos / 1e6);
    }

    /**
     * @return the number of acquisitions per rank from the arguments.
     * @throws IllegalArgumentException for too many or malformed arguments or a negative count.
     */
    static int parseArguments(final String[] args) {
        if (args.length > 1) {
            throw new IllegalArgumentException("too many arguments");
        }
        if (args.length == 0) {
            return DEFAULT_ACQUISITIONS;
        }
        final int acquisitions;
        try {
            acquisitions = Integer.parseInt(args[0].trim());
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("'" + args[0] + "' is not an integer");
        }
        checkAcquisitions(acquisitions);
        return acquisitions;
    }

    private static void checkAcquisitions(final int acquisitions) {
        if (acquisitions < 0) {
            throw new IllegalArgumentException("acquisitions=" + acquisitions + " must be >= 0");
        }
    }

    /**
     * Runs the demo on every rank, verifies at rank 0 and prints the summary line there.
     *
     * @param args {@code [acquisitions]}.
     */
    public static void main(final String[] args) {
        final RmaJob job = Rma.init();
        final int acquisitions;
        try {
            acquisitions = parseArguments(args);
        } catch (final IllegalArgumentException e) {
            // Every rank sees the same arguments, so every rank leaves here.
            if (job.rank() == 0) {
                System.err.println("McsLockDemo: " + e.getMessage());
                System.err.println(USAGE);
            }
            job.close();
            System.exit(EXIT_USAGE);
            return;
        }

        // An exception here ends the JVM with a stack trace; the other ranks then see this rank fail.
        final Result result = run(job, acquisitions);
        boolean passed = true;
        if (job.rank() == 0) {
            passed = verified(result.counter(), job.size(), acquisitions);
            System.out.println(summary(job.size(), acquisitions, result.counter(), result.elapsedNanos()));
        }
        job.close();
        if (!passed) {
            System.exit(EXIT_FAILED);
        }
    }
}
