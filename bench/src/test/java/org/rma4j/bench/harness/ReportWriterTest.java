package org.rma4j.bench.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
        final List<AppMeasurement> applications = new ArrayList<>();
        for (final int ranks : List.of(2, 4)) {
            // stencil at 100x100, 3 passes: notified 0.2 GMOPS, putflush 0.4, sendrecv 0.1 (at 4 ranks half each)
            final double scale = ranks == 2 ? 1 : 0.5;
            applications.add(app("stencil", "notified", ranks, 100, 3, "100x100", "GMOPS", 0.2 * scale));
            applications.add(app("stencil", "putflush", ranks, 100, 3, "100x100", "GMOPS", 0.4 * scale));
            applications.add(app("stencil", "sendrecv", ranks, 100, 3, "100x100", "GMOPS", 0.1 * scale));
        }
        applications.add(app("tree-reduction", "notified", 2, 8, 50, "8 longs", "reductions/s", 20_000));
        applications.add(app("tree-reduction", "sendrecv", 2, 8, 50, "8 longs", "reductions/s", 25_000));
        applications.add(app("cholesky", "notified", 2, 4, 32, "4x4 tiles of 32 (N=128)", "GFLOP/s", 0.5));
        return new Results(
            new Results.RunInfo("2026-11-21T12:00:00Z", "test machine", "Java 25", 0.5, 0.7, "rma4j-bench --test",
                List.of(8L, 1024L), 100, 10, 5, Map.of("gcc", "/usr/bin/gcc"), "quick", 2, List.of()),
            measurements, List.of("MPICH columns skipped: mpicc.mpich not found on the PATH."),
            new java.util.LinkedHashMap<>(Map.of("java notified-put", 71.5)), applications);
    }

    /** Three repetitions around {@code median}: 0.9, 1 and 1.2 times it. */
    private static AppMeasurement app(final String app, final String variant, final int ranks, final int size,
        final int work, final String label, final String unit, final double median) {
        return new AppMeasurement(app, variant, ranks, size, work, label, unit,
            List.of(median * 0.9, median, median * 1.2), List.of(1e6 / median, 1e6 / median, 1e6 / median), true);
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
    void shouldTabulateApplicationsWithTheNotifiedVariantAgainstEveryOther() {
        final String md = ReportWriter.markdown(sample(), List.of("x-latency.png", "x-app-stencil.png"));
        assertTrue(md.contains("- profile: quick"), md);
        assertTrue(md.contains("## Applications"), md);
        assertTrue(md.contains("### Pipelined stencil (PRK Sync_p2p): GMOPS, 3 timed passes"), md);
        // variants in the program's order, then notified / sendrecv first among the ratios
        assertTrue(
            md.contains(
                "| ranks | size | notified | putflush | sendrecv | notified / sendrecv " + "| notified / putflush |"),
            md);
        assertTrue(md.contains("| 2 | 100x100 | 0.200 | 0.400 | 0.100 | 2.00 | 0.50 |"), md);
        assertTrue(md.contains("| 4 | 100x100 | 0.100 | 0.200 | 0.050 | 2.00 | 0.50 |"), md);
        assertTrue(md.contains("notified faster than sendrecv in 2 of 2 cells."), md);
        assertTrue(md.contains("| 2 | 8 longs | 20 000 | 25 000 | 0.80 |"), md);
        assertTrue(md.contains("notified faster than sendrecv in 0 of 1 cells."), md);
        assertTrue(md.contains("| 2 | 4x4 tiles of 32 (N=128) | 0.500 |"), md);
        assertTrue(md.contains(
            "| rma4j | stencil | notified | 2 | 100x100 | 0.200 | GMOPS | 0.180, 0.200, 0.240 | 0.200 | 5.0 ms "
                + "per pass | yes |"),
            md);
        assertTrue(md.contains("2 CPUs. Jobs of more ranks than CPUs (here up to 4)"), md);
        // the application plot goes into the applications section, after the tables
        assertTrue(md.indexOf("![x-app-stencil.png](x-app-stencil.png)") > md.indexOf("### Tile Cholesky"), md);
        assertTrue(md.indexOf("![x-latency.png](x-latency.png)") < md.indexOf("## Applications"), md);
    }

    @Test
    void shouldLeaveTheApplicationsSectionOutOfARunWithoutThem() {
        final Results sample = sample();
        final String md = ReportWriter.markdown(
            new Results(sample.info(), sample.measurements(), sample.notes(), sample.floorProbesNs()), List.of());
        assertFalse(md.contains("## Applications"), md);
    }

    @Test
    void shouldReadResultsWrittenBeforeApplicationsAndProfiles() throws IOException {
        final Path file = directory.resolve("old.json");
        sample().write(file);
        final ObjectMapper json = new ObjectMapper();
        final ObjectNode tree = (ObjectNode)json.readTree(file.toFile());
        tree.remove("applications");
        final ObjectNode info = (ObjectNode)tree.get("info");
        info.remove(List.of("profile", "cpus", "appJvmOptions"));
        json.writeValue(file.toFile(), tree);
        final Results read = Results.read(file);
        assertEquals(List.of(), read.applications());
        assertEquals(null, read.info().profile());
        assertEquals(List.of(), read.info().appJvmOptions());
        assertEquals(sample().measurements(), read.measurements());
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
        assertEquals(List.of("t-latency-ratio.png", "t-latency.png", "t-bandwidth.png", "t-app-stencil.png",
            "t-app-tree-reduction.png", "t-app-cholesky.png"), written);
        for (final String name : written) {
            final byte[] head = Arrays.copyOf(Files.readAllBytes(directory.resolve(name)), PNG_SIGNATURE.length);
            assertArrayEquals(PNG_SIGNATURE, head, name + " is not a PNG");
        }
    }

    @Test
    void shouldSkipPlotsWithoutData() {
        final Results empty = new Results(sample().info(), List.of(), List.of(), Map.of(), List.of());
        assertEquals(List.of(), Plots.write(empty, directory, "e"));
    }

    @Test
    void shouldFormatSizesAndNanoseconds() {
        assertEquals("8 B", ReportWriter.size(8));
        assertEquals("64 KiB", ReportWriter.size(65536));
        assertEquals("1 MiB", ReportWriter.size(1 << 20));
        assertEquals("12.5", ReportWriter.ns(12.46));
        assertEquals("1 235", ReportWriter.ns(1234.5));
        assertEquals("12 346", ReportWriter.throughput(12_345.6));
        assertEquals("45.6", ReportWriter.throughput(45.61));
        assertEquals("1.23", ReportWriter.throughput(1.234));
        assertEquals("0.075", ReportWriter.throughput(0.0751));
        assertEquals("0.0012", ReportWriter.throughput(0.00123));
        assertEquals("850 ns", ReportWriter.duration(850));
        assertEquals("12.3 us", ReportWriter.duration(12_340));
        assertEquals("45.6 ms", ReportWriter.duration(45.6e6));
        assertEquals("1.23 s", ReportWriter.duration(1.234e9));
    }
}
