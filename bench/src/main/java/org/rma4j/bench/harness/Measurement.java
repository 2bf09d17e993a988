package org.rma4j.bench.harness;

import org.HdrHistogram.DoubleHistogram;

/**
 * Summary of one (implementation, row, size): percentiles from an HdrHistogram {@link DoubleHistogram}
 * (3 significant digits) of the samples, in nanoseconds.
 */
public record Measurement(String impl, String row, long sizeBytes, long count, double p50Ns, double p90Ns, double p99Ns,
    double meanNs, double minNs, double maxNs) {

    /**
     * Summarizes the samples of one sample-file line.
     *
     * @throws IllegalArgumentException if the line has no samples.
     */
    public static Measurement of(final String impl, final SampleFile.Line line) {
        if (line.valuesNs().length == 0) {
            throw new IllegalArgumentException("no samples for " + impl + " " + line.row() + " " + line.sizeBytes());
        }
        final DoubleHistogram histogram = new DoubleHistogram(3);
        for (final double value : line.valuesNs()) {
            histogram.recordValue(Math.max(value, 0.1));
        }
        return new Measurement(impl, line.row(), line.sizeBytes(), histogram.getTotalCount(),
            histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(90), histogram.getValueAtPercentile(99),
            histogram.getMean(), histogram.getMinValue(), histogram.getMaxValue());
    }

    /**
     * @return bytes per nanosecond at the median, that is GB/s (for bandwidth rows).
     */
    public double gbPerSecond() {
        return sizeBytes / p50Ns;
    }
}
