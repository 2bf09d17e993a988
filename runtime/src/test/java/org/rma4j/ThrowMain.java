package org.rma4j;

/**
 * Main class of {@link JobFailureTest}'s failure scenarios in real processes: {@code ThrowMain MODE}
 * runs {@link ThrowScenarios} in the README's pattern ({@code try (RmaJob job = Rma.init())});
 * {@code ThrowMain MODE run} runs it through {@link Rma#run}; {@code ThrowMain abort} has rank 1 abort
 * the job with status 7 while rank 0 computes without calling rma4j.
 */
public final class ThrowMain {
    private ThrowMain() {
    }

    public static void main(final String[] args) throws Exception {
        if (args[0].equals("abort")) {
            try (RmaJob job = Rma.init()) {
                job.barrier();
                if (job.rank() == 1) {
                    job.abort(7);
                }
                long spins = 0;
                while (spins >= 0) {
                    spins++;
                    Thread.onSpinWait();
                }
            }
            return;
        }
        if (args.length > 1 && args[1].equals("run")) {
            Rma.run(job -> ThrowScenarios.run(args[0], job));
            return;
        }
        try (RmaJob job = Rma.init()) {
            ThrowScenarios.run(args[0], job);
        }
    }
}
