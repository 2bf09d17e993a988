package org.rma4j;

/**
 * Main class of a rank process in the process-mode accumulate tests: joins the job, runs the named
 * scenario of {@link AccumulateScenarios}, and exits with 1 (stack trace on stderr) if it fails.
 */
public final class AccumulateScenarioMain {
    private AccumulateScenarioMain() {
    }

    public static void main(final String[] args) {
        final RmaJob job = Rma.init();
        try {
            AccumulateScenarios.run(args[0], job);
        } catch (final Throwable t) {
            System.err.println("scenario " + args[0] + " failed at rank " + job.rank() + ": " + t);
            t.printStackTrace();
            System.exit(1);
        }
        job.close();
        System.out.println("scenario " + args[0] + " passed at rank " + job.rank());
    }
}
