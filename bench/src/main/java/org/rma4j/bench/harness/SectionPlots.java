package org.rma4j.bench.harness;

import java.awt.Color;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.rma4j.examples.notified.Sync;

/**
 * The plots of the cost parameters, the applications against their C peers, the sweep and the loaded
 * section, each a ratio plot with the 1.0 line as {@link Plots}' latency-ratio plot, so that it reads without
 * the tables:
 *
 * <ul>
 *   <li>{@code -costs}: each cost parameter ÷ the Notified Access paper's value.</li>
 *   <li>{@code -app-vs-openmpi}: per application and problem size, each rma4j variant's throughput ÷ the
 *   faster of Open MPI's two C variants, against the rank count.</li>
 *   <li>{@code -sweep}: the fan-in rates ÷ Open MPI's send / recv, fence and barrier times ÷ Open MPI's,
 *   and the fan-in rates themselves, against the rank count.</li>
 *   <li>{@code -loaded}: per payload size, rma4j's half round trips ÷ Open MPI's send / recv, against the
 *   number of busy processes.</li>
 * </ul>
 */
final class SectionPlots {
    static final String COSTS = "-costs.png";
    static final String APPS_VS_OPENMPI = Plots.APPLICATION_INFIX + "vs-openmpi.png";
    static final String SWEEP = "-sweep.png";
    static final String LOADED = "-loaded.png";

    /**
     * The label of a tick between the labelled ones: a blank, since XChart 3.8.8 fails on an empty label when
     * the axis has a single labelled tick (two and three ranks, say).
     */
    static final String NO_LABEL = " ";

    private static final List<Marker> MARKERS = List.of(SeriesMarkers.DIAMOND, SeriesMarkers.SQUARE,
        SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.CROSS, SeriesMarkers.CIRCLE);

    private SectionPlots() {
    }

    /**
     * Writes every plot of this class that has data.
     *
     * @return the file names written.
     */
    static List<String> write(final Results results, final Path directory, final String prefix) {
        final List<String> written = new ArrayList<>();
        final XYChart costs = costs(results);
        if (costs != null) {
            written.add(Plots.save(Plots.compose(List.of(costs),
                "Notified Access cost parameters: rma4j ÷ the " + "paper's (below 1.0: cheaper than foMPI-NA, 2015)",
                Plots.subtitle(results.info(), List.of(2))), directory, prefix + COSTS));
        }
        final List<XYChart> apps = appsVsOpenMpi(results);
        if (!apps.isEmpty()) {
            written.add(Plots.save(
                Plots.compose(apps, "Applications: rma4j ÷ Open MPI's faster C variant (above " + "1.0: rma4j faster)",
                    Plots.subtitle(results.info(),
                        rankCounts(results.applications().stream().map(AppMeasurement::ranks).toList()))),
                directory, prefix + APPS_VS_OPENMPI));
        }
        final List<XYChart> sweep = sweep(results);
        if (!sweep.isEmpty()) {
            written.add(Plots.save(
                Plots.compose(sweep, "Throughput and scale: rma4j ÷ Open MPI 4.1.4, default " + "settings",
                    Plots.subtitle(results.info(),
                        rankCounts(results.sweeps().stream().map(SweepMeasurement::ranks).toList()))),
                directory, prefix + SWEEP));
        }
        final List<XYChart> loaded = loaded(results);
        if (!loaded.isEmpty()) {
            written
                .add(Plots.save(
                    Plots.compose(loaded,
                        "Ping-pong beside busy processes: rma4j ÷ Open MPI's "
                            + "send / recv (below 1.0: rma4j faster)",
                        Plots.subtitle(results.info(), List.of(2))),
                    directory, prefix + LOADED));
        }
        return written;
    }

    static XYChart costs(final Results results) {
        final List<Object[]> ratios = CostReport.ratios(results);
        if (ratios.isEmpty()) {
            return null;
        }
        final XYChart chart = Plots.chart("parameter", "rma4j ÷ paper", true, Plots.WIDTH, Plots.HEIGHT);
        chart.getStyler().setXAxisLogarithmic(false).setXAxisTickMarkSpacingHint(40).setYAxisDecimalPattern("#,##0.###")
            .setxAxisTickLabelsFormattingFunction(x -> {
                final double index = Math.rint(x);
                return Math.abs(x - index) < 1e-9 && index >= 0 && index < ratios.size()
                    ? (String)ratios.get((int)index)[0]
                    : NO_LABEL;
            });
        final double[] x = new double[ratios.size()];
        final double[] y = new double[ratios.size()];
        for (int i = 0; i < x.length; i++) {
            x[i] = i;
            y[i] = (double)ratios.get(i)[1];
        }
        final XYSeries series = chart.addSeries("rma4j ÷ paper", x, y);
        series.setXYSeriesRenderStyle(org.knowm.xchart.XYSeries.XYSeriesRenderStyle.Scatter);
        series.setMarker(SeriesMarkers.DIAMOND);
        series.setMarkerColor(Plots.IMPL_COLORS.get(Rows.RMA4J));
        oneLine(chart, 0, ratios.size() - 1);
        decades(chart);
        return chart;
    }

    static List<XYChart> appsVsOpenMpi(final Results results) {
        final List<XYChart> charts = new ArrayList<>();
        for (final Application app : Application.values()) {
            final List<AppMeasurement> rma = results.applications(Rows.RMA4J, app.id);
            if (results.applications(Rows.OPENMPI, app.id).isEmpty()) {
                continue;
            }
            final TreeSet<ApplicationReport.Problem> problems = new TreeSet<>(Comparator
                .comparingInt(ApplicationReport.Problem::size).thenComparingInt(ApplicationReport.Problem::work));
            problems.addAll(ApplicationReport.problems(rma));
            for (final ApplicationReport.Problem problem : problems) {
                final XYChart chart = ratioPanel(app.title + ", " + app.sizeLabel(problem.size(), problem.work()),
                    "ranks", "throughput ÷ Open MPI's faster variant");
                rankAxis(chart);
                int k = 0;
                for (final Sync sync : app.variants) {
                    final List<double[]> points = new ArrayList<>();
                    for (final AppMeasurement m : rma) {
                        if (m.variant().equals(sync.label()) && m.size() == problem.size()
                            && m.work() == problem.work()) {
                            bestPeer(results, m).ifPresent(
                                best -> points.add(new double[] {log2(m.ranks()), m.medianThroughput() / best}));
                        }
                    }
                    addLine(chart, "rma4j " + sync.label(), points, Plots.variantColor(sync), MARKERS.get(k++));
                }
                if (!chart.getSeriesMap().isEmpty()) {
                    finishRatioPanel(chart);
                    charts.add(chart);
                }
            }
        }
        return charts;
    }

    /** @return the higher median throughput of Open MPI's C variants in the cell of {@code m}. */
    private static Optional<Double> bestPeer(final Results results, final AppMeasurement m) {
        return results.applications(Rows.OPENMPI, m.app()).stream()
            .filter(p -> p.ranks() == m.ranks() && p.size() == m.size() && p.work() == m.work())
            .map(AppMeasurement::medianThroughput).filter(t -> t > 0).max(Double::compare);
    }

    static List<XYChart> sweep(final Results results) {
        final List<XYChart> charts = new ArrayList<>();
        final XYChart fanIn = ratioPanel("fan-in of 8 B messages to one consumer (above 1: rma4j faster)", "ranks",
            "rate ÷ Open MPI's send / recv(ANY_SOURCE)");
        rankAxis(fanIn);
        final XYChart rates = Plots.chart("ranks", "messages per second (millions)", true, Plots.PANEL_WIDTH,
            Plots.PANEL_HEIGHT);
        rates.setTitle("fan-in rates");
        rates.getStyler().setChartTitleVisible(true);
        rates.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        rates.getStyler().setXAxisLogarithmic(false).setYAxisLogarithmicDecadeOnly(false);
        rankAxis(rates);
        final XYChart calls = ratioPanel("fence and barrier (below 1: rma4j faster)", "ranks",
            "time per call ÷ Open MPI's");
        rankAxis(calls);
        int k = 0;
        for (final Sweeps.Row row : Sweeps.ROWS) {
            final boolean reference = row.id().equals(Sweeps.FAN_IN_REFERENCE);
            final String impl = reference ? Rows.OPENMPI : Rows.RMA4J;
            final Color color = reference ? Plots.IMPL_COLORS.get(Rows.OPENMPI) : Plots.OKABE_ITO.get(1 + k % 7);
            if (row.fanIn()) {
                addLine(rates, row.label(), onRankAxis(points(results, impl, row.id(), m -> m.perSecond() / 1e6)),
                    color, MARKERS.get(k % MARKERS.size()));
            }
            if (row.fanIn() && !reference) {
                addLine(fanIn, row.label(), onRankAxis(ratios(results, row.id(), Sweeps.FAN_IN_REFERENCE, true)), color,
                    MARKERS.get(k % MARKERS.size()));
            } else if (!row.fanIn()) {
                addLine(calls, "rma4j " + row.label(), onRankAxis(ratios(results, row.id(), row.id(), false)), color,
                    MARKERS.get(k % MARKERS.size()));
            }
            k++;
        }
        for (final XYChart chart : List.of(fanIn, calls)) {
            if (!chart.getSeriesMap().isEmpty()) {
                finishRatioPanel(chart);
                charts.add(chart);
            }
        }
        if (!charts.isEmpty() && !rates.getSeriesMap().isEmpty()) {
            decades(rates);
            charts.add(rates);
        }
        return charts;
    }

    /** (ranks, value) of one sweep row of one implementation. */
    private static List<double[]> points(final Results results, final String impl, final String row,
        final Function<SweepMeasurement, Double> value) {
        return results.sweeps().stream().filter(m -> m.impl().equals(impl) && m.row().equals(row))
            .sorted((a, b) -> Integer.compare(a.ranks(), b.ranks())).map(m -> new double[] {m.ranks(), value.apply(m)})
            .toList();
    }

    /** (ranks, rma4j's row ÷ Open MPI's reference row): rates for a fan-in, times otherwise. */
    private static List<double[]> ratios(final Results results, final String row, final String referenceRow,
        final boolean rate) {
        final List<double[]> points = new ArrayList<>();
        for (final double[] p : points(results, Rows.RMA4J, row, SweepMeasurement::medianNs)) {
            results.findSweep(Rows.OPENMPI, referenceRow, (int)p[0]).ifPresent(reference -> points
                .add(new double[] {p[0], rate ? reference.medianNs() / p[1] : p[1] / reference.medianNs()}));
        }
        return points;
    }

    static List<XYChart> loaded(final Results results) {
        final List<XYChart> charts = new ArrayList<>();
        for (final long size : new TreeSet<>(results.loaded().stream().map(LoadedMeasurement::sizeBytes).toList())) {
            final XYChart chart = ratioPanel(ReportWriter.size(size) + " payload", "busy processes",
                "half round trip ÷ Open MPI's send / recv");
            int k = 0;
            for (final String row : LoadedReport.RMA4J_ROWS) {
                final List<double[]> points = new ArrayList<>();
                for (final LoadedMeasurement m : results.loaded()) {
                    if (m.impl().equals(Rows.RMA4J) && m.row().equals(row) && m.sizeBytes() == size) {
                        results.findLoaded(Rows.OPENMPI, "send-recv", size, m.backgroundLoad())
                            .filter(r -> r.medianNs() > 0)
                            .ifPresent(r -> points.add(new double[] {m.backgroundLoad(), m.medianNs() / r.medianNs()}));
                    }
                }
                points.sort((a, b) -> Double.compare(a[0], b[0]));
                addLine(chart, "rma4j " + (row.equals("send-recv") ? "send / recv" : "notified put"), points,
                    k == 0 ? Plots.OKABE_ITO.get(5) : Plots.IMPL_COLORS.get(Rows.RMA4J), MARKERS.get(k));
                k++;
            }
            if (!chart.getSeriesMap().isEmpty()) {
                finishRatioPanel(chart);
                charts.add(chart);
            }
        }
        return charts;
    }

    /**
     * Makes the x axis a rank axis: it carries log2 of the rank count, labelled with the count at powers of two
     * (2, 4, 8), so that the rank counts of the sweep are equally spaced.
     */
    private static void rankAxis(final XYChart chart) {
        chart.getStyler().setXAxisTickMarkSpacingHint(60).setxAxisTickLabelsFormattingFunction(x -> {
            final double exponent = Math.rint(x);
            return Math.abs(x - exponent) < 1e-9 && exponent >= 0 ? Long.toString(1L << (long)exponent) : NO_LABEL;
        });
    }

    /** @return the points with x, a rank count, replaced by its log2 (for a {@link #rankAxis}). */
    private static List<double[]> onRankAxis(final List<double[]> points) {
        return points.stream().map(p -> new double[] {log2(p[0]), p[1]}).toList();
    }

    private static double log2(final double value) {
        return Math.log(value) / Math.log(2);
    }

    private static XYChart ratioPanel(final String title, final String x, final String y) {
        final XYChart chart = Plots.chart(x, y, true, Plots.PANEL_WIDTH, Plots.PANEL_HEIGHT);
        chart.setTitle(title);
        chart.getStyler().setChartTitleVisible(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setXAxisLogarithmic(false).setYAxisLogarithmicDecadeOnly(false)
            .setYAxisDecimalPattern("#,##0.###").setXAxisDecimalPattern("#,##0");
        return chart;
    }

    /** Adds the 1.0 line over the x range of the panel's series. */
    private static void finishRatioPanel(final XYChart chart) {
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        for (final XYSeries s : chart.getSeriesMap().values()) {
            min = Math.min(min, s.getXMin());
            max = Math.max(max, s.getXMax());
        }
        oneLine(chart, min == max ? min - 1 : min, min == max ? max + 1 : max);
        decades(chart);
    }

    /**
     * Labels a logarithmic y axis at the powers of ten only when its values span more than a factor of 20
     * (between them the labels of every unit would overlap), at every unit otherwise.
     */
    private static void decades(final XYChart chart) {
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        for (final XYSeries s : chart.getSeriesMap().values()) {
            min = Math.min(min, s.getYMin());
            max = Math.max(max, s.getYMax());
        }
        chart.getStyler().setYAxisLogarithmicDecadeOnly(max > 20 * min);
    }

    private static void oneLine(final XYChart chart, final double minX, final double maxX) {
        final XYSeries one = chart.addSeries(Plots.REFERENCE_SERIES, new double[] {minX, maxX}, new double[] {1, 1});
        one.setMarker(SeriesMarkers.NONE);
        one.setLineColor(Color.DARK_GRAY);
        one.setLineStyle(Plots.DASHED);
    }

    private static void addLine(final XYChart chart, final String name, final List<double[]> points, final Color color,
        final Marker marker) {
        final List<double[]> positive = points.stream().filter(p -> p[1] > 0 && Double.isFinite(p[1])).toList();
        if (positive.isEmpty()) {
            return;
        }
        final XYSeries line = chart.addSeries(name, positive.stream().mapToDouble(p -> p[0]).toArray(),
            positive.stream().mapToDouble(p -> p[1]).toArray());
        line.setLineColor(color);
        line.setMarkerColor(color);
        line.setMarker(marker);
    }

    private static List<Integer> rankCounts(final List<Integer> ranks) {
        return List.copyOf(new TreeSet<>(ranks));
    }
}
