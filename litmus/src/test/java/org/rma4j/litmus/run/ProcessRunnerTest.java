package org.rma4j.litmus.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rma4j.litmus.Seeds;
import org.rma4j.litmus.model.Model;
import org.rma4j.litmus.model.ModelOptions;
import org.rma4j.litmus.syntax.Program;

/**
 * Shipped programs on real rma4j processes (one JVM per litmus process, through the launcher):
 * a coreRMA program, a lock program, notified puts (a short one, a 1 KiB one), a notified get, waits on
 * any source and tag, a PSCW epoch, direct stores and a polling loop through shared_query, sub-word
 * accumulates and store buffering through accumulates.
 */
class ProcessRunnerTest {
    @ParameterizedTest
    @ValueSource(strings = {"core-fig8", "mpi-lock-counter", "na-message", "na-put-order", "pscw-mp", "na-get-notify",
        "shm-store", "na-put-1k", "acc-short", "acc-double", "shm-poll-mp", "wait-any", "sb-acc-fop"})
    void shouldObserveOnlyAllowedStatesAcrossProcesses(final String name) throws Exception {
        final Program p = Seeds.load(name);
        final RunConfig config = new RunConfig(1500, 3, 100, RunConfig.Mode.PROCESSES, null);
        final AtomicLong progress = new AtomicLong();
        final Histogram h = new ProcessRunner().run(p, config, progress::set);
        assertEquals(1500, h.total());
        assertEquals(1000, progress.get(), "rank 0 reports progress every 1000 runs");
        final Verdict v = new Verdict(p, Model.allowed(p, ModelOptions.stock()), h);
        assertTrue(v.passed(), () -> ThreadRunnerTest.report(v));
    }
}
