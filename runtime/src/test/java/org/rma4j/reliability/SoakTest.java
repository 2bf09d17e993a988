package org.rma4j.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * A soak: {@link SoakMain} mixes every kind of call across 4 rank processes for
 * {@code -Drma4j.soak.seconds=N} seconds (20 by default, so that it fits a CI run; give it minutes or hours
 * by hand), checking invariants as it goes, and must end cleanly with nothing left in the job directory.
 * The seed is printed; {@code -Drma4j.soak.seed=N} repeats the sequence of phases.
 */
@Tag("reliability")
@Tag("soak")
class SoakTest {
    private static final int RANKS = 4;

    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory("rma4j-reliability-");

    @Test
    void shouldRunEveryKindOfCallAcrossFourProcessesAndEndCleanly() throws Exception {
        final long seconds = Long.getLong("rma4j.soak.seconds", 20);
        final long seed = Long.getLong("rma4j.soak.seed", System.nanoTime());
        System.out.println("soak: " + RANKS + " ranks for " + seconds + " s, seed " + seed);
        final CompletableFuture<Jobs.Outcome> run = new CompletableFuture<>();
        final Thread runner = Thread.ofPlatform().name("soak").start(() -> {
            try {
                run.complete(Jobs.run(base.path(), RANKS, SoakMain.class, Long.toString(seed), Long.toString(seconds)));
            } catch (final Throwable t) {
                run.completeExceptionally(t);
            }
        });
        final Jobs.Outcome outcome;
        try {
            // Hang protection: the soak's own length plus time to start and stop 4 JVMs.
            outcome = run.get(seconds + 90, TimeUnit.SECONDS);
        } finally {
            runner.interrupt(); // a launcher interrupted while it waits kills its ranks
            runner.join();
        }
        assertEquals(0, outcome.result().exitCode(), outcome::describe);
        for (int rank = 0; rank < RANKS; rank++) {
            final String line = outcome.lines(rank, "SOAK ").getFirst();
            System.out.println("soak: " + line);
            assertEquals(Integer.toString(rank), Jobs.Outcome.field(line, "rank"), outcome::describe);
        }
        base.assertEmpty("by the soak");
    }
}
