package org.rma4j.examples.notified;

import java.util.Arrays;
import org.rma4j.Rma;
import org.rma4j.RmaJob;

/**
 * What the programs of this package share: argument parsing, the main-method frame (exit statuses,
 * usage message) and the statistics of timing samples.
 */
final class Programs {
    /** Exit status when a program's result is wrong. */
    static final int EXIT_FAILED = 1;
    /** Exit status for bad arguments. */
    static final int EXIT_USAGE = 2;

    private Programs() {
    }

    /** The collective part of a program, run at every rank after its arguments were accepted. */
    @FunctionalInterface
    interface Body {
        /**
         * @return at rank 0 whether every result verified; other ranks return true.
         */
        boolean run(RmaJob job);
    }

    /** Parses the arguments (the same at every rank) into a body, or throws IllegalArgumentException. */
    @FunctionalInterface
    interface Parser {
        Body parse(String[] args, int ranks);
    }

    /**
     * The frame of every main method: joins the job, parses the arguments (usage message from rank 0
     * and exit status {@link #EXIT_USAGE} if they are bad, at every rank since every rank sees the same
     * arguments), runs the body and exits with {@link #EXIT_FAILED} if rank 0 reports a failure. An
     * exception in the body ends the JVM with a stack trace; the other ranks then see this rank fail.
     */
    static void main(final String program, final String usage, final String[] args, final Parser parser) {
        final RmaJob job = Rma.init();
        final Body body;
        try {
            body = parser.parse(args, job.size());
        } catch (final IllegalArgumentException e) {
            if (job.rank() == 0) {
                System.err.println(program + ": " + e.getMessage());
                System.err.println("usage: " + program + " " + usage);
            }
            job.close();
            System.exit(EXIT_USAGE);
            return;
        }
        final boolean passed = body.run(job);
        job.close();
        if (!passed) {
            System.exit(EXIT_FAILED);
        }
    }

    /**
     * @return {@code args[index]} as an int, or {@code fallback} if there are not that many arguments.
     * @throws IllegalArgumentException if it is not an integer or is below {@code min}.
     */
    static int intArgument(final String[] args, final int index, final String name, final int fallback, final int min) {
        if (index >= args.length) {
            return fallback;
        }
        final int value;
        try {
            value = Integer.parseInt(args[index].trim());
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException(name + " '" + args[index] + "' is not an integer");
        }
        if (value < min) {
            throw new IllegalArgumentException(name + "=" + value + " must be >= " + min);
        }
        return value;
    }

    /**
     * @throws IllegalArgumentException if there are more than {@code max} arguments.
     */
    static void checkArgumentCount(final String[] args, final int max) {
        if (args.length > max) {
            throw new IllegalArgumentException("too many arguments (" + args.length + ", at most " + max + ")");
        }
    }

    /**
     * @return the median of {@code samples} (the mean of the two middle ones for an even count), 0 for
     *         none. The array is not modified.
     */
    static long median(final long[] samples) {
        if (samples.length == 0) {
            return 0;
        }
        final long[] sorted = samples.clone();
        Arrays.sort(sorted);
        final int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /**
     * @return the mean of {@code samples}, 0 for none.
     */
    static double mean(final long[] samples) {
        return samples.length == 0 ? 0 : Arrays.stream(samples).average().orElse(0);
    }
}
