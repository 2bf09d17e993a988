package org.rma4j.bench.harness;

import java.util.Arrays;
import java.util.List;

/**
 * One application, variant, rank count and problem size: the throughput of every timed repetition and
 * their medians.
 *
 * @param app            {@link Application#id}.
 * @param variant        the synchronization variant's label ({@code notified}, {@code sendrecv}, ...).
 * @param ranks          processes of the job.
 * @param size           the application's size parameter ({@link Application}).
 * @param work           the application's work parameter ({@link Application}).
 * @param sizeLabel      the problem size as the report shows it.
 * @param unit           unit of the throughputs.
 * @param throughputs    one per timed repetition, in run order.
 * @param timesNs        rank 0's time per unit of work ({@link Application#timeUnit}) of each repetition.
 * @param verified       whether every repetition's result was right.
 */
public record AppMeasurement(String app, String variant, int ranks, int size, int work, String sizeLabel, String unit,
    List<Double> throughputs, List<Double> timesNs, boolean verified) {

    public AppMeasurement {
        throughputs = List.copyOf(throughputs);
        timesNs = List.copyOf(timesNs);
        if (throughputs.isEmpty() || throughputs.size() != timesNs.size()) {
            throw new IllegalArgumentException(
                app + " " + variant + ": " + throughputs.size() + " throughputs and " + timesNs.size() + " times");
        }
    }

    /**
     * @return the median throughput of the repetitions.
     */
    public double medianThroughput() {
        return median(throughputs);
    }

    /**
     * @return the median time per unit of work of the repetitions, in ns.
     */
    public double medianTimeNs() {
        return median(timesNs);
    }

    /**
     * @return the median (the mean of the two middle values for an even count).
     */
    static double median(final List<Double> values) {
        final double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        final int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
