package org.rma4j.bench.harness;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The stability check ({@code --compare A.json,B.json}): for every cell that two runs both measured, how
 * far apart they are. A cell's distance is the larger of its two values over the smaller, minus 1
 * (0.15 = one run's value is 15 % above the other's, whichever is larger); a cell is stable when that is at
 * most {@link #TOLERANCE}. Parts: the applications (median throughput of the kept round, per
 * implementation, application, variant, rank count and size), the sweep (median of the runs) and the
 * latency, operation and bandwidth cells (median).
 */
final class Compare {
    /** The distance up to which two runs agree. */
    static final double TOLERANCE = 0.15;

    private Compare() {
    }

    /** One cell both runs have: its name and the two values. */
    record Cell(String name, double a, double b) {
        /** @return the larger value over the smaller, minus 1; infinite if one is not positive. */
        double distance() {
            if (a <= 0 || b <= 0) {
                return Double.POSITIVE_INFINITY;
            }
            return Math.max(a, b) / Math.min(a, b) - 1;
        }
    }

    /**
     * @return the comparison as markdown: per part a summary line and a table of every cell.
     */
    static String markdown(final Results a, final Results b, final String nameA, final String nameB) {
        final StringBuilder md = new StringBuilder();
        md.append("# ").append(nameB).append(" against ").append(nameA).append("\n\n");
        md.append(String.format(Locale.ROOT,
            "A cell agrees when the larger of its two values over the smaller is " + "at most %.2f (%.0f %%).%n%n",
            1 + TOLERANCE, TOLERANCE * 100));
        part(md, "Applications (median throughput)", applicationCells(a, b), nameA, nameB);
        part(md, "Sweep (median ns per message or call)", sweepCells(a, b), nameA, nameB);
        part(md, "Latency, operations, bandwidth (median ns)", measurementCells(a, b), nameA, nameB);
        return md.toString();
    }

    static List<Cell> applicationCells(final Results a, final Results b) {
        return cells(a.applications(), b.applications(), AppMeasurement::sameCell, AppMeasurement::medianThroughput,
            m -> Peers.label(m.impl()) + " " + m.app() + " " + m.variant() + ", " + m.ranks() + " ranks, "
                + m.sizeLabel());
    }

    static List<Cell> sweepCells(final Results a, final Results b) {
        return cells(a.sweeps(), b.sweeps(),
            (x, y) -> x.impl().equals(y.impl()) && x.row().equals(y.row()) && x.ranks() == y.ranks(),
            SweepMeasurement::medianNs, m -> Peers.label(m.impl()) + " " + m.row() + ", " + m.ranks() + " ranks");
    }

    static List<Cell> measurementCells(final Results a, final Results b) {
        return cells(a.measurements(), b.measurements(),
            (x, y) -> x.impl().equals(y.impl()) && x.row().equals(y.row()) && x.sizeBytes() == y.sizeBytes(),
            Measurement::p50Ns, m -> Peers.label(m.impl()) + " " + m.row() + " " + ReportWriter.size(m.sizeBytes()));
    }

    /** Whether two measurements are of the same cell. */
    @FunctionalInterface
    interface Same<T> {
        boolean test(T x, T y);
    }

    /** What a cell's name is made of. */
    @FunctionalInterface
    interface Name<T> {
        String of(T m);
    }

    private static <T> List<Cell> cells(final List<T> a, final List<T> b, final Same<T> same,
        final ToDoubleFunction<T> value, final Name<T> name) {
        final List<Cell> cells = new ArrayList<>();
        for (final T x : a) {
            final Optional<T> y = b.stream().filter(m -> same.test(x, m)).findFirst();
            y.ifPresent(m -> cells.add(new Cell(name.of(x), value.applyAsDouble(x), value.applyAsDouble(m))));
        }
        return cells;
    }

    private static void part(final StringBuilder md, final String title, final List<Cell> cells, final String nameA,
        final String nameB) {
        if (cells.isEmpty()) {
            return;
        }
        final double[] distances = cells.stream().mapToDouble(Cell::distance).sorted().toArray();
        final long agree = Arrays.stream(distances).filter(d -> d <= TOLERANCE).count();
        md.append("## ").append(title).append("\n\n");
        md.append(String.format(Locale.ROOT, "%d of %d cells agree; distance: median %.1f %%, largest %.1f %%.%n%n",
            agree, cells.size(), 100 * distances[distances.length / 2], 100 * distances[distances.length - 1]));
        md.append("| cell | ").append(nameA).append(" | ").append(nameB).append(" | distance | agrees |\n");
        md.append("| --- | ---: | ---: | ---: | --- |\n");
        for (final Cell c : cells) {
            md.append("| ").append(c.name()).append(" | ").append(ReportWriter.throughput(c.a())).append(" | ")
                .append(ReportWriter.throughput(c.b())).append(" | ")
                .append(String.format(Locale.ROOT, "%.1f %%", 100 * c.distance())).append(" | ")
                .append(c.distance() <= TOLERANCE ? "yes" : "no").append(" |\n");
        }
        md.append('\n');
    }
}
