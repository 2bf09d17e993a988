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
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

/**
 * The report's and the plots' cost parameters, applications against Open MPI, sweep and loaded sections, from
 * fixed results; the best-of-rounds rule of the applications; the JSON of files from before these sections.
 */
class SectionsTest {
    private static final byte[] PNG_SIGNATURE = {(byte)0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    Path directory;

    /** {@link ReportWriterTest#sample()} with cost rows, Open MPI's applications, a sweep and loaded ping-pongs. */
    static Results sample() {
        final Results base = ReportWriterTest.sample();
        final List<Measurement> measurements = new ArrayList<>(base.measurements());
        measurements.add(fixed("t-init", 8, 140));
        measurements.add(fixed("t-free", 8, 20));
        measurements.add(fixed("t-start", 8, 16));
        measurements.add(fixed("t-start-first", 8, 40));
        measurements.add(fixed("t-na", 8, 58));
        measurements.add(fixed("start-await-arrived", 8, 51));
        measurements.add(fixed("na-half-round-trip", 0, 500));
        measurements.add(fixed("na-half-round-trip", 65536, 5_000));
        measurements.add(fixed("na-half-round-trip", 1048576, 83_643.2));
        final List<AppMeasurement> applications = new ArrayList<>(base.applications());
        // Open MPI's stencil at 2 ranks: sendrecv 0.4 GMOPS, putflush 0.8 (rma4j notified 0.2, putflush 0.4)
        applications.add(openMpi("stencil", "sendrecv", 2, 0.4));
        applications.add(openMpi("stencil", "putflush", 2, 0.8));
        final List<SweepMeasurement> sweeps = List.of(
            new SweepMeasurement(Rows.OPENMPI, "fan-in-sendrecv", 2, List.of(60.0, 50.0, 70.0)),
            new SweepMeasurement(Rows.RMA4J, "fan-in-notified", 2, List.of(400.0, 500.0, 450.0)),
            new SweepMeasurement(Rows.RMA4J, "fan-in-notified-batch", 2, List.of(100.0, 100.0, 100.0)),
            new SweepMeasurement(Rows.OPENMPI, "fence", 2, List.of(500.0, 500.0, 500.0)),
            new SweepMeasurement(Rows.RMA4J, "fence", 2, List.of(600.0, 650.0, 700.0)),
            new SweepMeasurement(Rows.OPENMPI, "fan-in-sendrecv", 8, List.of(100.0, 100.0, 100.0)),
            new SweepMeasurement(Rows.RMA4J, "fan-in-notified", 8, List.of(300.0, 300.0, 300.0)),
            new SweepMeasurement(Rows.OPENMPI, "fence", 8, List.of(10_000.0, 10_000.0, 10_000.0)),
            new SweepMeasurement(Rows.RMA4J, "fence", 8, List.of(30_000.0, 30_000.0, 30_000.0)));
        final List<LoadedMeasurement> loaded = List.of(
            new LoadedMeasurement(Rows.RMA4J, "send-recv", 8, 0, 500, 500, 100),
            new LoadedMeasurement(Rows.RMA4J, "notified-put", 8, 0, 200, 200, 100),
            new LoadedMeasurement(Rows.OPENMPI, "send-recv", 8, 0, 250, 250, 100),
            new LoadedMeasurement(Rows.RMA4J, "send-recv", 8, 4, 1_840_000, 1_840_000, 100),
            new LoadedMeasurement(Rows.RMA4J, "notified-put", 8, 4, 400, 90_000, 100),
            new LoadedMeasurement(Rows.OPENMPI, "send-recv", 8, 4, 280, 6_000, 100));
        final Results.RunInfo i = base.info();
        final Results.RunInfo info = new Results.RunInfo(i.date(), i.machine(), i.javaVersion(), i.loadBefore(),
            i.loadAfter(), i.command(), i.sizes(), i.iterations(), i.warmup(), i.bwSamples(), i.tools(), i.profile(),
            i.cpus(), i.appJvmOptions(), 2, 20_000, 2_000, 3, 4, 100, 3_000);
        return new Results(info, measurements, base.notes(), base.floorProbesNs(), applications, sweeps, loaded);
    }

    private static Measurement fixed(final String row, final long size, final double ns) {
        return new Measurement(Rows.RMA4J, row, size, 100, ns, ns, ns, ns, ns, ns);
    }

    private static AppMeasurement openMpi(final String app, final String variant, final int ranks,
        final double median) {
        return new AppMeasurement(app, variant, ranks, 100, 3, "100x100", "GMOPS", List.of(median, median, median),
            List.of(1.0, 1.0, 1.0), true, Rows.OPENMPI, null);
    }

    @Test
    void shouldDeriveTheCostParametersFromTheirRows() {
        final List<OptionalDouble> values = CostReport.values(sample());
        assertEquals(140, values.get(0).getAsDouble());
        assertEquals(20, values.get(1).getAsDouble());
        assertEquals(16, values.get(2).getAsDouble());
        assertEquals(58, values.get(3).getAsDouble());
        assertEquals(35, values.get(4).getAsDouble(), "o_r = start + await of an arrived notification - t_start");
        assertEquals(500, values.get(5).getAsDouble(), "L: the half round trip at the smallest size");
        assertEquals(0.08, values.get(6).getAsDouble(), 1e-12);
        assertEquals(40, values.get(7).getAsDouble(), "a request's first start, apart from t_start");
        final String md = ReportWriter.markdown(sample(), List.of("x-costs.png"));
        assertTrue(md.contains("## Cost parameters of Notified Access"), md);
        assertTrue(md.contains("| t_init | notifyInit (MPI_Notify_init) | 140 ns | 70.0 ns | 2.00 |"), md);
        assertTrue(md.contains("| o_r | receive overhead, one request in the queue | 35.0 ns | 70.0 ns | 0.50 |"), md);
        assertTrue(md.contains("| t_start, first | first start of a request (no value in the paper) | 40.0 ns | "
            + ReportWriter.NONE + " | " + ReportWriter.NONE + " |"), md);
        assertTrue(
            md.contains(
                "| G | time per byte of payload (Table I, shared memory) | 0.0800 ns/B | 0.0800 ns/B " + "| 1.00 |"),
            md);
        assertTrue(md.indexOf("![x-costs.png](x-costs.png)") > md.indexOf("## Cost parameters"), md);
        assertTrue(md.indexOf("![x-costs.png](x-costs.png)") < md.indexOf("## Applications"), md);
    }

    @Test
    void shouldPutEveryRma4jVariantAgainstOpenMpisCPeer() {
        final String md = ReportWriter.markdown(sample(), List.of());
        // stencil at 2 ranks: notified 0.2 / 0.4 and / 0.8, putflush 0.4 / 0.4 and / 0.8, sendrecv 0.1
        assertTrue(md.contains("| ranks | size | Open MPI sendrecv | Open MPI putflush | rma4j notified ÷ Open MPI | "
            + "rma4j putflush ÷ Open MPI | rma4j sendrecv ÷ Open MPI |"), md);
        assertTrue(md.contains("| 2 | 100x100 | 0.400 | 0.800 | 0.50 / 0.25 | 1.00 / 0.50 | 0.25 / 0.13 |"), md);
        assertTrue(md.contains("| 4 | 100x100 | — | — | — / — | — / — | — / — |"), md);
        assertTrue(md.contains("| Open MPI | stencil | sendrecv | 2 | 100x100 | 0.400 | GMOPS |"), md);
        assertTrue(md.contains("Every cell is the best of 2 rounds"), md);
        final List<XYChart> panels = SectionPlots.appsVsOpenMpi(sample());
        assertEquals(List.of("Pipelined stencil (PRK Sync_p2p), 100x100"),
            panels.stream().map(XYChart::getTitle).toList());
        assertOneLine(panels.getFirst());
        // divided by Open MPI's faster variant, putflush 0.8
        assertEquals(List.of(0.25), y(panels.getFirst().getSeriesMap().get("rma4j notified")));
        assertEquals(List.of(1.0), x(panels.getFirst().getSeriesMap().get("rma4j notified")), "log2 of 2 ranks");
        assertEquals("8", panels.getFirst().getStyler().getxAxisTickLabelsFormattingFunction().apply(3.0));
    }

    @Test
    void shouldPutTheStencilAgainstEveryVariantOfItsCPeer() {
        final Results s = sample();
        final List<AppMeasurement> applications = new ArrayList<>(s.applications());
        // the stencil's C peer also runs pscw and fence: rma4j notified 0.2 over 0.4, 0.8, 0.1 and 0.05
        applications.add(openMpi("stencil", "pscw", 2, 0.1));
        applications.add(openMpi("stencil", "fence", 2, 0.05));
        final String md = ReportWriter.markdown(
            new Results(s.info(), s.measurements(), s.notes(), s.floorProbesNs(), applications, s.sweeps(), s.loaded()),
            List.of());
        assertTrue(md.contains("each rma4j variant's throughput ÷ Open MPI's sendrecv / putflush / pscw / fence"), md);
        assertTrue(
            md.contains("| ranks | size | Open MPI sendrecv | Open MPI putflush | Open MPI pscw | Open MPI fence | "
                + "rma4j notified ÷ Open MPI |"),
            md);
        assertTrue(md.contains("| 2 | 100x100 | 0.400 | 0.800 | 0.100 | 0.050 | 0.50 / 0.25 / 2.00 / 4.00 |"), md);
    }

    @Test
    void shouldTabulateTheSweepWithRatiosToOpenMpi() {
        final String md = ReportWriter.markdown(sample(), List.of("x-sweep.png"));
        assertTrue(md.contains("## Throughput and scale: fan-in, fence, barrier (median of 3 runs)"), md);
        assertTrue(md.contains("about 20 000 messages of 8 B per pass"), md);
        // Open MPI 60 ns per message = 16.67 M/s; rma4j notified 450 ns = 2.22 M/s = 0.13x
        assertTrue(md.contains("| Open MPI send / recv(ANY_SOURCE) | 16.67 M | 10.00 M |"), md);
        assertTrue(md.contains("| rma4j notified put, start + await per message | 2.22 M (0.13x) | 3.33 M (0.33x) |"),
            md);
        assertTrue(md.contains("| rma4j notified put, one request per 64 messages | 10.00 M (0.60x) | — |"), md);
        assertTrue(md.contains("| fence | 650 / 500 (1.30x) | 30 000 / 10 000 (3.00x) |"), md);
        assertTrue(md.contains("| barrier | — / — | — / — |"), md);
        assertTrue(md.contains("| rma4j | fence | 2 | 600, 650, 700 | 650 |"), md);
        final List<XYChart> panels = SectionPlots.sweep(sample());
        assertEquals(
            List.of("fan-in of 8 B messages to one consumer (above 1: rma4j faster)",
                "fence and barrier (below 1: rma4j faster)", "fan-in rates"),
            panels.stream().map(XYChart::getTitle).toList());
        assertOneLine(panels.get(0));
        assertOneLine(panels.get(1));
        final XYSeries notified = panels.get(0).getSeriesMap().get("rma4j notified put, start + await per message");
        assertEquals(List.of(1.0, 3.0), x(notified), "log2 of 2 and 8 ranks");
        assertEquals(60 / 450.0, y(notified).get(0), 1e-12);
        assertEquals(List.of(1.3, 3.0), y(panels.get(1).getSeriesMap().get("rma4j fence")));
    }

    @Test
    void shouldTabulateTheLoadedPingPongsWithRatiosToOpenMpi() {
        final String md = ReportWriter.markdown(sample(), List.of("x-loaded.png"));
        assertTrue(md.contains("## Ping-pong on a loaded machine (half round trip)"), md);
        assertTrue(md.contains("beside 4 CPU-bound processes"), md);
        assertTrue(md.contains("| 0 | 8 B | 500 ns | 200 ns | 250 ns | 2.00 | 0.80 | 500 ns | 200 ns | 250 ns |"), md);
        assertTrue(md.contains("| 4 | 8 B | 1.8 ms | 400 ns | 280 ns | 6 571 | 1.43 | 1.8 ms | 90.0 us | 6.0 us |"),
            md);
        assertTrue(md.indexOf("![x-loaded.png](x-loaded.png)") > md.indexOf("## Ping-pong on a loaded machine"), md);
        final List<XYChart> panels = SectionPlots.loaded(sample());
        assertEquals(List.of("8 B payload"), panels.stream().map(XYChart::getTitle).toList());
        assertOneLine(panels.getFirst());
        assertEquals(List.of(0.0, 4.0), x(panels.getFirst().getSeriesMap().get("rma4j send / recv")));
        assertEquals(List.of(2.0, 1_840_000 / 280.0), y(panels.getFirst().getSeriesMap().get("rma4j send / recv")));
    }

    @Test
    void shouldWriteEverySectionPlotAsPng() throws IOException {
        final List<String> written = Plots.write(sample(), directory, "t");
        for (final String name : List.of("t-costs.png", "t-app-vs-openmpi.png", "t-sweep.png", "t-loaded.png")) {
            assertTrue(written.contains(name), written.toString());
        }
        for (final String name : written) {
            final byte[] head = Arrays.copyOf(Files.readAllBytes(directory.resolve(name)), PNG_SIGNATURE.length);
            assertArrayEquals(PNG_SIGNATURE, head, name + " is not a PNG");
        }
        final XYChart costs = SectionPlots.costs(sample());
        assertOneLine(costs);
        assertEquals("t_init", costs.getStyler().getxAxisTickLabelsFormattingFunction().apply(0.0));
        assertEquals("G", costs.getStyler().getxAxisTickLabelsFormattingFunction().apply(6.0));
    }

    @Test
    void shouldDrawARankAxisWithOneLabelledTick() throws IOException {
        // 2 and 3 ranks: log2 from 1 to 1.58, one tick at a power of two
        final Results s = sample();
        final Results twoAndThree = new Results(s.info(), List.of(), List.of(), s.floorProbesNs(),
            List.of(openMpi("stencil", "sendrecv", 2, 0.4), openMpi("stencil", "sendrecv", 3, 0.3),
                s.applications().getFirst(),
                new AppMeasurement("stencil", "notified", 3, 100, 3, "100x100", "GMOPS", List.of(0.1), List.of(1.0),
                    true)),
            List.of(new SweepMeasurement(Rows.OPENMPI, "fence", 2, List.of(500.0)),
                new SweepMeasurement(Rows.RMA4J, "fence", 2, List.of(600.0)),
                new SweepMeasurement(Rows.OPENMPI, "fence", 3, List.of(900.0)),
                new SweepMeasurement(Rows.RMA4J, "fence", 3, List.of(1_000.0))),
            List.of());
        final List<String> written = SectionPlots.write(twoAndThree, directory, "r");
        assertEquals(List.of("r-app-vs-openmpi.png", "r-sweep.png"), written);
        final XYChart sweep = SectionPlots.sweep(twoAndThree).getFirst();
        assertEquals("2", sweep.getStyler().getxAxisTickLabelsFormattingFunction().apply(1.0));
        assertEquals(SectionPlots.NO_LABEL, sweep.getStyler().getxAxisTickLabelsFormattingFunction().apply(1.5));
    }

    @Test
    void shouldKeepTheRoundWithTheHighestMedianOfEachApplicationCell() {
        final AppMeasurement slow = new AppMeasurement("stencil", "notified", 2, 100, 3, "100x100", "GMOPS",
            List.of(0.1, 0.2, 0.3), List.of(1.0, 1.0, 1.0), true);
        final AppMeasurement fast = new AppMeasurement("stencil", "notified", 2, 100, 3, "100x100", "GMOPS",
            List.of(0.5, 0.6, 0.7), List.of(1.0, 1.0, 1.0), false);
        final AppMeasurement peer = slow.withImpl(Rows.OPENMPI);
        final List<AppMeasurement> best = AppMeasurement.bestOfRounds(List.of(slow, peer, fast));
        assertEquals(2, best.size());
        assertEquals(List.of(0.5, 0.6, 0.7), best.get(0).throughputs());
        assertEquals(List.of(0.2, 0.6), best.get(0).roundMedians());
        assertFalse(best.get(0).verified(), "a round with a wrong result makes the cell failed");
        assertEquals(Rows.OPENMPI, best.get(1).impl());
        assertEquals(List.of(0.2), best.get(1).roundMedians());
    }

    @Test
    void shouldKeepTheLowestMedianAndTheHighestMeanOfEachLoadedCell() {
        final LoadedMeasurement slow = new LoadedMeasurement(Rows.RMA4J, "send-recv", 8, 4, 421, 900_000, 1000);
        final LoadedMeasurement unloaded = new LoadedMeasurement(Rows.RMA4J, "send-recv", 8, 0, 150, 150, 1000);
        final LoadedMeasurement peer = new LoadedMeasurement(Rows.OPENMPI, "send-recv", 8, 4, 111, 111, 1000);
        final LoadedMeasurement notified = new LoadedMeasurement(Rows.RMA4J, "notified-put", 8, 4, 130, 130, 1000);
        final LoadedMeasurement fast = new LoadedMeasurement(Rows.RMA4J, "send-recv", 8, 4, 175, 175, 1000);
        final LoadedMeasurement slower = new LoadedMeasurement(Rows.RMA4J, "send-recv", 8, 4, 360, 360, 1000);
        final LoadedMeasurement fastWithTheSlowMean = new LoadedMeasurement(Rows.RMA4J, "send-recv", 8, 4, 175, 900_000,
            1000);
        assertEquals(List.of(fastWithTheSlowMean, unloaded, peer, notified),
            LoadedMeasurement.bestOfRounds(List.of(slow, unloaded, peer, notified, fast, slower)),
            "one per implementation, row, size and load, the lowest median with the highest mean, in the order first"
                + " measured");
    }

    @Test
    void shouldRoundTripAndReadFilesFromBeforeTheseSections() throws IOException {
        final Path file = directory.resolve("r.json");
        sample().write(file);
        assertEquals(sample(), Results.read(file));
        final ObjectMapper json = new ObjectMapper();
        final ObjectNode tree = (ObjectNode)json.readTree(file.toFile());
        tree.remove(List.of("sweeps", "loaded"));
        ((ObjectNode)tree.get("info")).remove(
            List.of("rounds", "sweepMessages", "sweepCalls", "sweepRuns", "backgroundLoad", "loadedIterations"));
        tree.withArray("applications").forEach(a -> ((ObjectNode)a).remove(List.of("impl", "roundMedians")));
        json.writeValue(file.toFile(), tree);
        final Results old = Results.read(file);
        assertEquals(List.of(), old.sweeps());
        assertEquals(List.of(), old.loaded());
        assertEquals(0, old.info().backgroundLoad());
        assertTrue(old.applications().stream().allMatch(a -> a.impl().equals(Rows.RMA4J)));
        assertEquals(List.of(0.2), old.applications().getFirst().roundMedians());
        final String md = ReportWriter.markdown(old, Plots.write(old, directory, "old"));
        assertFalse(md.contains("## Throughput and scale"), md);
        assertFalse(md.contains("## Ping-pong on a loaded machine"), md);
        assertFalse(md.contains("Every cell is the best of"), md);
    }

    @Test
    void shouldCompareTwoRunsCellByCell() {
        final Results a = sample();
        final List<AppMeasurement> moved = a.applications().stream()
            .map(m -> m.variant().equals("notified")
                ? new AppMeasurement(m.app(), m.variant(), m.ranks(), m.size(), m.work(), m.sizeLabel(), m.unit(),
                    m.throughputs().stream().map(t -> t * 1.3).toList(), m.timesNs(), true, m.impl(), null)
                : m)
            .toList();
        final Results b = new Results(a.info(), a.measurements(), a.notes(), a.floorProbesNs(), moved, a.sweeps(),
            a.loaded());
        final List<Compare.Cell> cells = Compare.applicationCells(a, b);
        assertEquals(a.applications().size(), cells.size());
        assertEquals(0.3, cells.getFirst().distance(), 1e-9);
        assertEquals(0.3, new Compare.Cell("x", 1.3, 1).distance(), 1e-9, "symmetric");
        final String md = Compare.markdown(a, b, "a.json", "b.json");
        // notified at stencil 2 and 4 ranks, tree reduction 2 ranks, Cholesky 2 ranks moved by 30 %
        assertTrue(md.contains((cells.size() - 4) + " of " + cells.size() + " cells agree"), md);
        assertTrue(md.contains("| rma4j stencil notified, 2 ranks, 100x100 | 0.200 | 0.260 | 30.0 % | no |"), md);
        assertTrue(md.contains("## Sweep (median ns per message or call)\n\n9 of 9 cells agree"), md);
    }

    private static void assertOneLine(final XYChart chart) {
        final XYSeries one = chart.getSeriesMap().get(Plots.REFERENCE_SERIES);
        assertTrue(one != null, chart.getTitle() + ": no 1.0 line in " + chart.getSeriesMap().keySet());
        assertTrue(Arrays.stream(one.getYData()).allMatch(v -> v == 1.0), chart.getTitle());
    }

    private static List<Double> x(final XYSeries series) {
        return Arrays.stream(series.getXData()).boxed().toList();
    }

    private static List<Double> y(final XYSeries series) {
        return Arrays.stream(series.getYData()).boxed().toList();
    }
}
