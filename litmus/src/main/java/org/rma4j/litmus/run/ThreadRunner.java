package org.rma4j.litmus.run;

import java.util.List;
import java.util.function.LongConsumer;

import org.rma4j.Rma;
import org.rma4j.litmus.syntax.Program;
import org.rma4j.shm.JobDirectory;
import org.rma4j.shm.WaitStrategy;

/**
 * Runs the ranks as threads of this JVM ({@link Rma#callThreads}): the runtime's code paths of
 * process mode, without the JVM start-up.
 */
public final class ThreadRunner implements Runner {
    @Override
    public Histogram run(final Program program, final RunConfig config, final LongConsumer progress) {
        final List<long[][]> rows = Rma.callThreads(program.processCount(),
            config.baseDirectory() != null ? config.baseDirectory() : JobDirectory.defaultBase(),
            WaitStrategy.defaultStrategy(), job -> RankProgram.run(program, job, config, progress));
        return Histogram.of(program, rows);
    }
}
