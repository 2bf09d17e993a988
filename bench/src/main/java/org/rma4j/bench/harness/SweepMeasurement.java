package org.rma4j.bench.harness;

import java.util.List;

/**
 * One implementation, row and rank count of the throughput and scale sweep ({@link Sweeps}): rank 0's time
 * per message (fan-in rows) or per call (fence, barrier) of every run, in ns.
 *
 * @param impl         {@link Rows#RMA4J} or {@link Rows#OPENMPI}.
 * @param row          a row of {@link Sweeps#ROWS}.
 * @param ranks        processes of the job.
 * @param runsNs       rank 0's time per message or call of each timed run, in run order.
 */
public record SweepMeasurement(String impl, String row, int ranks, List<Double> runsNs) {
    public SweepMeasurement {
        runsNs = List.copyOf(runsNs);
        if (runsNs.isEmpty()) {
            throw new IllegalArgumentException(impl + " " + row + " at " + ranks + " ranks: no runs");
        }
    }

    /**
     * @return the median over the runs of the time per message or call, in ns.
     */
    public double medianNs() {
        return AppMeasurement.median(runsNs);
    }

    /**
     * @return messages (or calls) per second at the median time.
     */
    public double perSecond() {
        return 1e9 / medianNs();
    }
}
