package org.rma4j.litmus.run;

import java.util.function.LongConsumer;

import org.rma4j.litmus.syntax.Program;

/**
 * Runs a litmus program many times on rma4j and returns the histogram of final states.
 */
public interface Runner {
    /**
     * @param progress called now and then with the number of finished iterations, or null.
     * @throws Exception if the job fails (a rank throws, e.g. an RmaException for misuse, or dies).
     */
    Histogram run(Program program, RunConfig config, LongConsumer progress) throws Exception;

    /** @return the runner of {@code mode}. */
    static Runner of(final RunConfig.Mode mode) {
        return mode == RunConfig.Mode.THREADS ? new ThreadRunner() : new ProcessRunner();
    }
}
