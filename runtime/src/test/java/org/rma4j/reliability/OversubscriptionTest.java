package org.rma4j.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rma4j.test.ShmTestDirectory;

/**
 * More rank processes than cores ({@link LoadMain}): 8 and 16 ranks through fence, PSCW, lock, lock_all with
 * flush and notified exchanges all finish with the right results, and waiting does not burn the machine.
 *
 * <p>For each phase the CPU time of every rank process (read inside the rank) is summed and printed
 * against the phase's wall time times the ranks, and times the cores. The one assertion on time is a
 * generous bound for the blocking phases, where every rank but one waits while rank 0 sleeps: spinning
 * waiters would keep every core busy (CPU close to wall x cores), sleeping ones use a small fraction.
 */
@Tag("reliability")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class OversubscriptionTest {
    private static final int ITERATIONS = 20;
    private static final long BLOCK_MS = 800;
    /** Blocking phases may use at most this share of all cores; spinning waiters would use all of them. */
    private static final double BLOCKING_CPU_BOUND = 0.6;

    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory("rma4j-reliability-");

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {8, 16})
    void shouldFinishEverySynchronizationWithMoreRanksThanCoresWithoutSpinning(final int ranks) throws Exception {
        final int cores = Runtime.getRuntime().availableProcessors();
        final long startNs = System.nanoTime();
        final Jobs.Outcome outcome = Jobs.run(base.path(), ranks, LoadMain.class, Integer.toString(ITERATIONS),
            Long.toString(BLOCK_MS));
        final double jobSeconds = (System.nanoTime() - startNs) / 1e9;
        assertEquals(0, outcome.result().exitCode(), outcome::describe);
        final Map<String, double[]> phases = new LinkedHashMap<>();
        double totalCpuMs = 0;
        for (int rank = 0; rank < ranks; rank++) {
            assertEquals(List.of("done"), outcome.lines(rank, "done"), outcome::describe);
            for (final String line : outcome.lines(rank, "PHASE ")) {
                final String name = line.split(" ")[1] + " (" + Jobs.Outcome.field(line, "kind") + ")";
                final double[] sums = phases.computeIfAbsent(name, key -> new double[2]);
                sums[0] += Double.parseDouble(Jobs.Outcome.field(line, "cpuMs"));
                sums[1] = Math.max(sums[1], Double.parseDouble(Jobs.Outcome.field(line, "wallMs")));
            }
            totalCpuMs += Double.parseDouble(Jobs.Outcome.field(outcome.lines(rank, "TOTAL").getFirst(), "cpuMs"));
        }
        final StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
            "oversubscription: %d ranks on %d cores, job %.1f s, rank CPU %.1f s (%.0f%% of job time x ranks)%n", ranks,
            cores, jobSeconds, totalCpuMs / 1000, 100 * totalCpuMs / (jobSeconds * 1000 * ranks)));
        for (final Map.Entry<String, double[]> phase : phases.entrySet()) {
            final double cpuMs = phase.getValue()[0];
            final double wallMs = phase.getValue()[1];
            report.append(String.format(Locale.ROOT,
                "  %-22s wall %7.1f ms, CPU of all ranks %8.1f ms = %5.1f%% of wall x ranks, %5.1f%% of wall x cores%n",
                phase.getKey(), wallMs, cpuMs, 100 * cpuMs / (wallMs * ranks), 100 * cpuMs / (wallMs * cores)));
        }
        System.out.print(report);
        for (final Map.Entry<String, double[]> phase : phases.entrySet()) {
            if (phase.getKey().endsWith("(blocking)")) {
                final double share = phase.getValue()[0] / (phase.getValue()[1] * Math.min(ranks, cores));
                assertTrue(share < BLOCKING_CPU_BOUND, phase.getKey() + " kept the cores " + Math.round(100 * share)
                    + "% busy while ranks only waited:\n" + report);
            }
        }
        assertTrue(phases.size() == 15, () -> "phases reported: " + phases.keySet());
        base.assertEmpty("by the job of " + ranks + " ranks");
    }
}
