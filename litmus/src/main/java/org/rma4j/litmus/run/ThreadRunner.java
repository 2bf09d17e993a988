package org.rma4j.litmus.run;

import java.util.List;
import java.util.function.LongConsumer;

import org.rma4j.Rma;
import org.rma4j.WaitOptions;
import org.rma4j.litmus.syntax.Program;

/**
 * Runs the ranks as threads of this JVM ({@link Rma#callThreads}): the runtime's code paths of
 * process mode, without the JVM start-up.
 */
public final class ThreadRunner implements Runner {
    @Override
    public Histogram run(final Program program, final RunConfig config, final LongConsumer progress) {
        final Rma.RankFunction<long[][]> body = job -> RankProgram.run(program, job, config, progress);
        final List<long[][]> rows = config.baseDirectory() != null
            ? Rma.callThreads(program.processCount(), config.baseDirectory(), WaitOptions.defaults(), body)
            : Rma.callThreads(program.processCount(), WaitOptions.defaults(), body);
        return Histogram.of(program, rows);
    }
}
