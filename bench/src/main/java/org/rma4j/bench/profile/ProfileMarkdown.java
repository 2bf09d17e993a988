package org.rma4j.bench.profile;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

/**
 * Writes the profile report: per scenario the figure measured under perf beside the target and the cells of
 * a harness report, then where rank 0's and the other ranks' samples went: by thread, by layer and the top
 * symbols.
 */
final class ProfileMarkdown {
    private ProfileMarkdown() {
    }

    /**
     * What one scenario's profiling run gave.
     *
     * @param scenario  the scenario.
     * @param figure    its figure measured under perf (NaN if the job failed).
     * @param error     why it failed, or null.
     * @param seconds   wall time of the job under perf record.
     * @param ranks     each rank's report, by rank.
     * @param baselines the values of {@link ProfileScenario#baselines()} in the baseline report, NaN where it
     *                  has no such cell.
     * @param notes     remarks (e.g. a rank without JIT map).
     */
    record ScenarioProfile(ProfileScenario scenario, double figure, String error, double seconds,
        SortedMap<Integer, PerfReport> ranks, List<Double> baselines, List<String> notes) {
    }

    /**
     * @param header lines before the scenarios (command, machine, baseline file).
     * @param top    symbols per table.
     * @param frequency perf's sampling frequency (samples per second of CPU time).
     */
    static String write(final List<String> header, final List<ScenarioProfile> profiles, final int top,
        final int frequency) {
        final StringBuilder md = new StringBuilder("# rma4j profiles\n\n");
        header.forEach(line -> md.append(line).append('\n'));
        md.append('\n');
        for (final ScenarioProfile p : profiles) {
            scenario(md, p, top, frequency);
        }
        return md.toString();
    }

    private static void scenario(final StringBuilder md, final ScenarioProfile p, final int top, final int frequency) {
        final ProfileScenario s = p.scenario();
        md.append("## ").append(s.title()).append("\n\n");
        md.append("Target: ").append(s.target()).append(".\n\n");
        md.append("| | ").append(s.unit()).append(" | this run vs it |\n| --- | ---: | ---: |\n");
        md.append("| this run, under perf | ").append(figure(p.figure(), s)).append(" | |\n");
        for (int i = 0; i < s.baselines().size(); i++) {
            final double value = p.baselines().get(i);
            final String ratio = Double.isNaN(value) || Double.isNaN(p.figure()) ? "" : ratio(p.figure(), value);
            md.append("| ").append(s.baselines().get(i).label()).append(", baseline report | ").append(figure(value, s))
                .append(" | ").append(ratio).append(" |\n");
        }
        md.append('\n');
        if (p.error() != null) {
            md.append("The job failed: ").append(p.error().strip().replace("\n", " ")).append("\n\n");
        }
        p.notes().forEach(n -> md.append(n).append("\n\n"));
        if (p.ranks().isEmpty()) {
            md.append("No rank's samples were found.\n\n");
            return;
        }
        final Map<String, PerfReport> columns = columns(p.ranks());
        md.append(String.format(Locale.ROOT, "Job under perf: %.1f s wall. ", p.seconds()));
        md.append("CPU time of each column in the reported part of the recording is its samples / ").append(frequency)
            .append(" Hz").append(p.ranks().size() > 2 ? " (summed over the ranks it merges)" : "").append(".\n\n");
        threads(md, columns, frequency);
        layers(md, columns);
        for (final Map.Entry<String, PerfReport> column : columns.entrySet()) {
            symbols(md, column.getKey(), column.getValue().threads(PerfReport.ThreadClass.APPLICATION), top);
        }
    }

    /** @return rank 0 and the other ranks merged (rank 1 alone in a job of 2). */
    static Map<String, PerfReport> columns(final SortedMap<Integer, PerfReport> ranks) {
        final Map<String, PerfReport> columns = new LinkedHashMap<>();
        final List<PerfReport> others = new ArrayList<>();
        ranks.forEach((rank, report) -> {
            if (rank == 0) {
                columns.put("rank 0", report);
            } else {
                others.add(report);
            }
        });
        if (!others.isEmpty()) {
            final String label = others.size() == 1 ? "rank " + ranks.lastKey() : "ranks 1-" + ranks.lastKey();
            columns.put(label, PerfReport.merge(others));
        }
        return columns;
    }

    private static void threads(final StringBuilder md, final Map<String, PerfReport> columns, final int frequency) {
        md.append("Samples by thread, % of the column's samples:\n\n");
        header(md, "thread", columns.keySet());
        for (final PerfReport.ThreadClass c : PerfReport.ThreadClass.values()) {
            md.append("| ").append(c.label);
            for (final PerfReport report : columns.values()) {
                md.append(" | ").append(percent(report.byThreadClass().get(c), report.total()));
            }
            md.append(" |\n");
        }
        md.append("| samples (CPU s)");
        for (final PerfReport report : columns.values()) {
            md.append(String.format(Locale.ROOT, " | %d (%.2f)", report.total(), report.total() / (double)frequency));
        }
        md.append(" |\n\n");
    }

    private static void layers(final StringBuilder md, final Map<String, PerfReport> columns) {
        md.append("Application threads' samples by layer, %:\n\n");
        header(md, "layer", columns.keySet());
        final Map<String, Map<String, Long>> groups = new LinkedHashMap<>();
        final Set<String> names = new LinkedHashSet<>();
        for (final Map.Entry<String, PerfReport> column : columns.entrySet()) {
            final Map<String, Long> byGroup = column.getValue().threads(PerfReport.ThreadClass.APPLICATION).byGroup();
            groups.put(column.getKey(), byGroup);
            names.addAll(byGroup.keySet());
        }
        for (final String name : names) {
            md.append("| ").append(name);
            for (final Map.Entry<String, PerfReport> column : columns.entrySet()) {
                final long total = column.getValue().threads(PerfReport.ThreadClass.APPLICATION).total();
                md.append(" | ").append(percent(groups.get(column.getKey()).getOrDefault(name, 0L), total));
            }
            md.append(" |\n");
        }
        md.append('\n');
    }

    private static void symbols(final StringBuilder md, final String column, final PerfReport report, final int top) {
        md.append("Top symbols of ").append(column).append(" (application threads), % of their samples:\n\n");
        md.append("| % | symbol | layer |\n| ---: | --- | --- |\n");
        final long total = report.total();
        for (final PerfReport.Symbol symbol : report.top(top)) {
            md.append("| ").append(percent(symbol.samples(), total)).append(" | `")
                .append(symbol.name().replace("|", "\\|").replace("`", "'")).append("` | ").append(symbol.group())
                .append(" |\n");
        }
        md.append('\n');
    }

    private static void header(final StringBuilder md, final String first, final Set<String> columns) {
        md.append("| ").append(first);
        columns.forEach(c -> md.append(" | ").append(c));
        md.append(" |\n| ---");
        columns.forEach(c -> md.append(" | ---:"));
        md.append(" |\n");
    }

    static String percent(final long part, final long total) {
        return total == 0 ? "-" : String.format(Locale.ROOT, "%.1f", 100.0 * part / total);
    }

    private static String figure(final double value, final ProfileScenario s) {
        if (Double.isNaN(value)) {
            return "-";
        }
        return s.rate() ? String.format(Locale.ROOT, "%.2f M", value / 1e6) : String.format(Locale.ROOT, "%.0f", value);
    }

    private static String ratio(final double figure, final double value) {
        return String.format(Locale.ROOT, "%.2fx", figure / value);
    }
}
