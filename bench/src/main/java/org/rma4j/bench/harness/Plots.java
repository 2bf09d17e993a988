package org.rma4j.bench.harness;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.rma4j.examples.notified.Sync;

/**
 * Plots of a harness run with XChart, as PNG, each with a title and a subtitle naming the machine and
 * how many ranks shared how many cores:
 *
 * <ul>
 *   <li>{@code -latency-ratio}: one panel per synchronization scheme, each implementation's median half
 *   round trip divided by the reference's at the same size (Open MPI's of the same scheme; the C11
 *   floor's when Open MPI did not run), with the 1.0 line: below it, faster than the reference.</li>
 *   <li>{@code -latency}: median half round trip against payload size (log-log).</li>
 *   <li>{@code -bandwidth}: bandwidth against size.</li>
 *   <li>{@code -app-<id>}: per application the median throughput against problem size, one line per
 *   variant and rank count (as the Notified Access paper's figures plot throughput per variant).</li>
 *   <li>the plots of the cost parameters, the applications against Open MPI, the sweep and the loaded
 *   section: {@link SectionPlots}.</li>
 * </ul>
 *
 * Colours come from the Okabe-Ito palette (distinguishable with the common colour-vision deficiencies),
 * always the same colour per implementation (per variant in the application plots), and every series
 * also has its own marker, so the plots read in grey too. Size axes are labelled in bytes (8 B, 1 KiB,
 * 1 MiB): the axis carries log2 of the size.
 */
public final class Plots {
    static final int WIDTH = 1200;
    static final int HEIGHT = 650;
    static final int PANEL_WIDTH = 600;
    static final int PANEL_HEIGHT = 480;
    private static final int PANEL_COLUMNS = 3;
    private static final int HEADER_HEIGHT = 72;

    /** The Okabe-Ito palette (Okabe and Ito, "Color Universal Design", 2008), black first. */
    static final List<Color> OKABE_ITO = List.of(new Color(0x000000), new Color(0xE69F00), new Color(0x56B4E9),
        new Color(0x009E73), new Color(0xF0E442), new Color(0x0072B2), new Color(0xD55E00), new Color(0xCC79A7));

    /** Colour of each implementation, the same in every plot. */
    static final Map<String, Color> IMPL_COLORS = Map.of(Rows.RMA4J, OKABE_ITO.get(6), Rows.OPENMPI, OKABE_ITO.get(5),
        Rows.MPICH, OKABE_ITO.get(3), Rows.C11, OKABE_ITO.get(0), Rows.JAVA_FFM, OKABE_ITO.get(2));

    /** Marker of each synchronization scheme (row), the same in every plot. */
    static final Map<String, Marker> ROW_MARKERS = Map.of("floor", SeriesMarkers.CIRCLE, "notified-put",
        SeriesMarkers.DIAMOND, "put-flush-flag", SeriesMarkers.SQUARE, "send-recv", SeriesMarkers.TRIANGLE_UP, "pscw",
        SeriesMarkers.TRIANGLE_DOWN, "fence", SeriesMarkers.CROSS, "put-bw", SeriesMarkers.SQUARE, "memcpy-bw",
        SeriesMarkers.CIRCLE);

    /** Series of the latency plot: (implementation, row, legend). */
    static final List<String[]> LATENCY_SERIES = List.of(new String[] {Rows.C11, "floor", "C11 floor"},
        new String[] {Rows.JAVA_FFM, "floor", "Java FFM floor"},
        new String[] {Rows.RMA4J, "notified-put", "rma4j notified put"},
        new String[] {Rows.RMA4J, "put-flush-flag", "rma4j put+flush+flag"},
        new String[] {Rows.RMA4J, "send-recv", "rma4j send/recv"}, new String[] {Rows.RMA4J, "pscw", "rma4j PSCW"},
        new String[] {Rows.RMA4J, "fence", "rma4j fence"},
        new String[] {Rows.OPENMPI, "put-flush-flag", "Open MPI put+flush+flag"},
        new String[] {Rows.OPENMPI, "send-recv", "Open MPI send/recv"},
        new String[] {Rows.OPENMPI, "pscw", "Open MPI PSCW"}, new String[] {Rows.OPENMPI, "fence", "Open MPI fence"},
        new String[] {Rows.MPICH, "send-recv", "MPICH send/recv"},
        new String[] {Rows.MPICH, "put-flush-flag", "MPICH put+flush+flag"});

    static final List<String[]> BANDWIDTH_SERIES = List.of(new String[] {Rows.RMA4J, "put-bw", "rma4j put"},
        new String[] {Rows.JAVA_FFM, "memcpy-bw", "Java MemorySegment.copy"},
        new String[] {Rows.C11, "memcpy-bw", "C memcpy"}, new String[] {Rows.OPENMPI, "put-bw", "Open MPI put"},
        new String[] {Rows.MPICH, "put-bw", "MPICH put"});

    /**
     * The panels of the ratio plot: (title, row of the reference, then pairs of (implementation, row)).
     * The notified put has no MPI-3 counterpart; its panel compares it with Open MPI's two ways of sending
     * data with a notification, put + flush + flag and send / recv.
     */
    static final List<Panel> RATIO_PANELS = List.of(
        new Panel("notified put", "notified-put", "put-flush-flag",
            List.<String[]>of(
                new String[] {Rows.RMA4J, "notified-put", "rma4j notified put ÷ Open MPI put+flush+flag"})),
        new Panel("put + flush + flag", "put-flush-flag", "put-flush-flag",
            List.of(new String[] {Rows.RMA4J, "put-flush-flag", "rma4j"},
                new String[] {Rows.MPICH, "put-flush-flag", "MPICH"})),
        new Panel("send / recv", "send-recv", "send-recv",
            List.of(new String[] {Rows.RMA4J, "send-recv", "rma4j"}, new String[] {Rows.MPICH, "send-recv", "MPICH"},
                new String[] {Rows.RMA4J, "notified-put", "rma4j notified put ÷ Open MPI send/recv"})),
        new Panel("PSCW", "pscw", "pscw",
            List.of(new String[] {Rows.RMA4J, "pscw", "rma4j"}, new String[] {Rows.MPICH, "pscw", "MPICH"})),
        new Panel("fence", "fence", "fence",
            List.of(new String[] {Rows.RMA4J, "fence", "rma4j"}, new String[] {Rows.MPICH, "fence", "MPICH"})));

    /** Name of the 1.0 line's series in every ratio panel. */
    static final String REFERENCE_SERIES = "1.0 = reference";

    /** The ranks of every latency and bandwidth job. */
    static final int LATENCY_RANKS = 2;

    /** What every application plot's file name has between the prefix and the application id. */
    static final String APPLICATION_INFIX = "-app-";

    /** Markers of the application variants, in {@link Sync} order. */
    private static final List<Marker> VARIANT_MARKERS = List.of(SeriesMarkers.DIAMOND, SeriesMarkers.SQUARE,
        SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.CROSS);

    static final BasicStroke DASHED = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
        new float[] {6f, 4f}, 0f);

    /**
     * One panel of the ratio plot.
     *
     * @param title        the synchronization scheme.
     * @param row          the scheme's row; against the floor a panel draws only this row.
     * @param referenceRow the reference's row (Open MPI's; ignored when the reference is the floor).
     * @param series       (implementation, row, legend) of each ratio drawn.
     */
    record Panel(String title, String row, String referenceRow, List<String[]> series) {
    }

    private Plots() {
    }

    /**
     * @return the plot of {@code plots} whose name ends in {@code ending}, or null.
     */
    static String ending(final List<String> plots, final String ending) {
        return plots.stream().filter(p -> p.endsWith(ending)).findFirst().orElse(null);
    }

    /**
     * @return whether {@code fileName} is a plot of the latency, operation and bandwidth part.
     */
    static boolean isLatencyPlot(final String fileName) {
        return !isApplicationPlot(fileName) && !fileName.endsWith(SectionPlots.COSTS)
            && !fileName.endsWith(SectionPlots.SWEEP) && !fileName.endsWith(SectionPlots.LOADED);
    }

    /**
     * @return whether {@code fileName} is one of the application plots.
     */
    static boolean isApplicationPlot(final String fileName) {
        return fileName.contains(APPLICATION_INFIX);
    }

    /**
     * Writes {@code <prefix>-latency-ratio.png}, {@code <prefix>-latency.png}, {@code <prefix>-bandwidth.png}
     * and {@code <prefix>-app-<id>.png} into {@code directory}.
     *
     * @return the file names written (plots without any series are not written).
     */
    public static List<String> write(final Results results, final Path directory, final String prefix) {
        System.setProperty("java.awt.headless", "true");
        final List<String> written = new ArrayList<>();
        final String latencySubtitle = subtitle(results.info(), List.of(LATENCY_RANKS));
        final List<XYChart> panels = ratioPanels(results);
        if (!panels.isEmpty()) {
            written.add(
                save(compose(panels, ratioTitle(results), latencySubtitle), directory, prefix + "-latency-ratio.png"));
        }
        final XYChart latency = sizeChart("payload size", "half round trip, median (ns)", true, WIDTH, HEIGHT);
        latency.getStyler().setYAxisDecimalPattern("#,##0");
        if (addSeries(latency, results, LATENCY_SERIES, false) > 0) {
            written.add(save(compose(List.of(latency), "Half round trip (median) vs payload size", latencySubtitle),
                directory, prefix + "-latency.png"));
        }
        final XYChart bandwidth = sizeChart("transfer size", "GB/s at the median time per transfer", false, WIDTH,
            HEIGHT);
        if (addSeries(bandwidth, results, BANDWIDTH_SERIES, true) > 0) {
            written.add(save(compose(List.of(bandwidth), "Bandwidth vs transfer size", latencySubtitle), directory,
                prefix + "-bandwidth.png"));
        }
        for (final Application app : Application.values()) {
            final List<AppMeasurement> ms = results.applications(app.id);
            if (!ms.isEmpty()) {
                final List<Integer> ranks = ms.stream().map(AppMeasurement::ranks).distinct().sorted().toList();
                written.add(
                    save(compose(List.of(application(app, ms)), app.title + ": throughput (median) vs problem size",
                        subtitle(results.info(), ranks)), directory, prefix + APPLICATION_INFIX + app.id + ".png"));
            }
        }
        written.addAll(SectionPlots.write(results, directory, prefix));
        return written;
    }

    /**
     * @return the machine, the ranks per core and the date of the run, e.g.
     *         {@code AMD EPYC, 2 CPUs, 24 GiB · 4 ranks on 2 cores · 2026-11-21}.
     */
    static String subtitle(final Results.RunInfo info, final List<Integer> ranks) {
        final List<String> parts = new ArrayList<>();
        parts.add(info.machine());
        final String rankCounts = ranks.size() == 1
            ? Integer.toString(ranks.get(0))
            : ranks.subList(0, ranks.size() - 1).stream().map(String::valueOf).collect(Collectors.joining(", "))
                + " and " + ranks.get(ranks.size() - 1);
        final String rankWord = ranks.size() == 1 && ranks.get(0) == 1 ? " rank" : " ranks";
        parts.add(info.cpus() > 0
            ? rankCounts + rankWord + " on " + info.cpus() + (info.cpus() == 1 ? " core" : " cores")
            : rankCounts + rankWord);
        if (info.date() != null && info.date().length() >= 10) {
            parts.add(info.date().substring(0, 10));
        }
        return String.join(" · ", parts);
    }

    /** @return whether Open MPI ran: the reference of the ratio plot; the C11 floor otherwise. */
    private static boolean openMpiIsReference(final Results results) {
        return results.measurements().stream().anyMatch(m -> m.impl().equals(Rows.OPENMPI));
    }

    private static String ratioTitle(final Results results) {
        return openMpiIsReference(results)
            ? "Half round trip ÷ Open MPI's of the same scheme (below 1.0: faster than Open MPI)"
            : "Half round trip ÷ the C11 floor's (shared memory, no synchronization library)";
    }

    /**
     * @return one chart per panel of {@link #RATIO_PANELS} that has data: y is the ratio (log axis), x the
     *         payload size; every chart has the {@link #REFERENCE_SERIES} line at 1.0.
     */
    static List<XYChart> ratioPanels(final Results results) {
        final boolean openMpi = openMpiIsReference(results);
        final List<XYChart> charts = new ArrayList<>();
        for (final Panel panel : RATIO_PANELS) {
            final XYChart chart = sizeChart("payload size",
                openMpi ? "time ÷ Open MPI's " + openMpiRowName(panel.referenceRow()) : "time ÷ C11 floor's", true,
                PANEL_WIDTH, PANEL_HEIGHT);
            chart.setTitle(panel.title());
            chart.getStyler().setYAxisDecimalPattern("#,##0.##");
            chart.getStyler().setChartTitleVisible(true);
            chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
            chart.getStyler().setYAxisLogarithmicDecadeOnly(false);
            double minX = Double.MAX_VALUE;
            double maxX = -Double.MAX_VALUE;
            for (final String[] s : panel.series()) {
                if (!openMpi && !s[1].equals(panel.row())) {
                    continue;
                }
                final String referenceImpl = openMpi ? Rows.OPENMPI : Rows.C11;
                final String referenceRow = openMpi ? openMpiReferenceRow(panel, s) : "floor";
                final List<double[]> points = new ArrayList<>();
                results.measurements().stream().filter(m -> m.impl().equals(s[0]) && m.row().equals(s[1]))
                    .sorted(Comparator.comparingLong(Measurement::sizeBytes))
                    .forEach(m -> results.find(referenceImpl, referenceRow, m.sizeBytes()).filter(r -> r.p50Ns() > 0)
                        .ifPresent(r -> points.add(new double[] {log2(m.sizeBytes()), m.p50Ns() / r.p50Ns()})));
                if (points.isEmpty()) {
                    continue;
                }
                final String legend = openMpi ? s[2] : ratioLegendAgainstFloor(s);
                final XYSeries line = chart.addSeries(legend, points.stream().mapToDouble(p -> p[0]).toArray(),
                    points.stream().mapToDouble(p -> p[1]).toArray());
                style(line, s[0], s[1]);
                minX = Math.min(minX, points.get(0)[0]);
                maxX = Math.max(maxX, points.get(points.size() - 1)[0]);
            }
            if (chart.getSeriesMap().isEmpty()) {
                continue;
            }
            final XYSeries one = chart.addSeries(REFERENCE_SERIES, new double[] {minX, maxX}, new double[] {1, 1});
            one.setMarker(SeriesMarkers.NONE);
            one.setLineColor(Color.DARK_GRAY);
            one.setLineStyle(DASHED);
            charts.add(chart);
        }
        return charts;
    }

    /** The row of Open MPI that {@code s} is divided by: a notified put's own comparison, else the panel's. */
    private static String openMpiReferenceRow(final Panel panel, final String[] s) {
        return s[1].equals("notified-put") ? panel.referenceRow() : s[1];
    }

    private static String openMpiRowName(final String row) {
        return LATENCY_SERIES.stream().filter(s -> s[0].equals(Rows.OPENMPI) && s[1].equals(row)).findFirst()
            .map(s -> s[2].substring("Open MPI ".length())).orElse(row);
    }

    private static String ratioLegendAgainstFloor(final String[] s) {
        final String implName = s[0].equals(Rows.RMA4J) ? "rma4j" : s[0].equals(Rows.MPICH) ? "MPICH" : s[0];
        final Optional<String[]> known = LATENCY_SERIES.stream().filter(l -> l[0].equals(s[0]) && l[1].equals(s[1]))
            .findFirst();
        return known.map(l -> l[2]).orElse(implName + " " + s[1]);
    }

    /**
     * @return the chart of one application: median throughput against problem size, a line per variant
     *         and rank count; the largest rank count solid, the others dashed. The x axis is logarithmic
     *         when the sizes span more than a factor of 20 (a log axis labels only powers of ten).
     */
    private static XYChart application(final Application app, final List<AppMeasurement> ms) {
        final XYChart chart = chart(app.xAxis, app.unit, false, WIDTH, HEIGHT);
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
                final Color color = variantColor(sync);
                line.setLineColor(color);
                line.setMarkerColor(color);
                line.setMarker(VARIANT_MARKERS.get(sync.ordinal() % VARIANT_MARKERS.size()));
                if (ranks != maxRanks) {
                    line.setLineStyle(DASHED);
                }
            }
        }
        return chart;
    }

    /** @return the colour of an application variant: rma4j's for notified, then the palette in order. */
    static Color variantColor(final Sync sync) {
        return switch (sync) {
            case NOTIFIED -> IMPL_COLORS.get(Rows.RMA4J);
            case PUT_FLUSH -> OKABE_ITO.get(1);
            case SEND_RECV -> OKABE_ITO.get(5);
            case PSCW -> OKABE_ITO.get(3);
            case FENCE -> OKABE_ITO.get(7);
        };
    }

    /**
     * @return {@code bytes} as a size label: {@code 8 B}, {@code 1 KiB}, {@code 64 KiB}, {@code 1 MiB},
     *         {@code 1.5 KiB}.
     */
    static String bytes(final double bytes) {
        final String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        final String number = value == Math.rint(value)
            ? Long.toString((long)value)
            : String.format(java.util.Locale.ROOT, "%.3g", value).replaceFirst("\\.?0+$", "");
        return number + " " + units[unit];
    }

    /**
     * @return the tick label of an x axis that carries log2 of a size: the size in bytes at whole
     *         exponents, nothing between them.
     */
    static String log2SizeLabel(final double exponent) {
        final double rounded = Math.rint(exponent);
        return Math.abs(exponent - rounded) < 1e-9 && rounded >= 0 ? bytes(Math.pow(2, rounded)) : "";
    }

    private static double log2(final long value) {
        return Math.log(value) / Math.log(2);
    }

    /** A chart whose x axis is a size: log2 of the bytes, labelled in bytes. */
    static XYChart sizeChart(final String x, final String y, final boolean logY, final int width, final int height) {
        final XYChart chart = chart(x, y, logY, width, height);
        chart.getStyler().setXAxisLogarithmic(false).setxAxisTickLabelsFormattingFunction(Plots::log2SizeLabel)
            .setXAxisTickMarkSpacingHint(60);
        return chart;
    }

    static XYChart chart(final String x, final String y, final boolean logY, final int width, final int height) {
        final XYChart chart = new XYChartBuilder().width(width).height(height).xAxisTitle(x).yAxisTitle(y).build();
        final XYStyler styler = chart.getStyler();
        styler.setXAxisLogarithmic(true);
        styler.setYAxisLogarithmic(logY);
        styler.setPlotGridLinesColor(new Color(0xDDDDDD));
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setMarkerSize(8);
        styler.setChartTitleVisible(false);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setLegendBorderColor(Color.LIGHT_GRAY);
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
            final double[] x = points.stream().mapToDouble(m -> log2(m.sizeBytes())).toArray();
            final double[] y = points.stream().mapToDouble(m -> bandwidth ? m.gbPerSecond() : m.p50Ns()).toArray();
            style(chart.addSeries(s[2], x, y), s[0], s[1]);
            added++;
        }
        return added;
    }

    /** Colour by implementation, marker by scheme; the MPI libraries' lines dashed. */
    private static void style(final XYSeries line, final String impl, final String row) {
        final Color color = IMPL_COLORS.getOrDefault(impl, Color.GRAY);
        line.setLineColor(color);
        line.setMarkerColor(color);
        line.setMarker(ROW_MARKERS.getOrDefault(row, SeriesMarkers.CIRCLE));
        if (impl.equals(Rows.MPICH) || impl.equals(Rows.OPENMPI)) {
            line.setLineStyle(DASHED);
        }
    }

    /** The charts side by side ({@link #PANEL_COLUMNS} a row when several) under a title and a subtitle. */
    static BufferedImage compose(final List<XYChart> charts, final String title, final String subtitle) {
        final int columns = Math.min(charts.size(), PANEL_COLUMNS);
        final int rows = (charts.size() + columns - 1) / columns;
        final int cellWidth = charts.stream().mapToInt(XYChart::getWidth).max().orElse(WIDTH);
        final int cellHeight = charts.stream().mapToInt(XYChart::getHeight).max().orElse(HEIGHT);
        final BufferedImage image = new BufferedImage(columns * cellWidth, HEADER_HEIGHT + rows * cellHeight,
            BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, image.getWidth(), image.getHeight());
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 20));
            g.drawString(title, 16, 30);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 15));
            g.setColor(Color.DARK_GRAY);
            g.drawString(subtitle, 16, 56);
            for (int i = 0; i < charts.size(); i++) {
                g.drawImage(BitmapEncoder.getBufferedImage(charts.get(i)), (i % columns) * cellWidth,
                    HEADER_HEIGHT + (i / columns) * cellHeight, null);
            }
        } finally {
            g.dispose();
        }
        return image;
    }

    static String save(final BufferedImage image, final Path directory, final String name) {
        try {
            if (!ImageIO.write(image, "png", directory.resolve(name).toFile())) {
                throw new IOException("no PNG writer");
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + directory.resolve(name), e);
        }
        return name;
    }
}
