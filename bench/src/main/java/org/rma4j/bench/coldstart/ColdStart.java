package org.rma4j.bench.coldstart;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Time to steady state: each operation's first calls after {@code Rma.init()} beside its steady cost, in
 * a fresh 2-rank job started as {@code rmarun} starts one, without and with the JVM's ahead-of-time cache
 * ({@code rmarun --aot-cache}, JDK 25). The cache is recorded by one training job first (not timed).
 * Writes a markdown report.
 *
 * <p>The ranks' class path must be jar files for the cache (the benchmarks jar is one).
 */
@Command(name = "cold-start", mixinStandardHelpOptions = true, description = "Each operation's first calls after Rma.init beside its steady state, without and with an AOT cache.")
public final class ColdStart implements Callable<Integer> {
    /** Windows of the first calls the report shows, as [from, to) call indices. */
    private static final int[][] WINDOWS = {{0, 1}, {1, 10}, {10, 100}, {100, 1000}};

    @Option(names = "--calls", defaultValue = "1000", description = "Calls timed one by one (default ${DEFAULT-VALUE}).")
    int calls;

    @Option(names = "--steady", defaultValue = "200000", description = "Calls after those; the last half is the steady state (default ${DEFAULT-VALUE}).")
    int steady;

    @Option(names = "--repetitions", defaultValue = "3", description = "Jobs per configuration; the report shows medians over them (default ${DEFAULT-VALUE}).")
    int repetitions;

    @Option(names = "--classpath", description = "Class path of the ranks (default: this JVM's).")
    String classpath;

    @Option(names = "--no-aot", description = "Measure only without the ahead-of-time cache.")
    boolean noAot;

    @Option(names = "--shm-dir", description = "Directory of the jobs' shared files (default: /dev/shm).")
    Path shmDir;

    @Option(names = {"-o", "--out"}, required = true, description = "Directory of the report and the cache.")
    Path out;

    @Option(names = "--jvm-opt", description = "A JVM option of every rank (repeatable).")
    List<String> jvmOptions = new ArrayList<>();

    public static void main(final String[] args) {
        System.exit(new CommandLine(new ColdStart()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Files.createDirectories(out);
        final String rankClasspath = classpath != null ? classpath : System.getProperty("java.class.path");
        final Map<String, List<Map<String, long[]>>> runs = new LinkedHashMap<>();
        runs.put("no cache", repeat(rankClasspath, null));
        if (!noAot) {
            final Path cache = out.resolve("cold-start.aot");
            Files.deleteIfExists(cache);
            job(rankClasspath, cache, "training");
            if (!Files.isRegularFile(cache)) {
                throw new IllegalStateException("the training job wrote no AOT cache at " + cache);
            }
            runs.put("AOT cache", repeat(rankClasspath, cache));
        }
        final Path report = out.resolve("cold-start.md");
        try (PrintStream md = new PrintStream(Files.newOutputStream(report))) {
            write(md, runs);
        }
        System.out.println("cold-start report: " + report);
        return 0;
    }

    private List<Map<String, long[]>> repeat(final String rankClasspath, final Path cache) throws Exception {
        final List<Map<String, long[]>> results = new ArrayList<>();
        for (int r = 0; r < repetitions; r++) {
            results.add(job(rankClasspath, cache, "run-" + (cache == null ? "plain" : "aot") + "-" + r));
        }
        return results;
    }

    /**
     * Runs one job and parses rank 0's lines: per operation {uptimeMillis, steadyNanos, nanos of each call...}.
     */
    private Map<String, long[]> job(final String rankClasspath, final Path cache, final String name) throws Exception {
        final Path file = out.resolve("cold-start-" + name + ".txt");
        final Launcher.Builder builder = Launcher.builder().ranks(2).classpath(rankClasspath)
            .mainClass(ColdStartRank.class.getName())
            .args(List.of(file.toString(), Integer.toString(calls), Integer.toString(steady))).jvmOptions(jvmOptions);
        if (shmDir != null) {
            builder.baseDirectory(shmDir);
        }
        if (cache != null) {
            builder.aotCache(cache);
        }
        final JobResult result = builder.build().run();
        if (result.exitCode() != 0) {
            throw new IllegalStateException("cold-start job " + name + " ended with " + result.exitCode());
        }
        final Map<String, long[]> operations = new LinkedHashMap<>();
        for (final String line : Files.readAllLines(file)) {
            final String[] fields = line.split(" ");
            operations.put(fields[0], Arrays.stream(fields, 1, fields.length).mapToLong(Long::parseLong).toArray());
        }
        return operations;
    }

    void write(final PrintStream md, final Map<String, List<Map<String, long[]>>> runs) throws IOException {
        md.println("# Time to steady state");
        md.println();
        md.println("A fresh 2-rank job per run (`Launcher`, as `rmarun` starts it), " + repetitions
            + " runs per configuration, medians over runs. Each operation's first " + calls
            + " calls are timed one by one right after `Rma.init()`, in the order of the table; its steady"
            + " state is the mean of the last " + (steady - steady / 2) + " of " + steady + " further calls."
            + " Mean ns per call in each window of call indices; the last column is the first " + Math.min(calls, 1000)
            + " calls' mean over the steady state.");
        md.println();
        final List<String> header = new ArrayList<>(
            List.of("operation", "configuration", "JVM uptime at first call (ms)"));
        final List<int[]> windows = Arrays.stream(WINDOWS).filter(w -> w[0] < calls).toList();
        for (final int[] window : windows) {
            header.add(window[1] - window[0] == 1
                ? "call " + (window[0] + 1)
                : "calls " + (window[0] + 1) + "-" + Math.min(window[1], calls));
        }
        header.addAll(List.of("steady", "first calls / steady"));
        md.println("| " + String.join(" | ", header) + " |");
        md.println("|" + " --- |".repeat(2) + " ---: |".repeat(header.size() - 2));
        final List<String> operations = new ArrayList<>(runs.values().iterator().next().getFirst().keySet());
        operations.remove("init");
        for (final String operation : operations) {
            for (final Map.Entry<String, List<Map<String, long[]>>> run : runs.entrySet()) {
                final List<long[]> samples = run.getValue().stream().map(r -> r.get(operation)).toList();
                final List<String> row = new ArrayList<>(List.of(operation, run.getKey(),
                    Long.toString(median(samples.stream().mapToLong(s -> s[0]).toArray()))));
                for (final int[] window : windows) {
                    row.add(Long.toString(median(samples.stream()
                        .mapToLong(s -> mean(s, 2 + window[0], 2 + Math.min(window[1], calls))).toArray())));
                }
                final long steadyNanos = median(samples.stream().mapToLong(s -> s[1]).toArray());
                final long first = median(
                    samples.stream().mapToLong(s -> mean(s, 2, 2 + Math.min(calls, 1000))).toArray());
                row.add(Long.toString(steadyNanos));
                row.add(String.format(Locale.ROOT, "%.1fx", first / (double)Math.max(1, steadyNanos)));
                md.println("| " + String.join(" | ", row) + " |");
            }
        }
        md.println();
        final String initMs = String.join(", ", runs.entrySet().stream().map(
            run -> run.getKey() + " " + String.format(Locale.ROOT, "%.1f", medianInit(run.getValue(), 2) / 1_000_000.0))
            .toList());
        final String uptimeMs = String.join(", ",
            runs.entrySet().stream().map(run -> run.getKey() + " " + medianInit(run.getValue(), 0)).toList());
        md.println(
            "`Rma.init()` took (median, ms): " + initMs + "; JVM uptime when it returned (ms): " + uptimeMs + ".");
    }

    /** @return the median over {@code runs} of element {@code index} of each run's {@code init} record. */
    private static long medianInit(final List<Map<String, long[]>> runs, final int index) {
        return median(runs.stream().mapToLong(r -> r.get("init")[index]).toArray());
    }

    private static long mean(final long[] values, final int from, final int to) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += values[i];
        }
        return to > from ? sum / (to - from) : 0;
    }

    private static long median(final long[] values) {
        final long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
