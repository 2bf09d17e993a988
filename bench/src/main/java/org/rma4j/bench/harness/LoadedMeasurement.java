package org.rma4j.bench.harness;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One ping-pong of the loaded section ({@link LoadedSection}): the median half round trip of one
 * implementation and row at one payload size, beside a number of CPU-bound background processes.
 *
 * @param impl           {@link Rows#RMA4J} (the PingPong example) or {@link Rows#OPENMPI}.
 * @param row            {@code send-recv} or {@code notified-put}.
 * @param sizeBytes      payload size.
 * @param backgroundLoad CPU-bound processes running meanwhile (0: none).
 * @param medianNs       median half round trip, in ns.
 * @param meanNs         mean half round trip, in ns: the rare long round trips show here, not in the median (after
 *                       {@link #bestOfRounds}, the highest of the rounds); 0 if not measured.
 * @param iterations     timed round trips.
 */
public record LoadedMeasurement(String impl, String row, long sizeBytes, int backgroundLoad, double medianNs,
    double meanNs, int iterations) {
    /**
     * Keeps, of the measurements of one cell (implementation, row, size, background load) taken in several rounds,
     * the one with the lowest median: the best-of rule of the latency part ({@link Harness#bestOfRounds}), which
     * on a machine whose cross-core latency has modes (a virtual machine's vCPUs placed on other physical cores
     * between steps) reports each implementation in the same mode; with the highest mean of the cell's rounds, so
     * that a round with long stalls is not hidden by the rule. Cells in the order first measured.
     */
    static List<LoadedMeasurement> bestOfRounds(final List<LoadedMeasurement> everyRound) {
        final Function<LoadedMeasurement, Object> cell = m -> List.of(m.impl, m.row, m.sizeBytes, m.backgroundLoad);
        final Map<Object, Double> highestMean = new HashMap<>();
        for (final LoadedMeasurement m : everyRound) {
            highestMean.merge(cell.apply(m), m.meanNs, Math::max);
        }
        return Harness.lowestPerCell(everyRound, cell, LoadedMeasurement::medianNs).stream()
            .map(m -> new LoadedMeasurement(m.impl, m.row, m.sizeBytes, m.backgroundLoad, m.medianNs,
                highestMean.get(cell.apply(m)), m.iterations))
            .toList();
    }
}
