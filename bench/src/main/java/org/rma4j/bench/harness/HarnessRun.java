package org.rma4j.bench.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.rma4j.shm.JobDirectory;

/**
 * One measuring run of the harness, part by part, with the options of its {@link Harness}: the latency,
 * operation and bandwidth part (Java scenarios and C peers, in rounds), the applications (rma4j's programs
 * and their C peers on Open MPI, in rounds), the throughput and scale sweep, and the loaded section. A
 * failing step is a note (and makes {@link #failed()} true); the other steps still run. {@link #close()}
 * removes the run's work and /dev/shm directories whatever happened.
 */
final class HarnessRun implements AutoCloseable {
    private final Harness options;
    private final Consumer<String> log;
    private final Path work;
    private final Path shmBase;
    private final Duration timeout;
    private final Peers.Detection detection;
    private final Peers peers;
    private final Progress progress;
    private final List<String> notes = new ArrayList<>();
    private final List<Measurement> measurements = new ArrayList<>();
    private final List<AppMeasurement> applications = new ArrayList<>();
    private final List<SweepMeasurement> sweeps = new ArrayList<>();
    private final List<LoadedMeasurement> loaded = new ArrayList<>();
    private boolean failed;

    /**
     * Makes the work directories and counts the steps.
     *
     * @param scenarios the Java scenarios that will run.
     * @param appJobs   the application jobs that will run.
     */
    HarnessRun(final Harness options, final Consumer<String> log, final List<RankMain.Scenario> scenarios,
        final List<Harness.AppJob> appJobs) throws IOException {
        this.options = options;
        this.log = log;
        this.work = Files.createTempDirectory("rma4j-bench-harness-");
        final Path shmRoot = options.shmDir != null ? options.shmDir : JobDirectory.defaultBase();
        this.shmBase = Files.createTempDirectory(shmRoot, "rma4j-bench-");
        this.timeout = Duration.ofSeconds(options.scenarioTimeoutSeconds);
        Peers.Detection found = Peers.detect(System.getenv("PATH"));
        if (!options.peers.equals("auto")) {
            found = new Peers.Detection(options.peers.equals("none") ? Optional.empty() : found.gcc(),
                withoutTools(found.openMpi()), withoutTools(found.mpich()));
        }
        this.detection = found;
        final int openMpi = detection.openMpi().present() ? 1 : 0;
        final int latencySteps = options.parts.contains("latency") ? scenarios.size() + peerSteps() : 0;
        final int steps = options.rounds * latencySteps + options.rounds * appJobs.size() * (1 + openMpi)
            + (options.sweepMessages > 0 ? options.sweepRanks.size() * (1 + openMpi) : 0)
            + (options.backgroundLoad > 0 ? options.rounds * 2 * (1 + openMpi) : 0);
        this.progress = new Progress(steps, log);
        this.peers = new Peers(work, log, notes, label -> progress.begin("C peer: " + label));
        peers.floorGate(options.floorGate.ns(), options.floorGate.waitSeconds());
    }

    /** @return whether a step failed or an application computed a wrong result. */
    boolean failed() {
        return failed;
    }

    /** @return what was found on the PATH, with the tools {@code --peers} excludes removed. */
    Peers.Detection detection() {
        return detection;
    }

    /** @return the run's work directory (sources, programs, samples). */
    Path work() {
        return work;
    }

    /**
     * The latency, operation and bandwidth part, {@code --rounds} times; every cell keeps its best round.
     */
    void latency(final List<RankMain.Scenario> scenarios) throws InterruptedException {
        final JavaRunner javaRunner = new JavaRunner(work,
            options.jvmOptions != null ? options.jvmOptions : JavaRunner.DEFAULT_JVM_OPTIONS, log, timeout, shmBase);
        final List<Measurement> everyRound = new ArrayList<>();
        for (int round = 1; round <= options.rounds; round++) {
            final String suffix = roundSuffix(round);
            peers.roundSuffix(suffix);
            for (final RankMain.Scenario scenario : scenarios) {
                beginStep("java " + scenario.id + suffix);
                final long[] sizes = scenario == RankMain.Scenario.COSTS ? CostScenario.SIZES : options.sizes;
                try {
                    everyRound
                        .addAll(javaRunner.run(scenario, sizes, options.iterations, options.warmup, options.bwSamples));
                } catch (final IllegalStateException e) {
                    fail("FAILED" + suffix + ": " + e.getMessage());
                }
            }
            if (!options.peers.equals("none")) {
                everyRound.addAll(
                    peers.runAll(detection, options.sizes, options.iterations, options.warmup, options.bwSamples));
            }
        }
        measurements.addAll(Harness.bestOfRounds(everyRound));
        if (options.rounds > 1) {
            notes.add("Every latency, operation and bandwidth cell is the best of " + options.rounds + " rounds (the "
                + "round with the lowest median, for every implementation alike): on this kind of machine the "
                + "cross-core latency switches between modes from one minute to the next (see the floor "
                + "probes), and a single round compares cells measured in different modes.");
        }
        notes.add(MessagingRow.note());
        if (options.peers.equals("none")) {
            notes.add("C peers not run (--peers none).");
        }
    }

    /**
     * The applications, {@code --rounds} times: each job of rma4j's program, then its C peer on Open MPI at
     * the same rank count and size; every cell keeps its best round. Each job starts after a floor probe (and
     * so behind the floor gate), as the latency part's steps do.
     */
    void applications(final List<Harness.AppJob> jobs) throws InterruptedException {
        final AppRunner appRunner = new AppRunner(work,
            options.appJvmOptions != null ? options.appJvmOptions : List.of(), log, timeout, shmBase);
        final PeerApps peerApps = detection.openMpi().present()
            ? new PeerApps(peers, detection.openMpi(), timeout)
            : null;
        final List<AppMeasurement> everyRound = new ArrayList<>();
        for (int round = 1; round <= options.rounds; round++) {
            final String suffix = roundSuffix(round);
            for (final Harness.AppJob job : jobs) {
                beginStep(job.label() + suffix);
                try {
                    everyRound.addAll(appRunner.run(job.app(), job.variants(), job.ranks(), job.size(), job.work(),
                        options.appRepeats, options.appWarmupMs));
                } catch (final IllegalStateException e) {
                    fail("FAILED" + suffix + ": " + e.getMessage());
                }
                if (peerApps != null) {
                    beginPeerStep(Peers.label(Rows.OPENMPI) + " " + job.label() + suffix);
                    everyRound.addAll(peerApps.run(job.app(), job.ranks(), job.size(), job.work(), options.appRepeats,
                        options.appWarmupMs));
                }
            }
        }
        for (final AppMeasurement m : AppMeasurement.bestOfRounds(everyRound)) {
            applications.add(m);
            if (!m.verified()) {
                fail("FAILED: application " + m.app() + " " + m.variant() + " of " + Peers.label(m.impl()) + " ("
                    + m.ranks() + " ranks, " + m.sizeLabel() + ") computed a wrong result.");
            }
        }
        if (!jobs.isEmpty() && peerApps == null) {
            notes.add("The applications' C peers need Open MPI (mpicc.openmpi, mpirun.openmpi): not run.");
        }
    }

    /**
     * The throughput and scale sweep at every rank count of {@code --sweep-ranks}: rma4j's job, then Open
     * MPI's, each after a floor probe (and so behind the floor gate).
     */
    void sweeps() throws InterruptedException {
        if (options.sweepMessages <= 0) {
            return;
        }
        final Sweeps runner = new Sweeps(work, log, notes, timeout, shmBase);
        final List<String> jvmOptions = options.appJvmOptions != null ? options.appJvmOptions : List.of();
        for (final int ranks : options.sweepRanks) {
            beginStep("sweep: rma4j, " + ranks + " ranks");
            try {
                sweeps.addAll(runner.rma4j(ranks, options.sweepMessages, options.sweepCalls, jvmOptions));
            } catch (final IllegalStateException e) {
                fail("FAILED: " + e.getMessage());
            }
            if (detection.openMpi().present()) {
                beginStep("sweep: " + Peers.label(Rows.OPENMPI) + ", " + ranks + " ranks");
                sweeps
                    .addAll(runner.peer(peers, detection.openMpi(), ranks, options.sweepMessages, options.sweepCalls));
            }
        }
    }

    /**
     * The loaded section, {@code --rounds} times: every ping-pong without background load, then beside
     * {@code --background-load} busy processes; each cell keeps its best round
     * ({@link LoadedMeasurement#bestOfRounds}).
     */
    void loaded() throws InterruptedException {
        if (options.backgroundLoad <= 0) {
            return;
        }
        final LoadedSection section = new LoadedSection(work, log, timeout, shmBase);
        final List<LoadedMeasurement> everyRound = new ArrayList<>();
        for (int round = 1; round <= options.rounds; round++) {
            final String of = " (round " + round + "/" + options.rounds + ")";
            for (final int load : List.of(0, options.backgroundLoad)) {
                progress.begin("loaded ping-pong: rma4j PingPong example, " + load + " busy processes" + of);
                try {
                    everyRound.addAll(section.rma4j(load, options.loadedIterations));
                } catch (final IllegalStateException e) {
                    fail("FAILED: " + e.getMessage());
                }
                if (detection.openMpi().present()) {
                    progress
                        .begin("loaded ping-pong: " + Peers.label(Rows.OPENMPI) + ", " + load + " busy processes" + of);
                    everyRound.addAll(section.peer(peers, detection.openMpi(), load, options.loadedIterations));
                }
            }
        }
        loaded.addAll(LoadedMeasurement.bestOfRounds(everyRound));
    }

    /**
     * Begins a step that the floor gate holds: its progress line, then a floor probe under the same label.
     */
    private void beginStep(final String label) {
        progress.begin(label);
        peers.probe(detection.gcc(), label);
    }

    /**
     * Begins a C peer's step as {@link Peers} does for the latency part's: progress line "C peer: label", probe
     * "label".
     */
    private void beginPeerStep(final String label) {
        progress.begin("C peer: " + label);
        peers.probe(detection.gcc(), label);
    }

    /**
     * @return everything measured, with the run's circumstances.
     */
    Results results(final String date, final double loadBefore, final String commandLine) {
        progress.finish();
        // NOTE: here, not after the latency part: the applications' and the sweep's jobs are gated too
        peers.floorGateNote().ifPresent(notes::add);
        final Results.RunInfo info = new Results.RunInfo(date, MachineInfo.describe(),
            System.getProperty("java.vm.name") + " " + Runtime.version(), loadBefore, MachineInfo.loadAverage(),
            commandLine, Arrays.stream(options.sizes).boxed().toList(), options.iterations, options.warmup,
            options.bwSamples, MachineInfo.toolVersions(detection, work), options.profileId,
            Runtime.getRuntime().availableProcessors(),
            options.appJvmOptions != null ? options.appJvmOptions : List.of(), options.rounds, options.sweepMessages,
            options.sweepCalls, Sweeps.RUNS, options.backgroundLoad, options.loadedIterations, options.appWarmupMs);
        return new Results(info, measurements, List.copyOf(new LinkedHashSet<>(notes)), peers.probes(), applications,
            sweeps, loaded);
    }

    @Override
    public void close() {
        Processes.deleteTree(work);
        Processes.deleteTree(shmBase);
    }

    private void fail(final String note) {
        failed = true;
        notes.add(note);
        log.accept(note);
    }

    private String roundSuffix(final int round) {
        return options.rounds > 1 ? " (round " + round + "/" + options.rounds + ")" : "";
    }

    /** @return the progress steps of the C peers of the latency part: one per peer whose tools were found. */
    private int peerSteps() {
        if (options.peers.equals("none")) {
            return 0;
        }
        return (detection.gcc().isPresent() ? 1 : 0) + (detection.openMpi().present() ? 1 : 0)
            + (detection.mpich().present() ? 1 : 0);
    }

    private static Peers.MpiTool withoutTools(final Peers.MpiTool tool) {
        return new Peers.MpiTool(tool.impl(), tool.compiler(), tool.launcher(), Optional.empty(), Optional.empty());
    }
}
