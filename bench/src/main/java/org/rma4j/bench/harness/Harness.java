package org.rma4j.bench.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.rma4j.examples.notified.Sync;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The multi-process harness: runs every row as real processes (rma4j ranks through the launcher, the
 * C11 floor, the MPI peers when their tools are on the PATH), the Notified Access paper's cost
 * parameters, its applications in each synchronization variant ({@link Application}) beside their C
 * peers on Open MPI, the throughput and scale sweep ({@link Sweeps}) and the loaded ping-pongs
 * ({@link LoadedSection}); the steps run in a {@link HarnessRun}. It writes {@code <out>/<name>.json},
 * {@code <out>/<name>.md} and the plots {@code <out>/<name>-*.png}. With {@code --from-json} it only
 * rewrites the markdown and plots of an earlier run; with {@code --compare} it prints how far two runs'
 * cells are apart ({@link Compare}).
 *
 * <p>A profile ({@code --profile quick|full}, {@link Profile}) gives every count and size the command
 * line does not set. Every step (a Java scenario, a C peer, an application job, a sweep or loaded job)
 * starts with a progress line {@code == [k/N] ...} on standard output.
 *
 * <p>Exit status: 0 if every row ran, 1 if a Java scenario or a job failed or an application computed a
 * wrong result (the others still run and are reported), 2 for bad arguments.
 */
@Command(name = "rma4j-bench", mixinStandardHelpOptions = true, sortOptions = false, description = "Half round trip, single operations and bandwidth of rma4j against a floor, Open MPI and MPICH, "
    + "the Notified Access cost parameters and applications (beside C peers on Open MPI), a throughput and "
    + "scale sweep, and ping-pongs on a loaded machine.")
public final class Harness implements Callable<Integer> {
    /** The profile whose counts and sizes fill every option not given; the options say both values. */
    /** The parts of a run, in the order they run. */
    static final List<String> PARTS = List.of("latency", "applications", "sweep", "loaded");

    @Option(names = "--parts", split = ",", description = "parts to run (default: all): latency (Java scenarios, "
        + "C peers, cost parameters), applications (with their C peers), sweep, loaded")
    List<String> parts;

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
        + "floor, notify-lanes, notified-put, counter-put, put-flush-flag, send-recv, load-store, pscw, fence, ops, bandwidth, memcpy, costs, "
        + "none")
    List<String> javaScenarios;

    @Option(names = "--peers", description = "C peers: auto (every tool found; the applications, the sweep and the "
        + "loaded section with Open MPI), c11 (only the C11 floor), none (default: ${DEFAULT-VALUE})")
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

    @Option(names = "--app-ranks", split = ",", description = "processes of the application jobs (quick and full: "
        + "2,4,8)")
    List<Integer> appRanks;

    @Option(names = "--app-repeats", description = "timed repetitions of each application run, after one untimed; "
        + "the median is reported (quick: 3; full: 5)")
    Integer appRepeats;

    @Option(names = "--app-warmup-ms", description = "least untimed time of each application job (rma4j's and the "
        + "C peer's) before its timed repetitions, at least one round of every variant; rma4j's jobs go on while the "
        + "JIT compiles, up to 10 times as long (quick: 1000; full: 3000)")
    Long appWarmupMs;

    @Option(names = "--rounds", description = "times the latency, operation and bandwidth part and the application "
        + "part run; each latency cell keeps the round with the lowest median, each application cell the round with "
        + "the highest median throughput (quick: 1; full: 3)")
    Integer rounds;

    @Option(names = "--stencil-grids", split = ",", description = "grid sides m of the pipelined stencil, m x m "
        + "(quick: 500; full: 1000,2000,4000)")
    List<Integer> stencilGrids;

    @Option(names = "--stencil-passes", description = "timed passes of each stencil run (quick and full: 5)")
    Integer stencilPasses;

    @Option(names = "--tree-lengths", split = ",", description = "vector lengths (longs) of the tree reduction "
        + "(quick: 1024; full: 8,1024,16384)")
    List<Integer> treeLengths;

    @Option(names = "--tree-rounds", description = "timed rounds of each tree reduction run (quick: 300; full: 1000)")
    Integer treeRounds;

    @Option(names = "--cholesky-tiles", split = ",", description = "tiles per side of the tile Cholesky "
        + "(quick: 8; full: 8,16,32)")
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

    @Mixin
    FloorGateOptions floorGate = new FloorGateOptions();

    @Option(names = "--sweep-ranks", split = ",", description = "rank counts of the throughput and scale sweep "
        + "(quick and full: 2,4,8)")
    List<Integer> sweepRanks;

    @Option(names = "--sweep-messages", description = "8-byte messages the fan-in's consumer receives per pass, "
        + "split over the producers; 0: no sweep (quick: 20000; full: 8000000)")
    Integer sweepMessages;

    @Option(names = "--sweep-calls", description = "fence and barrier calls per pass of the sweep at 2 ranks; "
        + "2/n of it at n ranks (quick: 2000; full: 1000000)")
    Integer sweepCalls;

    @Option(names = "--background-load", description = "busy processes (while :; do :; done) beside the loaded "
        + "ping-pongs, started for each step of that section and killed after it; 0: no loaded section (quick and "
        + "full: 4)")
    Integer backgroundLoad;

    @Option(names = "--loaded-iterations", description = "timed round trips of each loaded ping-pong, after as "
        + "many untimed ones (quick: 20000; full: 200000)")
    Integer loadedIterations;

    @Option(names = "--from-json", description = "only rewrite the report and plots of this results file")
    Path fromJson;

    @Option(names = "--compare", split = ",", description = "A.json,B.json: print how far every application and "
        + "sweep cell of run B is from run A (the stability check), then exit")
    List<Path> compare;

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
        if (compare != null) {
            return compare();
        }
        if (fromJson != null) {
            final Results results = Results.read(fromJson);
            final String base = fromJson.getFileName().toString().replaceFirst("\\.json$", "");
            final Path directory = fromJson.toAbsolutePath().getParent();
            report(results, directory, base);
            return 0;
        }
        applyProfile();
        applyParts();
        final List<RankMain.Scenario> scenarios = parts.contains("latency") ? scenarios() : List.of();
        final List<AppJob> appJobs = parts.contains("applications") ? appJobs() : List.of();
        final String base = name != null
            ? name
            : "harness-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmm", Locale.ROOT));
        Files.createDirectories(out);
        awaitQuietMachine();
        final double loadBefore = MachineInfo.loadAverage();
        final String date = ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        final boolean messaging = MessagingRow.available();
        final List<RankMain.Scenario> toRun = scenarios.stream()
            .filter(s -> s != RankMain.Scenario.SEND_RECV || messaging).toList();
        final Results results;
        final boolean failed;
        try (HarnessRun run = new HarnessRun(this, log, toRun, appJobs)) {
            if (parts.contains("latency")) {
                run.latency(toRun);
            }
            run.applications(appJobs);
            run.sweeps();
            run.loaded();
            results = run.results(date, loadBefore, commandLine);
            failed = run.failed();
        }
        results.write(out.resolve(base + ".json"));
        report(results, out, base);
        return failed ? 1 : 0;
    }

    /**
     * Prints how far the cells of the second results file are from the first's ({@link Compare}).
     */
    private int compare() {
        if (compare.size() != 2) {
            throw usage("--compare takes two results files, A.json,B.json");
        }
        log.accept(Compare.markdown(Results.read(compare.get(0)), Results.read(compare.get(1)),
            compare.get(0).getFileName().toString(), compare.get(1).getFileName().toString()));
        return 0;
    }

    /**
     * Checks {@code --parts} and {@code --peers}; a part left out sets its count to 0.
     */
    private void applyParts() {
        if (parts == null) {
            parts = PARTS;
        }
        if (!PARTS.containsAll(parts)) {
            throw usage("--parts takes " + String.join(", ", PARTS) + ", not " + parts);
        }
        if (!parts.contains("sweep")) {
            sweepMessages = 0;
        }
        if (!parts.contains("loaded")) {
            backgroundLoad = 0;
        }
        if (!List.of("auto", "c11", "none").contains(peers)) {
            throw usage("--peers must be auto, c11 or none, not " + peers);
        }
    }

    /** One application job: an application at one rank count and size, every selected variant. */
    record AppJob(Application app, List<Sync> variants, int ranks, int size, int work) {
        String label() {
            return "application " + app.id + ", " + ranks + " ranks, " + app.sizeLabel(size, work);
        }
    }

    /**
     * Keeps, of the measurements of one (implementation, row, size) taken in several rounds, the one with the
     * lowest median, in the order the cells were first measured.
     */
    static List<Measurement> bestOfRounds(final List<Measurement> everyRound) {
        return lowestPerCell(everyRound, m -> List.of(m.impl(), m.row(), m.sizeBytes()), Measurement::p50Ns);
    }

    /**
     * Keeps, of measurements of one cell ({@code cell} equal) taken in several rounds, the one with the lowest
     * {@code median}, in the order the cells were first measured: the best-of rule of the latency part and the
     * loaded section.
     */
    static <T> List<T> lowestPerCell(final List<T> everyRound, final Function<T, Object> cell,
        final ToDoubleFunction<T> median) {
        final Map<Object, T> best = new LinkedHashMap<>();
        for (final T m : everyRound) {
            best.merge(cell.apply(m), m,
                (kept, other) -> median.applyAsDouble(other) < median.applyAsDouble(kept) ? other : kept);
        }
        return List.copyOf(best.values());
    }

    /**
     * Fills every count and size the command line did not set from the profile, and checks them.
     */
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
        appWarmupMs = appWarmupMs != null ? appWarmupMs : profile.appWarmupMs();
        rounds = rounds != null ? rounds : profile.rounds();
        sweepRanks = sweepRanks != null ? sweepRanks : profile.sweepRanks();
        sweepMessages = sweepMessages != null ? sweepMessages : profile.sweepMessages();
        sweepCalls = sweepCalls != null ? sweepCalls : profile.sweepCalls();
        backgroundLoad = backgroundLoad != null ? backgroundLoad : profile.backgroundLoad();
        loadedIterations = loadedIterations != null ? loadedIterations : profile.loadedIterations();
        if (sweepRanks.stream().anyMatch(r -> r < 2) || sweepMessages < 0 || sweepCalls < 1 || backgroundLoad < 0
            || loadedIterations < 1) {
            throw usage("sweep-ranks must be >= 2, sweep-messages and background-load >= 0, sweep-calls and "
                + "loaded-iterations >= 1");
        }
        if (rounds < 1) {
            throw usage("--rounds must be >= 1, not " + rounds);
        }
        if (floorGate.error() != null) {
            throw usage(floorGate.error());
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
        if (appRepeats < 1 || appWarmupMs < 0 || appRanks.isEmpty() || appRanks.stream().anyMatch(r -> r < 1)) {
            throw usage("app-repeats and app-ranks must be >= 1, app-warmup-ms >= 0");
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
