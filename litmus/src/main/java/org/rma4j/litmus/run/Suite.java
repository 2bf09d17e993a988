package org.rma4j.litmus.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import org.rma4j.litmus.model.ActionGraph;
import org.rma4j.litmus.model.ModelOptions;
import org.rma4j.litmus.model.ModelResult;
import org.rma4j.litmus.model.RuleAnalysis;
import org.rma4j.litmus.syntax.LitmusException;
import org.rma4j.litmus.syntax.Parser;
import org.rma4j.litmus.syntax.Program;

/**
 * Runs a set of litmus files (coreRMA section 7): for each, the model's allowed states and the rules
 * it exercises, N runs on rma4j, and the comparison. {@link SuiteReport} turns the rows into the
 * per-rule table of the paper's Table 6.
 */
public final class Suite {
    /**
     * One test's result.
     *
     * @param name            test name.
     * @param file            its file.
     * @param procs           process count.
     * @param size            the paper's Size: actions of the statements plus initial writes.
     * @param rules           exercised rules (labels), C included when rule C applies.
     * @param allowed         allowed states.
     * @param observedAllowed allowed states observed.
     * @param forbidden       forbidden states observed.
     * @param forbiddenRuns   runs that ended in a forbidden state.
     * @param runs            runs.
     * @param seconds         time of model and runs.
     * @param error           why the test could not run (parse error, job failure), or null.
     */
    public record Row(String name, Path file, int procs, int size, List<String> rules, int allowed, int observedAllowed,
        int forbidden, long forbiddenRuns, long runs, double seconds, String error) {
        /** @return whether the test ran and observed no forbidden state. */
        public boolean passed() {
            return error == null && forbidden == 0;
        }
    }

    private Suite() {
    }

    /** @return the {@code .litmus} files of the paths (directories searched recursively), sorted. */
    public static List<Path> files(final List<Path> paths) throws IOException {
        final List<Path> files = new ArrayList<>();
        for (final Path p : paths) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> walk = Files.walk(p)) {
                    walk.filter(f -> f.toString().endsWith(".litmus")).sorted().forEach(files::add);
                }
            } else {
                files.add(p);
            }
        }
        return files;
    }

    /**
     * Runs every file, handing one progress line per test to {@code progress}.
     */
    public static List<Row> run(final List<Path> files, final RunConfig config, final ModelOptions options,
        final java.util.function.Consumer<String> progress) {
        final List<Row> rows = new ArrayList<>();
        final long start = System.nanoTime();
        for (int i = 0; i < files.size(); i++) {
            final Row row = runOne(files.get(i), config, options);
            rows.add(row);
            final double elapsed = (System.nanoTime() - start) / 1e9;
            final double eta = elapsed / (i + 1) * (files.size() - i - 1);
            progress.accept(String.format(Locale.ROOT, "[%d/%d] %s %s (%.1f s; elapsed %.0f s, eta %.0f s)", i + 1,
                files.size(), row.name(), status(row), row.seconds(), elapsed, eta));
        }
        return rows;
    }

    private static String status(final Row row) {
        if (row.error() != null) {
            return "ERROR " + row.error().lines().findFirst().orElse("");
        }
        return (row.passed() ? "PASS " : "FAIL " + row.forbidden() + " forbidden state(s), ") + row.observedAllowed()
            + "/" + row.allowed() + " allowed observed";
    }

    /**
     * Like {@link #run(List, RunConfig, ModelOptions, java.util.function.Consumer)}; in process mode with
     * {@code batch > 1}, runs up to batch tests of one process count in one job ({@link BatchProcessRunner}),
     * and a batch whose job fails test by test, so that the failing test is named.
     */
    public static List<Row> run(final List<Path> files, final RunConfig config, final ModelOptions options,
        final java.util.function.Consumer<String> progress, final int batch) {
        if (batch <= 1 || config.mode() != RunConfig.Mode.PROCESSES) {
            return run(files, config, options, progress);
        }
        final long start = System.nanoTime();
        final java.util.Map<Integer, List<Path>> byProcs = new java.util.TreeMap<>();
        final List<Row> rows = new ArrayList<>();
        for (final Path f : files) {
            try {
                byProcs.computeIfAbsent(Parser.parse(f).processCount(), k -> new ArrayList<>()).add(f);
            } catch (final Exception e) {
                rows.add(runOne(f, config, options));
            }
        }
        int done = rows.size();
        for (final List<Path> group : byProcs.values()) {
            for (int from = 0; from < group.size(); from += batch) {
                final List<Path> chunk = group.subList(from, Math.min(group.size(), from + batch));
                final long chunkStart = System.nanoTime();
                List<Row> chunkRows;
                try {
                    chunkRows = runBatch(chunk, config, options);
                } catch (final Exception e) {
                    progress.accept("batch failed (" + e.getMessage().lines().findFirst().orElse("") + "), running its "
                        + chunk.size() + " tests one by one");
                    chunkRows = new ArrayList<>();
                    for (final Path f : chunk) {
                        chunkRows.add(runOne(f, config, options));
                    }
                }
                rows.addAll(chunkRows);
                done += chunk.size();
                final double elapsed = (System.nanoTime() - start) / 1e9;
                final long failed = chunkRows.stream().filter(r -> !r.passed()).count();
                progress.accept(String.format(Locale.ROOT,
                    "[%d/%d] batch of %d tests: %d failed (%.1f s; elapsed %.0f s," + " eta %.0f s)", done,
                    files.size(), chunk.size(), failed, seconds(chunkStart), elapsed,
                    elapsed / done * (files.size() - done)));
                chunkRows.stream().filter(r -> !r.passed())
                    .forEach(r -> progress.accept("  " + r.name() + " " + status(r)));
            }
        }
        return rows;
    }

    private static List<Row> runBatch(final List<Path> chunk, final RunConfig config, final ModelOptions options)
        throws Exception {
        final long start = System.nanoTime();
        final List<Program> programs = new ArrayList<>();
        final List<RuleAnalysis> analyses = new ArrayList<>();
        for (final Path f : chunk) {
            final Program program = Parser.parse(f);
            programs.add(program);
            analyses.add(RuleAnalysis.of(program, options));
        }
        final List<Histogram> histograms = BatchProcessRunner.run(programs, config);
        final double each = seconds(start) / chunk.size();
        final List<Row> rows = new ArrayList<>();
        for (int i = 0; i < chunk.size(); i++) {
            rows.add(row(chunk.get(i), programs.get(i), analyses.get(i), histograms.get(i), each));
        }
        return rows;
    }

    private static Row row(final Path file, final Program program, final RuleAnalysis analysis,
        final Histogram histogram, final double seconds) {
        final ModelResult full = analysis.allowed();
        final ModelResult allowed = program.locations() == null ? full : full.project(program.stateLocations());
        final Verdict verdict = new Verdict(program, allowed, histogram);
        long forbiddenRuns = 0;
        for (final var s : verdict.forbiddenObserved()) {
            forbiddenRuns += histogram.counts().get(s);
        }
        return new Row(program.name(), file, program.processCount(), ActionGraph.of(program).testSize(),
            analysis.labels(), allowed.states().size(), verdict.allowedObservedCount(),
            verdict.forbiddenObserved().size(), forbiddenRuns, histogram.total(), seconds, null);
    }

    static Row runOne(final Path file, final RunConfig config, final ModelOptions options) {
        final long start = System.nanoTime();
        final String fallback = file.getFileName().toString().replaceFirst("\\.litmus$", "");
        Program program = null;
        try {
            program = Parser.parse(file);
            final RuleAnalysis analysis = RuleAnalysis.of(program, options);
            final ModelResult full = analysis.allowed();
            final ModelResult allowed = program.locations() == null ? full : full.project(program.stateLocations());
            final Histogram histogram = Runner.of(config.mode()).run(program, config, null);
            final Verdict verdict = new Verdict(program, allowed, histogram);
            long forbiddenRuns = 0;
            for (final var s : verdict.forbiddenObserved()) {
                forbiddenRuns += histogram.counts().get(s);
            }
            return new Row(program.name(), file, program.processCount(), ActionGraph.of(program).testSize(),
                analysis.labels(), allowed.states().size(), verdict.allowedObservedCount(),
                verdict.forbiddenObserved().size(), forbiddenRuns, histogram.total(), seconds(start), null);
        } catch (final LitmusException e) {
            return errorRow(fallback, file, program, e.getMessage(), start);
        } catch (final Exception e) {
            return errorRow(fallback, file, program, e.toString(), start);
        }
    }

    private static Row errorRow(final String name, final Path file, final Program program, final String error,
        final long start) {
        return new Row(program != null ? program.name() : name, file, program != null ? program.processCount() : 0, 0,
            List.of(), 0, 0, 0, 0, 0, seconds(start), error);
    }

    private static double seconds(final long start) {
        return (System.nanoTime() - start) / 1e9;
    }
}
