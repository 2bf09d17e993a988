package org.rma4j.bench.profile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.rma4j.bench.harness.FloorGateOptions;
import org.rma4j.bench.harness.FloorProbe;
import org.rma4j.bench.harness.Measurement;
import org.rma4j.bench.harness.Results;
import org.rma4j.bench.harness.SweepMeasurement;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The profiling step of the bench harness: runs each chosen scenario ({@link ProfileScenario}) as the
 * harness runs it (through {@code org.rma4j.bench.harness.ProfileJob}: the same runner, launcher options and
 * rank code) under {@code perf record -F FREQ -g}, with the rank JVMs writing the JIT's symbol map at exit
 * ({@code -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit}, and {@code -XX:+PreserveFramePointer} for
 * the call chains), then reports each rank's samples ({@code perf report --no-children --sort comm,dso,sym})
 * and writes {@code <out>/<name>.md} ({@link ProfileMarkdown}). It removes the perf data and the ranks'
 * {@code /tmp/perf-PID.map} files it made unless {@code --keep-data}.
 *
 * <p>Exit status: 0 if every scenario ran, 1 if one failed (the others are still reported), 2 for bad
 * arguments or a missing perf.
 */
@Command(name = "rma4j-profile", mixinStandardHelpOptions = true, sortOptions = false, description = "Profiles harness scenarios with perf and the JIT's symbol maps: where each rank's time goes.")
public final class ProfileMain implements Callable<Integer> {
    /** Options of the rank JVMs that make their JIT-compiled frames visible to perf. */
    static final List<String> PROFILING_JVM_OPTIONS = List.of("-XX:+UnlockDiagnosticVMOptions",
        "-XX:+DumpPerfMapAtExit", "-XX:+PreserveFramePointer");

    @Option(names = "--scenarios", split = ",", description = "ROW[:SIZE] (latency: notified-put, counter-put, "
        + "put-flush-flag, send-recv, load-store, pscw, fence; SIZE default 8), OP (a single operation: fetch-and-op, "
        + "compare-and-swap, get, accumulate, lock-unlock, barrier) or ROW@RANKS (sweep: fan-in-notified, "
        + "fan-in-notified-batch, fan-in-messaging, fence, barrier); default: notified-put and send-recv at 8 B, 64 B "
        + "and 1 KiB, counter-put, lock-unlock and fan-in-messaging at 8 ranks")
    List<String> scenarioIds = ProfileScenario.DEFAULTS;

    @Option(names = {"-o", "--out"}, description = "output directory (default: ${DEFAULT-VALUE})")
    Path out = Path.of("bench", "results");

    @Option(names = "--name", description = "base name of the report (default: profile-<date>-<time>)")
    String name;

    @Option(names = "--baseline", description = "harness results file whose cells are shown beside each figure "
        + "(default: the newest docs/benchmarks/full-*.json under the current directory, if any)")
    Path baseline;

    @Option(names = {"-F", "--frequency"}, description = "samples per second of CPU time (default: ${DEFAULT-VALUE})")
    int frequency = 9999;

    @Option(names = "--skip", description = "first part of each job's recording left out of the report, %% of its "
        + "time: the JVMs' start and first warm-up, so that the tables show the steady state; 0 reports the whole "
        + "job (default: ${DEFAULT-VALUE})")
    int skip = 50;

    @Option(names = "--top", description = "symbols per table (default: ${DEFAULT-VALUE})")
    int top = 15;

    @Option(names = "--warmup", description = "untimed round trips of a latency scenario, untimed batches of 32 calls "
        + "of a single operation (default: ${DEFAULT-VALUE})")
    int warmup = 2_000_000;

    @Option(names = {"-n", "--iterations"}, description = "timed round trips of a latency scenario, timed batches of "
        + "a single operation (default: ${DEFAULT-VALUE})")
    int iterations = 1_000_000;

    @Option(names = "--messages", description = "messages rank 0 receives per pass of a fan-in row; a row runs 3 "
        + "warm-up and 3 timed passes (default: ${DEFAULT-VALUE})")
    int messages = 4_000_000;

    @Option(names = "--calls", description = "fence or barrier calls per pass (default: 1000000 at 2 ranks, "
        + "200000 up to 4, 20000 beyond)")
    Integer calls;

    @Option(names = "--jvm-option", description = "further JVM option of the rank JVMs (repeatable)")
    List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--perf", description = "perf executable (default: ${DEFAULT-VALUE})")
    String perf = "perf";

    @Mixin
    FloorGateOptions floorGate = new FloorGateOptions();

    @Option(names = "--keep-data", description = "keep the perf data (<out>/<name>-data/*.data) and the ranks' "
        + "JIT maps (/tmp/perf-PID.map) for perf report or perf script by hand")
    boolean keepData;

    @Option(names = "--timeout", description = "longest time of one scenario's job, seconds (default: "
        + "${DEFAULT-VALUE})")
    int timeoutSeconds = 900;

    public static void main(final String[] args) {
        final ProfileMain main = new ProfileMain();
        final CommandLine command = new CommandLine(main).setOverwrittenOptionsAllowed(true);
        command.getCommandSpec().name("rma4j-profile");
        System.exit(command.execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (skip < 0 || skip > 99) {
            System.err.println("rma4j-profile: --skip takes 0 to 99, not " + skip);
            return 2;
        }
        if (floorGate.error() != null) {
            System.err.println("rma4j-profile: " + floorGate.error());
            return 2;
        }
        final List<ProfileScenario> scenarios;
        try {
            scenarios = scenarioIds.stream().map(ProfileScenario::of).toList();
        } catch (final IllegalArgumentException e) {
            System.err.println("rma4j-profile: " + e.getMessage());
            return 2;
        }
        final String base = name != null
            ? name
            : "profile-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmm", Locale.ROOT));
        final Path data = out.resolve(base + "-data");
        Files.createDirectories(data);
        final Perf tool = new Perf(perf);
        try {
            tool.check(data);
        } catch (final IllegalStateException e) {
            System.err.println("rma4j-profile: " + e.getMessage());
            deleteEmpty(data);
            return 2;
        }
        final Results reference = baselineResults();
        final FloorProbe floor = new FloorProbe(Files.createDirectories(data.resolve("floor")), floorGate.ns(),
            floorGate.waitSeconds(), System.out::println);
        final List<ProfileMarkdown.ScenarioProfile> profiles = new ArrayList<>();
        boolean failed = false;
        final Path report = out.resolve(base + ".md");
        final long start = System.nanoTime();
        for (int i = 0; i < scenarios.size(); i++) {
            System.out.printf(Locale.ROOT, "== [%d/%d] profile %s%n", i + 1, scenarios.size(), scenarios.get(i).id());
            final ProfileMarkdown.ScenarioProfile profile = profile(tool, data, scenarios.get(i), reference, floor);
            failed |= profile.error() != null;
            profiles.add(profile);
            // rewritten after each scenario, so that an interrupted run keeps what it measured
            Files.writeString(report, ProfileMarkdown.write(header(floor), profiles, top, frequency),
                StandardCharsets.UTF_8);
            System.out.printf(Locale.ROOT, "%s: %.0f s under perf; %.0f s so far; wrote %s%n", scenarios.get(i).id(),
                profile.seconds(), (System.nanoTime() - start) / 1e9, report);
        }
        if (!keepData) {
            deleteTree(data.resolve("floor"));
            deleteEmpty(data);
        }
        return failed ? 1 : 0;
    }

    private List<String> header(final FloorProbe floor) {
        final List<String> lines = new ArrayList<>();
        lines.add("Date: " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME) + ", "
            + Runtime.getRuntime().availableProcessors() + " CPUs, Java " + Runtime.version() + ".");
        lines.add("");
        lines.add("Method: each scenario runs as the bench harness runs it, under `perf record -F " + frequency
            + " -g` (every process of the job), the rank JVMs with `" + String.join(" ", PROFILING_JVM_OPTIONS)
            + (jvmOptions.isEmpty() ? "" : " " + String.join(" ", jvmOptions)) + "`; latency scenarios: " + iterations
            + " timed round trips after " + warmup + " untimed ones; single operations: as many batches of 32 calls "
            + "by rank 0; sweep rows: 3 warm-up and 3 timed " + "passes of " + messages + " messages (fan-in) or of "
            + (calls != null ? calls + " calls" : "1000000 calls at 2 ranks, 200000 " + "up to 4, 20000 beyond")
            + " (fence, barrier). The figure is the "
            + "run's own median, taken under perf (sampling costs it a few %). The tables count the samples of the last "
            + (100 - skip) + " % of each job's recording (`perf report --time " + skip + "%-100%`): the steady state, "
            + "after the JVMs' start and first warm-up; the JIT compiler threads' share shows whether it was reached. "
            + "Samples count CPU time only: a "
            + "rank asleep in a futex has none; its sleeping shows as the kernel's futex, schedule and wake-up "
            + "symbols and as CPU time below the job's wall time.");
        lines.add("");
        lines.add("Baseline: " + (baseline == null ? "none found" : "`" + baseline + "`") + ".");
        floor.gateNote().ifPresent(note -> {
            lines.add("");
            lines.add(note);
        });
        return lines;
    }

    private ProfileMarkdown.ScenarioProfile profile(final Perf tool, final Path data, final ProfileScenario scenario,
        final Results reference, final FloorProbe floor) throws InterruptedException, IOException {
        final OptionalDouble floorBefore = floor.probe(scenario.id());
        final Path perfData = data.resolve(scenario.slug() + ".data");
        final Path properties = data.resolve(scenario.slug() + ".properties");
        final Path work = Files.createDirectories(data.resolve(scenario.slug()));
        final long t0 = System.nanoTime();
        final int exit = tool.record(perfData, frequency, jobCommand(scenario, properties, work), timeoutSeconds);
        final double seconds = (System.nanoTime() - t0) / 1e9;
        final OptionalDouble floorAfter = floor.measure(scenario.id() + " after");
        final Properties result = new Properties();
        if (Files.exists(properties)) {
            try (var reader = Files.newBufferedReader(properties, StandardCharsets.UTF_8)) {
                result.load(reader);
            }
        }
        String error = result.getProperty("error");
        if (error == null && (exit != 0 || !result.containsKey("figure"))) {
            error = exit == -1
                ? "timed out after " + timeoutSeconds + " s"
                : "perf record or the job ended with " + exit;
        }
        final SortedMap<Integer, PerfReport> ranks = new TreeMap<>();
        final List<String> notes = new ArrayList<>();
        if (floorBefore.isPresent() && floorAfter.isPresent()) {
            notes.add(String.format(Locale.ROOT,
                "The C11 floor (8 B half round trip) just before the job: %.0f ns, just "
                    + "after it: %.0f ns (the machine's mode the job started and ended in).",
                floorBefore.getAsDouble(), floorAfter.getAsDouble()));
        }
        rankReports(tool, perfData, result, ranks, notes);
        if (!keepData) {
            Perf.delete(perfData);
            Perf.delete(properties);
            deleteTree(work);
        }
        final double figure = result.containsKey("figure")
            ? Double.parseDouble(result.getProperty("figure"))
            : Double.NaN;
        return new ProfileMarkdown.ScenarioProfile(scenario, figure, error, seconds, ranks,
            scenario.baselines().stream().map(b -> value(reference, scenario, b)).toList(), notes);
    }

    /**
     * Reports each rank's samples into {@code ranks}, notes a rank without JIT map or whose report fails, and
     * removes the ranks' JIT maps unless {@code --keep-data}.
     */
    private void rankReports(final Perf tool, final Path perfData, final Properties result,
        final SortedMap<Integer, PerfReport> ranks, final List<String> notes) throws InterruptedException {
        for (final String key : result.stringPropertyNames()) {
            if (key.startsWith("rank.")) {
                final long pid = Long.parseLong(key.substring("rank.".length()));
                final Path map = Path.of("/tmp", "perf-" + pid + ".map");
                if (!Files.exists(map)) {
                    notes.add("Rank " + result.getProperty(key) + " left no JIT map (" + map
                        + "): its Java frames are unnamed.");
                }
                if (Files.exists(perfData)) {
                    try {
                        ranks.put(Integer.parseInt(result.getProperty(key)), tool.report(perfData, pid, skip));
                    } catch (final IllegalStateException | IllegalArgumentException e) {
                        notes.add("Rank " + result.getProperty(key) + ": " + e.getMessage());
                    }
                }
                if (!keepData) {
                    Perf.delete(map);
                }
            }
        }
    }

    private List<String> jobCommand(final ProfileScenario scenario, final Path properties, final Path work) {
        final String java = ProcessHandle.current().info().command().orElse("java");
        final List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp",
            System.getProperty("java.class.path"), "org.rma4j.bench.harness.ProfileJob", properties.toString(),
            work.toString(), scenario.kind(), scenario.row()));
        if (!scenario.kind().equals("sweep")) {
            command.addAll(
                List.of(Integer.toString(scenario.size()), Integer.toString(iterations), Integer.toString(warmup)));
        } else {
            final int count = scenario.rate() ? messages : calls != null ? calls : defaultCalls(scenario.ranks());
            command.addAll(List.of(Integer.toString(scenario.ranks()), Integer.toString(count), "0"));
        }
        command.addAll(PROFILING_JVM_OPTIONS);
        command.addAll(jvmOptions);
        return command;
    }

    /** @return fence or barrier calls per pass at {@code ranks}: a few seconds of each on 2 cores. */
    static int defaultCalls(final int ranks) {
        return ranks <= 2 ? 1_000_000 : ranks <= 4 ? 200_000 : 20_000;
    }

    private Results baselineResults() {
        if (baseline == null) {
            final Path docs = Path.of("docs", "benchmarks");
            if (Files.isDirectory(docs)) {
                try (Stream<Path> files = Files.list(docs)) {
                    baseline = files.filter(f -> f.getFileName().toString().matches("full-.*\\.json"))
                        .max(Comparator.comparing(f -> f.getFileName().toString())).orElse(null);
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return baseline == null ? null : Results.read(baseline);
    }

    /**
     * @return the baseline report's value of {@code cell}: a latency or single-operation median in ns, a sweep median
     *         or rate.
     */
    static double value(final Results results, final ProfileScenario scenario, final ProfileScenario.Baseline cell) {
        if (results == null) {
            return Double.NaN;
        }
        if (!scenario.kind().equals("sweep")) {
            return results.measurements().stream()
                .filter(m -> m.impl().equals(cell.impl()) && m.row().equals(cell.row()) && m.sizeBytes() == cell.key())
                .mapToDouble(Measurement::p50Ns).findFirst().orElse(Double.NaN);
        }
        return results.sweeps().stream()
            .filter(m -> m.impl().equals(cell.impl()) && m.row().equals(cell.row()) && m.ranks() == cell.key())
            .mapToDouble(scenario.rate() ? SweepMeasurement::perSecond : SweepMeasurement::medianNs).findFirst()
            .orElse(Double.NaN);
    }

    private static void deleteTree(final Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> tree = Files.walk(root)) {
            for (final Path entry : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(entry);
            }
        }
    }

    private static void deleteEmpty(final Path directory) throws IOException {
        try (Stream<Path> children = Files.list(directory)) {
            if (children.findAny().isEmpty()) {
                Files.delete(directory);
            }
        }
    }
}
