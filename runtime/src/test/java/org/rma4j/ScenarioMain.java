package org.rma4j;

/**
 * Main class of a rank process in the process-mode contract tests: joins the job, runs scenario
 * {@code args[1]} of holder class {@code args[0]} (see {@link Scenarios}), and exits with 1 (stack
 * trace on stderr) if it fails.
 */
public final class ScenarioMain {
    private ScenarioMain() {
    }

    public static void main(final String[] args) throws ClassNotFoundException {
        final Class<?> holder = Class.forName(args[0]);
        final String name = args[1];
        final RmaJob job = Rma.init();
        try {
            Scenarios.invoke(holder, name, job);
        } catch (final Throwable t) {
            System.err.println("scenario " + name + " failed at rank " + job.rank() + ": " + t);
            t.printStackTrace();
            System.exit(1);
        }
        job.close();
        System.out.println("scenario " + name + " passed at rank " + job.rank());
    }
}
