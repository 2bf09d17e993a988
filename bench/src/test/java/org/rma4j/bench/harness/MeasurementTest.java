package org.rma4j.bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class MeasurementTest {
    @Test
    void shouldTakePercentilesFromTheHistogram() {
        final double[] values = IntStream.rangeClosed(1, 1000).mapToDouble(i -> i).toArray();
        final Measurement m = Measurement.of(Rows.RMA4J, new SampleFile.Line("fence", 64, values));
        assertEquals(1000, m.count());
        assertEquals(500, m.p50Ns(), 1.0);
        assertEquals(900, m.p90Ns(), 1.0);
        assertEquals(990, m.p99Ns(), 1.0);
        assertEquals(500.5, m.meanNs(), 1.0);
        assertEquals(1, m.minNs(), 0.01);
        assertEquals(1000, m.maxNs(), 1.0);
    }

    @Test
    void shouldGiveBandwidthAtTheMedianInGigabytesPerSecond() {
        final Measurement m = Measurement.of(Rows.RMA4J, new SampleFile.Line("put-bw", 1000, new double[] {100, 100}));
        assertEquals(10.0, m.gbPerSecond(), 0.01);
    }

    @Test
    void shouldRejectALineWithoutSamples() {
        assertThrows(IllegalArgumentException.class,
            () -> Measurement.of(Rows.C11, new SampleFile.Line("floor", 8, new double[0])));
    }
}
