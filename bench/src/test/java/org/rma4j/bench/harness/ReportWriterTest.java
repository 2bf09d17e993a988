package org.rma4j.bench.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportWriterTest {
    private static final byte[] PNG_SIGNATURE = {(byte)0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    Path directory;

    static Results sample() {
        final List<Measurement> measurements = new ArrayList<>();
        for (final long size : List.of(8L, 1024L)) {
            measurements.add(fixed(Rows.C11, "floor", size, 100));
            measurements.add(fixed(Rows.JAVA_FFM, "floor", size, 200));
            measurements.add(fixed(Rows.RMA4J, "notified-put", size, 400));
            measurements.add(fixed(Rows.RMA4J, "put-flush-flag", size, 300));
            measurements.add(fixed(Rows.OPENMPI, "put-flush-flag", size, 800));
            measurements.add(fixed(Rows.OPENMPI, "send-recv", size, 1000));
            measurements.add(fixed(Rows.RMA4J, "put-bw", size, size / 10.0));
            measurements.add(fixed(Rows.JAVA_FFM, "memcpy-bw", size, size / 20.0));
        }
        measurements.add(fixed(Rows.RMA4J, "fetch-and-op", 8, 20));
        measurements.add(fixed(Rows.OPENMPI, "fetch-and-op", 8, 40));
        return new Results(new Results.RunInfo("2026-11-21T12:00:00Z", "test machine", "Java 25", 0.5, 0.7,
            "rma4j-bench --test", List.of(8L, 1024L), 100, 10, 5, Map.of("gcc", "/usr/bin/gcc")), measurements,
            List.of("MPICH columns skipped: mpicc.mpich not found on the PATH."),
            new java.util.LinkedHashMap<>(Map.of("java notified-put", 71.5)));
    }

    private static Measurement fixed(final String impl, final String row, final long size, final double ns) {
        return new Measurement(impl, row, size, 100, ns, ns * 1.1, ns * 1.5, ns, ns * 0.9, ns * 2);
    }

    @Test
    void shouldPutRma4jBesideTheFloorsAndOpenMpiWithRatios() {
        final String md = ReportWriter.markdown(sample(), List.of("x-latency.png"));
        assertTrue(md.contains("load average (1 min): 0.50 at the start, 0.70 at the end"), md);
        // notified-put 400 ns: / Java floor 200 = 2.00, / C11 floor 100 = 4.00, / Open MPI put-flush-flag 800 = 0.50
        assertTrue(md.contains("| notified-put † | 8 B | 400 | 200 | 100 | 800 | — | 2.00 | 4.00 | 0.50 |"), md);
        assertTrue(md.contains("| put-flush-flag | 1 KiB | 300 | 200 | 100 | 800 | — | 1.50 | 3.00 | 0.38 |"), md);
        assertTrue(md.contains("| send-recv | 8 B | — | 200 | 100 | 1 000 | — | — | — | — |"), md);
        assertTrue(md.contains("| fetch-and-op | 20.0 / 30.0 | 40.0 / 60.0 | — | 0.50 |"), md);
        assertTrue(md.contains("| 1 KiB | 10.00 | 20.00 | — | — | — | 0.50 |"), md);
        assertTrue(md.contains("![x-latency.png](x-latency.png)"), md);
        assertTrue(md.contains("- MPICH columns skipped"), md);
        assertTrue(md.contains("| java notified-put | 71.5 |"), md);
        assertTrue(md.contains("| rma4j | notified-put | 8 B | 400 | 440 | 600 | 400 | 100 |"), md);
    }

    @Test
    void shouldRoundTripResultsThroughJson() {
        final Results results = sample();
        final Path file = directory.resolve("r.json");
        results.write(file);
        final Results read = Results.read(file);
        assertEquals(results, read);
    }

    @Test
    void shouldWritePngPlots() throws IOException {
        final List<String> written = Plots.write(sample(), directory, "t");
        assertEquals(List.of("t-latency.png", "t-bandwidth.png"), written);
        for (final String name : written) {
            final byte[] head = Arrays.copyOf(Files.readAllBytes(directory.resolve(name)), PNG_SIGNATURE.length);
            assertArrayEquals(PNG_SIGNATURE, head, name + " is not a PNG");
        }
    }

    @Test
    void shouldSkipPlotsWithoutData() {
        final Results empty = new Results(sample().info(), List.of(), List.of(), Map.of());
        assertEquals(List.of(), Plots.write(empty, directory, "e"));
    }

    @Test
    void shouldFormatSizesAndNanoseconds() {
        assertEquals("8 B", ReportWriter.size(8));
        assertEquals("64 KiB", ReportWriter.size(65536));
        assertEquals("1 MiB", ReportWriter.size(1 << 20));
        assertEquals("12.5", ReportWriter.ns(12.46));
        assertEquals("1 235", ReportWriter.ns(1234.5));
    }
}
