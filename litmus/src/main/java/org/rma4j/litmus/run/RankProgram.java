package org.rma4j.litmus.run;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

import org.rma4j.Info;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.litmus.syntax.Program;

/**
 * What one rank does in a litmus run, in thread and process mode alike: create the window, then for
 * each iteration run its process's statements with random delays, meet the others at a barrier,
 * record its registers and the final values of the variables it owns, reset them to their initial
 * values and meet again. A coreRMA program (no fence, lock or lock_all) runs inside one lock_all
 * epoch so that its flushes are legal MPI.
 *
 * <p>A row of the result is {@code [registers of the rank (Program.registersOf order), variables it
 * owns (declaration order)]}.
 */
final class RankProgram {
    /** Rank 0 reports progress every this many iterations. */
    static final int PROGRESS_EVERY = 1000;

    private RankProgram() {
    }

    /**
     * @param progress called by rank 0 with the number of finished iterations, or null.
     * @return one row per iteration.
     */
    static long[][] run(final Program program, final RmaJob job, final RunConfig config, final LongConsumer progress) {
        final int rank = job.rank();
        final VariableLayout layout = new VariableLayout(program);
        final List<Program.Variable> owned = VariableLayout.owned(program, rank);
        final int registerCount = program.registersOf(rank).size();
        final long[][] rows = new long[config.iterations()][registerCount + owned.size()];
        final SplittableRandom random = new SplittableRandom(config.seed() * 1_000_003L + rank);
        final int spins = config.maxDelaySpins();
        final Runnable delay = delay(random, spins);
        final boolean implicitEpoch = !program.hasExplicitEpochs();
        try (Window window = job.allocateShared(layout.windowBytes(rank), 1, info(program))) {
            final MemorySegment own = window.segment();
            final Interpreter interpreter = new Interpreter(program, rank, job, window, layout);
            try {
                if (implicitEpoch) {
                    window.lockAll();
                }
                reset(own, owned, layout);
                job.barrier();
                for (int it = 0; it < config.iterations(); it++) {
                    if (spins > 0) {
                        spin(random.nextInt(4 * spins + 1));
                    }
                    final long[] row = rows[it];
                    interpreter.run(row, delay);
                    job.barrier();
                    for (int v = 0; v < owned.size(); v++) {
                        row[registerCount + v] = layout.read(own, owned.get(v).name());
                    }
                    reset(own, owned, layout);
                    job.barrier();
                    if (progress != null && rank == 0 && (it + 1) % PROGRESS_EVERY == 0) {
                        progress.accept(it + 1);
                    }
                }
                if (implicitEpoch) {
                    window.unlockAll();
                }
            } finally {
                interpreter.close();
            }
        }
        return rows;
    }

    /** @return the delay before each statement: none, or a coin flip between nothing and up to {@code spins} spins. */
    private static Runnable delay(final SplittableRandom random, final int spins) {
        return spins == 0 ? () -> {
        } : () -> {
            if (random.nextBoolean()) {
                spin(random.nextInt(spins + 1));
            }
        };
    }

    /** @return the window's info: the file's accumulate_ordering, or null for the default. */
    private static Info info(final Program program) {
        return program.info().containsKey(Program.ACCUMULATE_ORDERING_KEY)
            ? Info.of(Info.ACCUMULATE_ORDERING, program.info().get(Program.ACCUMULATE_ORDERING_KEY))
            : null;
    }

    private static void reset(final MemorySegment own, final List<Program.Variable> owned,
        final VariableLayout layout) {
        for (final Program.Variable v : owned) {
            layout.write(own, v.name(), v.init());
        }
    }

    private static void spin(final int times) {
        for (int i = 0; i < times; i++) {
            Thread.onSpinWait();
        }
    }
}
