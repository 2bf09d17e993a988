package org.rma4j.bench.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The multi-process harness: runs every row as real processes (rma4j ranks through the launcher, the
 * C11 floor, the MPI peers when their tools are on the PATH), then writes
 * {@code <out>/<name>.json}, {@code <out>/<name>.md} and the plots {@code <out>/<name>-*.png}.
 * With {@code --from-json} it only rewrites the markdown and plots of an earlier run.
 *
 * <p>Exit status: 0 if every row ran, 1 if a Java scenario failed (the others still run and are
 * reported), 2 for bad arguments.
 */
@Command(name = "rma4j-bench", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Half round trip, single operations and bandwidth of rma4j against a floor, Open MPI and MPICH.")
public final class Harness implements Callable<Integer> {
    static final String DEFAULT_SIZES = "8,64,1024,65536,1048576";

    @Option(names = {"-o", "--out"}, description = "output directory (default: ${DEFAULT-VALUE})")
    Path out = Path.of("bench", "results");

    @Option(names = "--name", description = "base name of the output files (default: harness-<date>-<time>)")
    String name;

    @Option(names = "--sizes", split = ",", description = "payload sizes in bytes (default: " + DEFAULT_SIZES + ")")
    long[] sizes = Arrays.stream(DEFAULT_SIZES.split(",")).mapToLong(Long::parseLong).toArray();

    @Option(names = {"-n", "--iterations"}, description = "timed round trips (or op batches) per size "
        + "(default: ${DEFAULT-VALUE})")
    int iterations = 1000;

    @Option(names = {"-w", "--warmup"}, description = "untimed round trips (or op batches) before them, capped "
        + "at 256 MiB moved per size (default: ${DEFAULT-VALUE})")
    int warmup = 20_000;

    @Option(names = "--bw-samples", description = "timed batches per bandwidth size (default: ${DEFAULT-VALUE})")
    int bwSamples = 100;

    @Option(names = "--java", split = ",", description = "Java scenarios to run (default: all): "
        + "floor, notified-put, put-flush-flag, send-recv, load-store, pscw, fence, ops, bandwidth, memcpy, none")
    List<String> javaScenarios;

    @Option(names = "--peers", description = "C peers: auto (every tool found), c11 (only the C11 floor), none "
        + "(default: ${DEFAULT-VALUE})")
    String peers = "auto";

    @Option(names = "--jvm-option", description = "JVM option of the rank JVMs (repeatable; default: "
        + "-Drma4j.wait=busy-spin)")
    List<String> jvmOptions;

    @Option(names = "--scenario-timeout", description = "longest time of one Java scenario, seconds; then its "
        + "ranks are killed and the scenario is reported as failed (default: ${DEFAULT-VALUE})")
    int scenarioTimeoutSeconds = 600;

    @Option(names = "--wait-for-load", description = "before measuring, wait until the 1-minute load average is "
        + "below this (0: do not wait; default: ${DEFAULT-VALUE})")
    double waitForLoad = 0;

    @Option(names = "--max-wait", description = "longest wait for --wait-for-load, seconds (default: ${DEFAULT-VALUE})")
    int maxWaitSeconds = 600;

    @Option(names = "--from-json", description = "only rewrite the report and plots of this results file")
    Path fromJson;

    private final Consumer<String> log;
    private String commandLine = "";

    Harness(final Consumer<String> log) {
        this.log = log;
    }

    public static void main(final String[] args) {
        final Harness harness = new Harness(System.out::println);
        harness.commandLine = "rma4j-bench " + String.join(" ", args);
        final CommandLine command = new CommandLine(harness).setOverwrittenOptionsAllowed(true);
        System.exit(command.execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (fromJson != null) {
            final Results results = Results.read(fromJson);
            final String base = fromJson.getFileName().toString().replaceFirst("\\.json$", "");
            final Path directory = fromJson.toAbsolutePath().getParent();
            report(results, directory, base);
            return 0;
        }
        if (iterations < 1 || warmup < 0 || bwSamples < 1 || sizes.length == 0 || Arrays.stream(sizes).anyMatch(s -> s < 1)) {
            throw new CommandLine.ParameterException(new CommandLine(this), "iterations, bw-samples and sizes must be "
                + ">= 1, warmup >= 0");
        }
        final String base = name != null ? name
            : "harness-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmm", Locale.ROOT));
        Files.createDirectories(out);
        awaitQuietMachine();
        final double loadBefore = MachineInfo.loadAverage();
        final String date = ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        final List<Measurement> measurements = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        final Path work = Files.createTempDirectory("rma4j-bench-harness-");
        boolean failed = false;
        Peers.Detection detection = Peers.detect(System.getenv("PATH"));
        final Peers peerRunner = new Peers(work, log, notes);
        final Optional<Path> probeGcc = peers.equals("none") ? Optional.empty() : detection.gcc();
        try {
            final JavaRunner javaRunner = new JavaRunner(work, jvmOptions != null ? jvmOptions : JavaRunner.DEFAULT_JVM_OPTIONS,
                log, Duration.ofSeconds(scenarioTimeoutSeconds));
            for (final RankMain.Scenario scenario : scenarios()) {
                if (scenario == RankMain.Scenario.SEND_RECV && !MessagingRow.available()) {
                    continue;
                }
                peerRunner.probe(probeGcc, "java " + scenario.id);
                log.accept("== java " + scenario.id);
                try {
                    measurements.addAll(javaRunner.run(scenario, sizes, iterations, warmup, bwSamples));
                } catch (final IllegalStateException e) {
                    failed = true;
                    notes.add("FAILED: " + e.getMessage());
                    log.accept(e.getMessage());
                }
            }
            notes.add(MessagingRow.note());
            switch (peers) {
                case "none" -> notes.add("C peers not run (--peers none).");
                case "c11" -> detection = new Peers.Detection(detection.gcc(), withoutTools(detection.openMpi()),
                    withoutTools(detection.mpich()));
                case "auto" -> { }
                default -> throw new CommandLine.ParameterException(new CommandLine(this),
                    "--peers must be auto, c11 or none, not " + peers);
            }
            if (!peers.equals("none")) {
                log.accept("== C peers");
                measurements.addAll(peerRunner.runAll(detection, sizes, iterations, warmup, bwSamples));
            }
        } finally {
            Processes.deleteTree(work);
        }
        final Results results = new Results(new Results.RunInfo(date, MachineInfo.describe(),
            System.getProperty("java.vm.name") + " " + Runtime.version(), loadBefore, MachineInfo.loadAverage(),
            commandLine, Arrays.stream(sizes).boxed().toList(), iterations, warmup, bwSamples,
            MachineInfo.toolVersions(detection, work.getParent())), measurements, notes, peerRunner.probes());
        results.write(out.resolve(base + ".json"));
        report(results, out, base);
        return failed ? 1 : 0;
    }

    private void report(final Results results, final Path directory, final String base) {
        final List<String> plots = Plots.write(results, directory, base);
        ReportWriter.write(results, directory.resolve(base + ".md"), plots);
        log.accept("wrote " + directory.resolve(base + ".md") + ", " + base + ".json and " + plots);
    }

    private List<RankMain.Scenario> scenarios() {
        if (javaScenarios == null) {
            return List.of(RankMain.Scenario.values());
        }
        if (javaScenarios.equals(List.of("none"))) {
            return List.of();
        }
        return javaScenarios.stream().map(RankMain.Scenario::of).toList();
    }

    private static Peers.MpiTool withoutTools(final Peers.MpiTool tool) {
        return new Peers.MpiTool(tool.impl(), tool.compiler(), tool.launcher(), java.util.Optional.empty(),
            java.util.Optional.empty());
    }

    private void awaitQuietMachine() throws InterruptedException {
        if (waitForLoad <= 0) {
            return;
        }
        final long deadline = System.nanoTime() + maxWaitSeconds * 1_000_000_000L;
        double load;
        while ((load = MachineInfo.loadAverage()) >= waitForLoad && System.nanoTime() < deadline) {
            log.accept(String.format(Locale.ROOT, "load %.2f >= %.2f, waiting", load, waitForLoad));
            Thread.sleep(15_000);
        }
    }
}
