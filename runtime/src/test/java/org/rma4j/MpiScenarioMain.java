package org.rma4j;

/**
 * Main class of the rank processes of an MPI-mode test job ({@code mpirun ... java ... MpiScenarioMain
 * HOLDER#SCENARIO...}): joins the job ({@link Rma#init()} finds the MPI launcher), runs the scenarios in order
 * (static methods of holder classes, as {@link Scenarios} runs them in threads and processes), printing
 * {@code scenario HOLDER#SCENARIO passed at rank R} after each, and leaves the job. A scenario that fails prints its
 * exception and the rank exits with status 1 (the launcher then ends the job): later scenarios would not
 * start in step.
 */
public final class MpiScenarioMain {
    private MpiScenarioMain() {
    }

    public static void main(final String[] args) throws ClassNotFoundException {
        final RmaJob job = Rma.init();
        for (final String entry : args) {
            final int hash = entry.indexOf('#');
            final Class<?> holder = Class.forName(entry.substring(0, hash));
            final String name = entry.substring(hash + 1);
            try {
                Scenarios.invoke(holder, name, job);
                job.barrier();
            } catch (final Throwable t) {
                System.out.println("scenario " + entry + " FAILED at rank " + job.rank() + ": " + t);
                System.out.flush();
                System.err.println("scenario " + name + " failed at rank " + job.rank() + ": " + t);
                t.printStackTrace();
                System.err.flush();
                job.abandon(t);
                System.exit(1);
            }
            System.out.println("scenario " + entry + " passed at rank " + job.rank());
            System.out.flush();
        }
        job.close();
        System.out.println("rank " + job.rank() + " closed the job");
    }
}
