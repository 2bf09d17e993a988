package org.rma4j.bench.harness;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.rma4j.examples.notified.Sync;

/**
 * Plots of a harness run with XChart, as PNG: median half round trip against payload size (log-log),
 * bandwidth against size, and per application the median throughput against problem size, one line
 * per variant and rank count (as the Notified Access paper's figures plot throughput per variant).
 */
public final class Plots {
    private static final int WIDTH = 1200;
    private static final int HEIGHT = 650;

    /** Series of the latency plot: (implementation, row, legend). */
    static final List<String[]> LATENCY_SERIES = List.of(
        new String[] {Rows.C11, "floor", "C11 floor"},
        new String[] {Rows.JAVA_FFM, "floor", "Java FFM floor"},
        new String[] {Rows.RMA4J, "notified-put", "rma4j notified put"},
        new String[] {Rows.RMA4J, "put-flush-flag", "rma4j put+flush+flag"},
        new String[] {Rows.RMA4J, "send-recv", "rma4j send/recv"},
        new String[] {Rows.RMA4J, "pscw", "rma4j PSCW"},
        new String[] {Rows.RMA4J, "fence", "rma4j fence"},
        new String[] {Rows.OPENMPI, "put-flush-flag", "Open MPI put+flush+flag"},
        new String[] {Rows.OPENMPI, "send-recv", "Open MPI send/recv"},
        new String[] {Rows.OPENMPI, "pscw", "Open MPI PSCW"},
        new String[] {Rows.OPENMPI, "fence", "Open MPI fence"},
        new String[] {Rows.MPICH, "send-recv", "MPICH send/recv"},
        new String[] {Rows.MPICH, "put-flush-flag", "MPICH put+flush+flag"});

    static final List<String[]> BANDWIDTH_SERIES = List.of(
        new String[] {Rows.RMA4J, "put-bw", "rma4j put"},
        new String[] {Rows.JAVA_FFM, "memcpy-bw", "Java MemorySegment.copy"},
        new String[] {Rows.C11, "memcpy-bw", "C memcpy"},
        new String[] {Rows.OPENMPI, "put-bw", "Open MPI put"},
        new String[] {Rows.MPICH, "put-bw", "MPICH put"});

    /** Line colour of each application variant, the same in every application plot. */
    static final Map<String, Color> VARIANT_COLORS = Map.of(
        Sync.NOTIFIED.label(), new Color(0xD62728),
        Sync.PUT_FLUSH.label(), new Color(0xFF7F0E),
        Sync.SEND_RECV.label(), new Color(0x1F77B4),
        Sync.PSCW.label(), new Color(0x2CA02C),
        Sync.FENCE.label(), new Color(0x9467BD));

    /** What every application plot's file name has between the prefix and the application id. */
    static final String APPLICATION_INFIX = "-app-";

    private Plots() {
    }

    /**
     * @return whether {@code fileName} is one of the application plots.
     */
    static boolean isApplicationPlot(final String fileName) {
        return fileName.contains(APPLICATION_INFIX);
    }

    /**
     * Writes {@code <prefix>-latency.png} and {@code <prefix>-bandwidth.png} into {@code directory}.
     *
     * @return the file names written (charts without any series are not written).
     */
    public static List<String> write(final Results results, final Path directory, final String prefix) {
        System.setProperty("java.awt.headless", "true");
        final List<String> written = new ArrayList<>();
        final XYChart latency = chart("Half round trip (median) vs payload size", "payload size (bytes)",
            "half round trip (ns)", true);
        if (addSeries(latency, results, LATENCY_SERIES, false) > 0) {
            written.add(save(latency, directory, prefix + "-latency.png"));
        }
        final XYChart bandwidth = chart("Bandwidth (at the median time per transfer) vs size", "transfer size (bytes)",
            "GB/s", false);
        if (addSeries(bandwidth, results, BANDWIDTH_SERIES, true) > 0) {
            written.add(save(bandwidth, directory, prefix + "-bandwidth.png"));
        }
        for (final Application app : Application.values()) {
            final List<AppMeasurement> ms = results.applications(app.id);
            if (!ms.isEmpty()) {
                written.add(save(application(app, ms), directory, prefix + APPLICATION_INFIX + app.id + ".png"));
            }
        }
        return written;
    }

    /**
     * @return the chart of one application: median throughput against problem size, a line per variant
     *         and rank count; the largest rank count solid, the others dashed. The x axis is logarithmic
     *         when the sizes span more than a factor of 20 (a log axis labels only powers of ten).
     */
    private static XYChart application(final Application app, final List<AppMeasurement> ms) {
        final XYChart chart = chart(app.title + ": throughput (median) vs problem size", app.xAxis, app.unit, false);
        final double minX = ms.stream().mapToDouble(m -> app.plotX(m.size(), m.work())).min().orElse(1);
        final double maxX = ms.stream().mapToDouble(m -> app.plotX(m.size(), m.work())).max().orElse(1);
        chart.getStyler().setXAxisLogarithmic(maxX > 20 * minX).setYAxisDecimalPattern("#,##0.###")
            .setXAxisDecimalPattern("#,##0");
        final int maxRanks = ms.stream().mapToInt(AppMeasurement::ranks).max().orElse(0);
        final List<Integer> rankCounts = ms.stream().map(AppMeasurement::ranks).distinct().sorted().toList();
        for (final Sync sync : app.variants) {
            for (final int ranks : rankCounts) {
                final List<AppMeasurement> points = ms.stream()
                    .filter(m -> m.variant().equals(sync.label()) && m.ranks() == ranks)
                    .sorted(Comparator.comparingDouble(m -> app.plotX(m.size(), m.work()))).toList();
                if (points.isEmpty()) {
                    continue;
                }
                final XYSeries line = chart.addSeries(sync.label() + ", " + ranks + " ranks",
                    points.stream().mapToDouble(m -> app.plotX(m.size(), m.work())).toArray(),
                    points.stream().mapToDouble(AppMeasurement::medianThroughput).toArray());
                final Color color = VARIANT_COLORS.getOrDefault(sync.label(), Color.GRAY);
                line.setLineColor(color);
                line.setMarkerColor(color);
                line.setMarker(ranks == maxRanks ? SeriesMarkers.CIRCLE : SeriesMarkers.SQUARE);
                if (ranks != maxRanks) {
                    line.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
                        new float[] {6f, 4f}, 0f));
                }
            }
        }
        return chart;
    }

    private static XYChart chart(final String title, final String x, final String y, final boolean logY) {
        final XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(x)
            .yAxisTitle(y).build();
        chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(logY)
            .setLegendPosition(Styler.LegendPosition.OutsideE).setMarkerSize(7)
            .setChartBackgroundColor(java.awt.Color.WHITE);
        return chart;
    }

    private static int addSeries(final XYChart chart, final Results results, final List<String[]> series,
        final boolean bandwidth) {
        int added = 0;
        for (final String[] s : series) {
            final List<Measurement> points = results.measurements().stream()
                .filter(m -> m.impl().equals(s[0]) && m.row().equals(s[1]))
                .sorted(Comparator.comparingLong(Measurement::sizeBytes)).toList();
            if (points.isEmpty()) {
                continue;
            }
            final double[] x = points.stream().mapToDouble(Measurement::sizeBytes).toArray();
            final double[] y = points.stream().mapToDouble(m -> bandwidth ? m.gbPerSecond() : m.p50Ns()).toArray();
            final XYSeries line = chart.addSeries(s[2], x, y);
            line.setMarker(SeriesMarkers.CIRCLE);
            if (s[0].equals(Rows.MPICH) || s[0].equals(Rows.OPENMPI)) {
                line.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
                    new float[] {6f, 4f}, 0f));
            }
            added++;
        }
        return added;
    }

    private static String save(final XYChart chart, final Path directory, final String name) {
        try {
            BitmapEncoder.saveBitmap(chart, directory.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + directory.resolve(name), e);
        }
        return name;
    }
}
