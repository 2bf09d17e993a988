package org.rma4j.litmus.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.rma4j.litmus.model.ModelOptions;
import org.rma4j.litmus.model.Rule;

/**
 * The summary of a suite run: a per-rule table like the coreRMA paper's Table 6 (rule, processes,
 * size bound, tests, allowed outputs, errors, observed %), then one line per test; in markdown and
 * JSON. A test counts under every rule it exercises, so rule rows overlap; the Summary row counts
 * each test once.
 */
public final class SuiteReport {
    /** A row of the per-rule table. */
    public record RuleRow(String rule, int procs, int size, int tests, int outputs, int errors, int observed) {
        /** @return observed allowed outputs in percent of allowed outputs. */
        public double observedPercent() {
            return outputs == 0 ? 100.0 : 100.0 * observed / outputs;
        }
    }

    private SuiteReport() {
    }

    /** @return the per-rule rows, in rule order then process count, and a last row "Summary" over all tests. */
    public static List<RuleRow> ruleRows(final List<Suite.Row> rows) {
        final List<String> order = new ArrayList<>();
        for (final Rule r : Rule.values()) {
            order.add(r.label());
        }
        order.add("C");
        final Map<String, RuleRow> table = new TreeMap<>((a, b) -> {
            final String[] x = a.split("/");
            final String[] y = b.split("/");
            final int c = Integer.compare(order.indexOf(x[0]), order.indexOf(y[0]));
            return c != 0 ? c : Integer.compare(Integer.parseInt(x[1]), Integer.parseInt(y[1]));
        });
        int tests = 0;
        int outputs = 0;
        int errors = 0;
        int observed = 0;
        int size = 0;
        for (final Suite.Row row : rows) {
            for (final String rule : row.rules()) {
                table.merge(rule + "/" + row.procs(), new RuleRow(rule, row.procs(), row.size(), 1, row.allowed(),
                    row.passed() ? 0 : 1, row.observedAllowed()), SuiteReport::add);
            }
            tests++;
            outputs += row.allowed();
            errors += row.passed() ? 0 : 1;
            observed += row.observedAllowed();
            size = Math.max(size, row.size());
        }
        final List<RuleRow> out = new ArrayList<>(table.values());
        out.add(new RuleRow("Summary", 0, size, tests, outputs, errors, observed));
        return out;
    }

    private static RuleRow add(final RuleRow a, final RuleRow b) {
        return new RuleRow(a.rule(), a.procs(), Math.max(a.size(), b.size()), a.tests() + b.tests(),
            a.outputs() + b.outputs(), a.errors() + b.errors(), a.observed() + b.observed());
    }

    /** @return the summary as markdown. */
    public static String markdown(final List<Suite.Row> rows, final RunConfig config, final ModelOptions options) {
        final StringBuilder out = new StringBuilder();
        out.append("# Litmus suite summary\n\n");
        out.append(String.format(Locale.ROOT, "%d tests, %d runs each, %s mode, model: %s%n%n", rows.size(),
            config.iterations(), config.mode().name().toLowerCase(Locale.ROOT),
            options.mpiAtomicity() ? "MPI (--mpi)" : options.enabled(Rule.IR) ? "stock (with IR)" : "without IR"));
        outcomes(rows, out);
        out.append("\n## Per rule (tests exercising the rule; cf. coreRMA Table 6)\n\n");
        out.append("| Rule | #proc | Size | #tests | #outputs | #errors | Obs (%) |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (final RuleRow r : ruleRows(rows)) {
            out.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %d | %d | %.1f |%n", r.rule(),
                r.procs() == 0 ? "" : Integer.toString(r.procs()), r.size(), r.tests(), r.outputs(), r.errors(),
                r.observedPercent()));
        }
        out.append("\n## Per test\n\n");
        out.append(
            "| Test | #proc | Size | Rules | Allowed | Observed | Forbidden seen | Runs | Time (s) | Verdict |\n");
        out.append("|---|---:|---:|---|---:|---:|---:|---:|---:|---|\n");
        for (final Suite.Row r : rows) {
            out.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %d | %d | %d | %d | %.2f | %s |%n", r.name(),
                r.procs(), r.size(), String.join(" ", r.rules()), r.allowed(), r.observedAllowed(), r.forbidden(),
                r.runs(), r.seconds(),
                r.error() != null
                    ? "ERROR: " + r.error().lines().findFirst().orElse("").replace('|', '/')
                    : r.passed() ? "pass" : "FAIL"));
        }
        return out.toString();
    }

    /** The outcomes table: one row per family of tests (the name up to its first '-'), then all of them. */
    private static void outcomes(final List<Suite.Row> rows, final StringBuilder out) {
        out.append("## Outcomes\n\n");
        out.append("Per family of tests (the name up to its first '-'): allowed outcomes of the model, observed\n"
            + "outcomes, forbidden outcomes seen (must be 0), allowed outcomes never seen (coverage).\n\n");
        out.append(
            "| Family | #tests | Runs | Allowed | Observed | Forbidden seen | Allowed never seen | Coverage (%) |"
                + " Errors |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        final Map<String, long[]> families = new TreeMap<>();
        for (final Suite.Row r : rows) {
            final String family = r.name().contains("-") ? r.name().substring(0, r.name().indexOf('-')) : r.name();
            for (final String key : List.of(family, "\uffffAll")) {
                final long[] f = families.computeIfAbsent(key, k -> new long[6]);
                f[0]++;
                f[1] += r.runs();
                f[2] += r.allowed();
                f[3] += r.observedAllowed() + r.forbidden();
                f[4] += r.forbidden();
                f[5] += r.error() != null ? 1 : 0;
            }
        }
        for (final Map.Entry<String, long[]> e : families.entrySet()) {
            final long[] f = e.getValue();
            final long observedAllowed = f[3] - f[4];
            out.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %d | %d | %.1f | %d |%n",
                e.getKey().startsWith("\uffff") ? "**all**" : e.getKey(), f[0], f[1], f[2], f[3], f[4],
                f[2] - observedAllowed, f[2] == 0 ? 100.0 : 100.0 * observedAllowed / f[2], f[5]));
        }
    }

    /** @return the summary as JSON. */
    public static String json(final List<Suite.Row> rows, final RunConfig config, final ModelOptions options) {
        final StringBuilder out = new StringBuilder();
        out.append("{\n  \"iterations\": ").append(config.iterations()).append(",\n  \"mode\": ")
            .append(quote(config.mode().name().toLowerCase(Locale.ROOT))).append(",\n  \"inOrderRouting\": ")
            .append(options.enabled(Rule.IR)).append(",\n  \"rules\": [");
        final List<RuleRow> ruleRows = ruleRows(rows);
        for (int i = 0; i < ruleRows.size(); i++) {
            final RuleRow r = ruleRows.get(i);
            out.append(i == 0 ? "\n" : ",\n")
                .append(String.format(Locale.ROOT,
                    "    {\"rule\": %s, \"procs\": %d, \"size\": %d, \"tests\": %d, \"outputs\": %d, \"errors\": %d,"
                        + " \"observedPercent\": %.1f}",
                    quote(r.rule()), r.procs(), r.size(), r.tests(), r.outputs(), r.errors(), r.observedPercent()));
        }
        out.append("\n  ],\n  \"tests\": [");
        for (int i = 0; i < rows.size(); i++) {
            final Suite.Row r = rows.get(i);
            out.append(i == 0 ? "\n" : ",\n").append(String.format(Locale.ROOT,
                "    {\"name\": %s, \"file\": %s, \"procs\": %d, \"size\": %d, \"rules\": [%s], \"allowed\": %d,"
                    + " \"observedAllowed\": %d, \"forbidden\": %d, \"forbiddenRuns\": %d, \"runs\": %d,"
                    + " \"seconds\": %.3f, \"passed\": %b, \"error\": %s}",
                quote(r.name()), quote(r.file().toString()), r.procs(), r.size(),
                String.join(", ", r.rules().stream().map(SuiteReport::quote).toList()), r.allowed(),
                r.observedAllowed(), r.forbidden(), r.forbiddenRuns(), r.runs(), r.seconds(), r.passed(),
                r.error() == null ? "null" : quote(r.error())));
        }
        out.append("\n  ]\n}\n");
        return out.toString();
    }

    static String quote(final String s) {
        final StringBuilder out = new StringBuilder("\"");
        for (final char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int)c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
