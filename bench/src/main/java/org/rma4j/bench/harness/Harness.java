package org.rma4j.bench.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.rma4j.examples.notified.Sync;
import org.rma4j.shm.JobDirectory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The multi-process harness: runs every row as real processes (rma4j ranks through the launcher, the
 * C11 floor, the MPI peers when their tools are on the PATH), then the Notified Access paper's
 * applications in each synchronization variant ({@link Application}), and writes
 * {@code <out>/<name>.json}, {@code <out>/<name>.md} and the plots {@code <out>/<name>-*.png}.
 * With {@code --from-json} it only rewrites the markdown and plots of an earlier run.
 *
 * <p>A profile ({@code --profile quick|full}, {@link Profile}) gives every count and size the command
 * line does not set. Every step (a Java scenario, a C peer, an application job) starts with a progress
 * line {@code == [k/N] ...} on standard output.
 *
 * <p>Exit status: 0 if every row ran, 1 if a Java scenario or an application job failed or an application
 * computed a wrong result (the others still run and are reported), 2 for bad arguments.
 */
@Command(name = "rma4j-bench", mixinStandardHelpOptions = true, sortOptions = false, description = "Half round trip, single operations and bandwidth of rma4j against a floor, Open MPI and MPICH, "
    + "and the Notified Access applications in each synchronization variant.")
public final class Harness implements Callable<Integer> {
    /** The profile whose counts and sizes fill every option not given; the options say both values. */
    @Option(names = "--profile", description = "quick (a few minutes on 2 cores) or full (the paper's counts); "
        + "the options below override its values (default: ${DEFAULT-VALUE})")
    String profileId = "full";

    @Option(names = {"-o", "--out"}, description = "output directory (default: ${DEFAULT-VALUE})")
    Path out = Path.of("bench", "results");

    @Option(names = "--name", description = "base name of the output files (default: harness-<date>-<time>)")
    String name;

    @Option(names = "--sizes", split = ",", description = "payload sizes in bytes (quick: 8,1024,65536; full: "
        + "8,64,1024,65536,1048576)")
    long[] sizes;

    @Option(names = {"-n", "--iterations"}, description = "timed round trips (or op batches) per size "
        + "(quick: 300; full: 1000)")
    Integer iterations;

    @Option(names = {"-w", "--warmup"}, description = "untimed round trips (or op batches) before them, capped "
        + "at 256 MiB moved per size (quick: 50000; full: 200000)")
    Integer warmup;

    @Option(names = "--bw-samples", description = "timed batches per bandwidth size (quick: 20; full: 100)")
    Integer bwSamples;

    @Option(names = "--java", split = ",", description = "Java scenarios to run (default: all): "
        + "floor, notified-put, put-flush-flag, send-recv, load-store, pscw, fence, ops, bandwidth, memcpy, none")
    List<String> javaScenarios;

    @Option(names = "--peers", description = "C peers: auto (every tool found), c11 (only the C11 floor), none "
        + "(default: ${DEFAULT-VALUE})")
    String peers = "auto";

    @Option(names = "--jvm-option", description = "JVM option of the rank JVMs (repeatable; default: "
        + "-Drma4j.wait=busy-spin)")
    List<String> jvmOptions;

    @Option(names = "--apps", split = ",", description = "applications to run (default: all): stencil, "
        + "tree-reduction, cholesky, none")
    List<String> apps;

    @Option(names = "--app-variants", split = ",", description = "variants of the applications (default: every "
        + "variant each implements): notified, putflush, sendrecv, pscw, fence")
    List<String> appVariants;

    @Option(names = "--app-ranks", split = ",", description = "processes of the application jobs (quick and full: 2,4)")
    List<Integer> appRanks;

    @Option(names = "--app-repeats", description = "timed repetitions of each application run, after one untimed; "
        + "the median is reported (quick: 3; full: 5)")
    Integer appRepeats;

    @Option(names = "--rounds", description = "times the latency, operation and bandwidth part runs; each cell "
        + "keeps the round with the lowest median (quick: 1; full: 3)")
    Integer rounds;

    @Option(names = "--stencil-grids", split = ",", description = "grid sides m of the pipelined stencil, m x m "
        + "(quick: 500,1000; full: 1000,2000,4000)")
    List<Integer> stencilGrids;

    @Option(names = "--stencil-passes", description = "timed passes of each stencil run (quick and full: 5)")
    Integer stencilPasses;

    @Option(names = "--tree-lengths", split = ",", description = "vector lengths (longs) of the tree reduction "
        + "(quick: 8,1024; full: 8,1024,16384)")
    List<Integer> treeLengths;

    @Option(names = "--tree-rounds", description = "timed rounds of each tree reduction run (quick: 300; full: 1000)")
    Integer treeRounds;

    @Option(names = "--cholesky-tiles", split = ",", description = "tiles per side of the tile Cholesky "
        + "(quick: 4,8; full: 8,16,32)")
    List<Integer> choleskyTiles;

    @Option(names = "--cholesky-tile-size", description = "tile side of the tile Cholesky (quick and full: 32)")
    Integer choleskyTileSize;

    @Option(names = "--app-jvm-option", description = "JVM option of the application jobs' ranks (repeatable; "
        + "default: none, so blocked calls spin, yield, then sleep: the jobs may have more ranks than cores)")
    List<String> appJvmOptions;

    @Option(names = "--shm-dir", description = "directory in which the jobs' files are made; the harness makes "
        + "its own directory there and removes it at the end (default: /dev/shm, or -Drma4j.shm.dir)")
    Path shmDir;

    @Option(names = "--scenario-timeout", description = "longest time of one Java scenario or application job, "
        + "seconds; then its ranks are killed and it is reported as failed (default: ${DEFAULT-VALUE})")
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
    private Profile profile;

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
        applyProfile();
        final List<RankMain.Scenario> scenarios = scenarios();
        final List<AppJob> appJobs = appJobs();
        if (!List.of("auto", "c11", "none").contains(peers)) {
            throw usage("--peers must be auto, c11 or none, not " + peers);
        }
        final String base = name != null
            ? name
            : "harness-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmm", Locale.ROOT));
        Files.createDirectories(out);
        awaitQuietMachine();
        final double loadBefore = MachineInfo.loadAverage();
        final String date = ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        final List<Measurement> measurements = new ArrayList<>();
        final List<AppMeasurement> applications = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        final Path work = Files.createTempDirectory("rma4j-bench-harness-");
        final Path shmRoot = shmDir != null ? shmDir : JobDirectory.defaultBase();
        final Path shmBase = Files.createTempDirectory(shmRoot, "rma4j-bench-");
        boolean failed = false;
        Peers.Detection detection = Peers.detect(System.getenv("PATH"));
        if (peers.equals("c11")) {
            detection = new Peers.Detection(detection.gcc(), withoutTools(detection.openMpi()),
                withoutTools(detection.mpich()));
        }
        final boolean messaging = MessagingRow.available();
        final List<RankMain.Scenario> toRun = scenarios.stream()
            .filter(s -> s != RankMain.Scenario.SEND_RECV || messaging).toList();
        final Progress progress = new Progress(rounds * (toRun.size() + peerSteps(detection)) + appJobs.size(), log);
        final Peers peerRunner = new Peers(work, log, notes, label -> progress.begin("C peer: " + label));
        final Optional<Path> probeGcc = peers.equals("none") ? Optional.empty() : detection.gcc();
        try {
            final JavaRunner javaRunner = new JavaRunner(work,
                jvmOptions != null ? jvmOptions : JavaRunner.DEFAULT_JVM_OPTIONS, log,
                Duration.ofSeconds(scenarioTimeoutSeconds), shmBase);
            final List<Measurement> everyRound = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                final String suffix = rounds > 1 ? " (round " + round + "/" + rounds + ")" : "";
                peerRunner.roundSuffix(suffix);
                for (final RankMain.Scenario scenario : toRun) {
                    progress.begin("java " + scenario.id + suffix);
                    peerRunner.probe(probeGcc, "java " + scenario.id + suffix);
                    try {
                        everyRound.addAll(javaRunner.run(scenario, sizes, iterations, warmup, bwSamples));
                    } catch (final IllegalStateException e) {
                        failed = true;
                        notes.add("FAILED" + suffix + ": " + e.getMessage());
                        log.accept(e.getMessage());
                    }
                }
                if (!peers.equals("none")) {
                    everyRound.addAll(peerRunner.runAll(detection, sizes, iterations, warmup, bwSamples));
                }
            }
            measurements.addAll(bestOfRounds(everyRound));
            if (rounds > 1) {
                notes.add("Every latency, operation and bandwidth cell is the best of " + rounds + " rounds (the round "
                    + "with the lowest median, for every implementation alike): on this kind of machine the "
                    + "cross-core latency switches between modes from one minute to the next (see the floor "
                    + "probes), and a single round compares cells measured in different modes.");
            }
            notes.add(MessagingRow.note());
            if (peers.equals("none")) {
                notes.add("C peers not run (--peers none).");
            }
            final AppRunner appRunner = new AppRunner(work, appJvmOptions != null ? appJvmOptions : List.of(), log,
                Duration.ofSeconds(scenarioTimeoutSeconds), shmBase);
            for (final AppJob job : appJobs) {
                progress.begin(job.label());
                try {
                    final List<AppMeasurement> results = appRunner.run(job.app(), job.variants(), job.ranks(),
                        job.size(), job.work(), appRepeats);
                    applications.addAll(results);
                    for (final AppMeasurement m : results) {
                        if (!m.verified()) {
                            failed = true;
                            notes.add("FAILED: application " + m.app() + " " + m.variant() + " (" + m.ranks()
                                + " ranks, " + m.sizeLabel() + ") computed a wrong result.");
                        }
                    }
                } catch (final IllegalStateException e) {
                    failed = true;
                    notes.add("FAILED: " + e.getMessage());
                    log.accept(e.getMessage());
                }
            }
            if (!toRun.isEmpty()) {
                notes.addAll(FanInSweep.runInto(out.resolve(base + "-fanin.md"), work, shmBase, log,
                    detection.openMpi(), profile.id().equals("quick") ? 200_000 : 1_000_000));
            }
            progress.finish();
        } finally {
            Processes.deleteTree(work);
            Processes.deleteTree(shmBase);
        }
        final Results results = new Results(
            new Results.RunInfo(date, MachineInfo.describe(),
                System.getProperty("java.vm.name") + " " + Runtime.version(), loadBefore, MachineInfo.loadAverage(),
                commandLine, Arrays.stream(sizes).boxed().toList(), iterations, warmup, bwSamples,
                MachineInfo.toolVersions(detection, work.getParent()), profile.id(),
                Runtime.getRuntime().availableProcessors(), appJvmOptions != null ? appJvmOptions : List.of()),
            measurements, List.copyOf(new LinkedHashSet<>(notes)), peerRunner.probes(), applications);
        results.write(out.resolve(base + ".json"));
        report(results, out, base);
        return failed ? 1 : 0;
    }

    /** One application job: an application at one rank count and size, every selected variant. */
    record AppJob(Application app, List<Sync> variants, int ranks, int size, int work) {
        String label() {
            return "application " + app.id + ", " + ranks + " ranks, " + app.sizeLabel(size, work);
        }
    }

    /**
     * Fills every count and size the command line did not set from the profile, and checks them.
     */
    /**
     * Keeps, of the measurements of one (implementation, row, size) taken in several rounds, the one with the
     * lowest median, in the order the cells were first measured.
     */
    static List<Measurement> bestOfRounds(final List<Measurement> everyRound) {
        final Map<String, Measurement> best = new LinkedHashMap<>();
        for (final Measurement m : everyRound) {
            best.merge(m.impl() + "\u0000" + m.row() + "\u0000" + m.sizeBytes(), m,
                (kept, other) -> other.p50Ns() < kept.p50Ns() ? other : kept);
        }
        return List.copyOf(best.values());
    }

    private void applyProfile() {
        try {
            profile = Profile.of(profileId);
        } catch (final IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        if (sizes == null) {
            sizes = profile.sizes().stream().mapToLong(Long::longValue).toArray();
        }
        iterations = iterations != null ? iterations : profile.iterations();
        warmup = warmup != null ? warmup : profile.warmup();
        bwSamples = bwSamples != null ? bwSamples : profile.bwSamples();
        appRanks = appRanks != null ? appRanks : profile.appRanks();
        appRepeats = appRepeats != null ? appRepeats : profile.appRepeats();
        rounds = rounds != null ? rounds : profile.rounds();
        if (rounds < 1) {
            throw usage("--rounds must be >= 1, not " + rounds);
        }
        stencilGrids = stencilGrids != null ? stencilGrids : profile.stencilGrids();
        stencilPasses = stencilPasses != null ? stencilPasses : profile.stencilPasses();
        treeLengths = treeLengths != null ? treeLengths : profile.treeLengths();
        treeRounds = treeRounds != null ? treeRounds : profile.treeRounds();
        choleskyTiles = choleskyTiles != null ? choleskyTiles : profile.choleskyTiles();
        choleskyTileSize = choleskyTileSize != null ? choleskyTileSize : profile.choleskyTileSize();
        if (iterations < 1 || warmup < 0 || bwSamples < 1 || sizes.length == 0
            || Arrays.stream(sizes).anyMatch(s -> s < 1)) {
            throw usage("iterations, bw-samples and sizes must be >= 1, warmup >= 0");
        }
        if (appRepeats < 1 || appRanks.isEmpty() || appRanks.stream().anyMatch(r -> r < 1)) {
            throw usage("app-repeats and app-ranks must be >= 1");
        }
    }

    /**
     * @return the application jobs to run: every application, rank count and size, in that order.
     */
    private List<AppJob> appJobs() {
        if (appVariants != null) {
            for (final String label : appVariants) {
                if (Arrays.stream(Sync.values()).noneMatch(v -> v.label().equals(label))) {
                    throw usage("unknown variant " + label + "; known: " + Sync.labels(List.of(Sync.values())));
                }
            }
        }
        final List<Application> selected;
        if (apps == null) {
            selected = List.of(Application.values());
        } else if (apps.equals(List.of("none"))) {
            selected = List.of();
        } else {
            try {
                selected = apps.stream().map(Application::of).toList();
            } catch (final IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
        }
        final List<AppJob> jobs = new ArrayList<>();
        for (final Application app : selected) {
            final List<Sync> variants = app.variants.stream()
                .filter(v -> appVariants == null || appVariants.contains(v.label())).toList();
            if (variants.isEmpty()) {
                continue;
            }
            final List<Integer> appSizes = switch (app) {
                case STENCIL -> stencilGrids;
                case TREE_REDUCTION -> treeLengths;
                case CHOLESKY -> choleskyTiles;
            };
            final int appWork = switch (app) {
                case STENCIL -> stencilPasses;
                case TREE_REDUCTION -> treeRounds;
                case CHOLESKY -> choleskyTileSize;
            };
            for (final int ranks : appRanks) {
                for (final int size : appSizes) {
                    try {
                        app.check(size, appWork, ranks);
                    } catch (final IllegalArgumentException e) {
                        throw usage(e.getMessage());
                    }
                    jobs.add(new AppJob(app, variants, ranks, size, appWork));
                }
            }
        }
        return jobs;
    }

    /**
     * @return the progress steps of the C peers: one per peer whose tools were found.
     */
    private int peerSteps(final Peers.Detection detection) {
        if (peers.equals("none")) {
            return 0;
        }
        return (detection.gcc().isPresent() ? 1 : 0) + (detection.openMpi().present() ? 1 : 0)
            + (detection.mpich().present() ? 1 : 0);
    }

    private CommandLine.ParameterException usage(final String message) {
        return new CommandLine.ParameterException(new CommandLine(this), message);
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
        try {
            return javaScenarios.stream().map(RankMain.Scenario::of).toList();
        } catch (final IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
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
