package org.rma4j.bench.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The C peers: detects the tools on the PATH (gcc; mpicc / mpirun of Open MPI and of MPICH, called by
 * their Debian names {@code mpicc.openmpi}, {@code mpirun.openmpi}, {@code mpicc.mpich},
 * {@code mpirun.mpich}, since the plain {@code mpicc} is whichever alternative was installed last),
 * builds the programs of {@code src/main/c} (shipped as resources) and runs them. Installs nothing: a
 * missing tool skips its columns with a note.
 */
final class Peers {
    /** Resource folder of the C sources. */
    static final String SOURCE_RESOURCES = "/org/rma4j/bench/harness/c/";
    static final List<String> SOURCES = List.of("bench_common.h", "c11_pingpong.c", "mpi_pingpong.c", "mpi_apps.h",
        "mpi_stencil.c", "mpi_tree.c", "mpi_cholesky.c", "mpi_sweep.c");

    /**
     * Open MPI's shared-memory one-sided component, the ob1 point-to-point layer over shared memory
     * (vader) and self, as the comparison asks for.
     */
    static final List<String> OPENMPI_MCA = List.of("--mca", "osc", "sm", "--mca", "pml", "ob1", "--mca", "btl",
        "self,vader");

    static final Duration BUILD_TIMEOUT = Duration.ofSeconds(120);
    static final Duration RUN_TIMEOUT = Duration.ofSeconds(900);

    /** One MPI library: its compiler and launcher, if found. */
    record MpiTool(String impl, String compiler, String launcher, Optional<Path> compilerPath,
        Optional<Path> launcherPath) {
        boolean present() {
            return compilerPath.isPresent() && launcherPath.isPresent();
        }

        String missing() {
            return (compilerPath.isEmpty() ? compiler + " " : "") + (launcherPath.isEmpty() ? launcher : "");
        }
    }

    /** What was found on the PATH. */
    record Detection(Optional<Path> gcc, MpiTool openMpi, MpiTool mpich) {
        /**
         * @return name -> path of every tool found, for the report.
         */
        Map<String, String> found() {
            final Map<String, String> tools = new LinkedHashMap<>();
            gcc.ifPresent(p -> tools.put("gcc", p.toString()));
            for (final MpiTool mpi : List.of(openMpi, mpich)) {
                mpi.compilerPath().ifPresent(p -> tools.put(mpi.compiler(), p.toString()));
                mpi.launcherPath().ifPresent(p -> tools.put(mpi.launcher(), p.toString()));
            }
            return tools;
        }
    }

    /** Round trips of one floor probe (after as many untimed ones). */
    static final int PROBE_ITERATIONS = 300;

    private final Path workDirectory;
    private final Consumer<String> log;
    private final List<String> notes;
    private final Consumer<String> onPeer;
    private final Map<String, Double> probes = new LinkedHashMap<>();
    private final Map<String, Optional<Path>> built = new LinkedHashMap<>();
    private String roundSuffix = "";
    private Path probeBinary;
    private boolean probeBuilt;
    private boolean extracted;
    /** The floor gate ({@link #floorGate}): 0 for none. */
    private long gateNs;
    private long gateWaitNs;
    private int probesTaken;
    private int probesGated;
    private int probesStillAbove;
    private long gateWaitedNs;

    /**
     * @param workDirectory where the sources are extracted, the programs built and the samples written.
     * @param notes         receives a note for each peer skipped or failed.
     */
    Peers(final Path workDirectory, final Consumer<String> log, final List<String> notes) {
        this(workDirectory, log, notes, label -> log.accept("== " + label));
    }

    /**
     * @param onPeer told the label of each peer ({@link #label}) before {@link #runAll} runs it.
     */
    Peers(final Path workDirectory, final Consumer<String> log, final List<String> notes,
        final Consumer<String> onPeer) {
        this.workDirectory = workDirectory;
        this.log = log;
        this.notes = notes;
        this.onPeer = onPeer;
    }

    /**
     * @param path a PATH-style search list (normally the environment's PATH).
     */
    static Detection detect(final String path) {
        return new Detection(Processes.which("gcc", path), mpi(Rows.OPENMPI, "mpicc.openmpi", "mpirun.openmpi", path),
            mpi(Rows.MPICH, "mpicc.mpich", "mpirun.mpich", path));
    }

    private static MpiTool mpi(final String impl, final String compiler, final String launcher, final String path) {
        return new MpiTool(impl, compiler, launcher, Processes.which(compiler, path), Processes.which(launcher, path));
    }

    /**
     * Builds and runs every peer the detection found; skips the others with a note.
     *
     * @return the peers' measurements.
     */
    List<Measurement> runAll(final Detection detection, final long[] sizes, final int iterations, final int warmup,
        final int bwSamples) {
        final List<Measurement> measurements = new ArrayList<>();
        extractSources();
        if (detection.gcc().isPresent()) {
            onPeer.accept(label(Rows.C11) + roundSuffix);
            probe(detection.gcc(), label(Rows.C11) + roundSuffix);
            measurements.addAll(runC11(detection.gcc().get(), sizes, iterations, warmup, bwSamples));
        } else {
            notes.add("C11 floor skipped: gcc not found on the PATH.");
        }
        for (final MpiTool mpi : List.of(detection.openMpi(), detection.mpich())) {
            if (mpi.present()) {
                onPeer.accept(label(mpi.impl()) + roundSuffix);
                probe(detection.gcc(), label(mpi.impl()) + roundSuffix);
                measurements.addAll(runMpi(mpi, sizes, iterations, warmup, bwSamples));
            } else {
                notes.add(label(mpi.impl()) + " columns skipped: " + mpi.missing().strip()
                    + " not found on the PATH (Debian: apt-get install "
                    + (mpi.impl().equals(Rows.OPENMPI) ? "openmpi-bin libopenmpi-dev" : "mpich libmpich-dev") + ").");
            }
        }
        return measurements;
    }

    /**
     * Sets what the labels of the following peers' progress lines and floor probes end with, e.g.
     * " (round 2/3)"; empty for a run of one round.
     */
    void roundSuffix(final String suffix) {
        roundSuffix = suffix;
    }

    static String label(final String impl) {
        return switch (impl) {
            case Rows.OPENMPI -> "Open MPI";
            case Rows.MPICH -> "MPICH";
            case Rows.C11 -> "C11 floor";
            case Rows.JAVA_FFM -> "Java FFM floor";
            default -> impl;
        };
    }

    /**
     * Measures the C11 floor at 8 bytes ({@value #PROBE_ITERATIONS} round trips, median half round
     * trip) and records it under {@code label}: on a shared or virtual machine the floor itself moves
     * (other load, the host placing the two vCPUs on or off a shared cache), so each scenario is
     * reported beside the floor measured just before it. With a {@link #floorGate} it waits while the floor is above
     * the gate and records the last probe. Does nothing without gcc.
     */
    void probe(final Optional<Path> gcc, final String label) {
        probe(gcc, label, true);
    }

    /**
     * {@link #probe(Optional, String)}, behind the floor gate only if {@code gated}: an ungated probe measures the
     * floor once and records it (e.g. after a step, to show the mode it ended in).
     */
    void probe(final Optional<Path> gcc, final String label, final boolean gated) {
        if (gcc.isEmpty()) {
            return;
        }
        Double floor = measureFloor(gcc);
        if (floor == null) {
            return;
        }
        if (!gated) {
            probes.put(label, floor);
            return;
        }
        probesTaken++;
        if (gateNs > 0 && floor > gateNs) {
            // NOTE: the VM's slow mode lasts minutes: re-probe every 2 s until the floor is back below the gate
            probesGated++;
            final long start = System.nanoTime();
            log.accept(String.format(Locale.ROOT, "floor %.0f ns above the gate of %d ns: waiting up to %d s", floor,
                gateNs, gateWaitNs / 1_000_000_000L));
            while (floor != null && floor > gateNs && System.nanoTime() - start < gateWaitNs) {
                try {
                    Thread.sleep(Math.min(2_000, Math.max(1, (gateWaitNs - (System.nanoTime() - start)) / 1_000_000)));
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
                floor = measureFloor(gcc);
            }
            gateWaitedNs += System.nanoTime() - start;
            if (floor == null || floor > gateNs) {
                probesStillAbove++;
            }
            if (floor == null) {
                return;
            }
        }
        probes.put(label, floor);
    }

    /**
     * Makes every later {@link #probe} wait, re-probing every 2 s for up to {@code waitSeconds}, while the floor is
     * above {@code ns}: the step after it then starts in the machine's fast mode, or the note says it did not.
     *
     * @param ns          the gate; 0 for none.
     * @param waitSeconds the longest wait of one probe.
     */
    void floorGate(final long ns, final long waitSeconds) {
        this.gateNs = ns;
        this.gateWaitNs = waitSeconds * 1_000_000_000L;
    }

    /**
     * @return the report's note on the floor gate, if one was set and probes were taken.
     */
    Optional<String> floorGateNote() {
        if (gateNs <= 0 || probesTaken == 0) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT,
            "Floor gate %d ns: %d of %d probes found the C11 floor above it "
                + "and waited (%.0f s in all, at most %d s each); %d of them started their step still above it.",
            gateNs, probesGated, probesTaken, gateWaitedNs / 1e9, gateWaitNs / 1_000_000_000L, probesStillAbove));
    }

    /**
     * @return the C11 floor's median half round trip at 8 B now, or null if it could not be measured.
     */
    private Double measureFloor(final Optional<Path> gcc) {
        if (!probeBuilt) {
            probeBuilt = true;
            extractSources();
            final Path binary = workDirectory.resolve("c11_probe");
            if (Processes.run(List.of(gcc.get().toString(), "-O2", "-o", binary.toString(), "c11_pingpong.c"),
                workDirectory, BUILD_TIMEOUT, log).succeeded()) {
                probeBinary = binary;
            }
        }
        if (probeBinary == null) {
            return null;
        }
        final Path out = workDirectory.resolve("probe.samples");
        final Path shm = Path.of("/dev/shm", "rma4j-bench-probe-" + ProcessHandle.current().pid());
        final Processes.Outcome outcome = Processes.run(List.of(probeBinary.toString(), out.toString(), shm.toString(),
            "8", Integer.toString(PROBE_ITERATIONS), Integer.toString(PROBE_ITERATIONS), "1"), workDirectory,
            Duration.ofSeconds(60), line -> {
            });
        try {
            Files.deleteIfExists(shm);
            final Double floor = outcome.succeeded()
                ? SampleFile.read(out).stream().filter(line -> line.row().equals("floor")).findFirst()
                    .map(line -> Measurement.of(Rows.C11, line).p50Ns()).orElse(null)
                : null;
            Files.deleteIfExists(out);
            return floor;
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @return the floor probes so far, by label, in the order taken.
     */
    Map<String, Double> probes() {
        return probes;
    }

    /**
     * Builds {@code source} with {@code mpi}'s compiler, {@code -O2} and {@code flags}, once per harness run.
     *
     * @return the program, or empty (with a note) if the build failed.
     */
    Optional<Path> buildMpi(final MpiTool mpi, final String source, final List<String> flags) {
        final String name = source.replaceFirst("\\.c$", "") + "_" + mpi.impl()
            + (flags.isEmpty() ? "" : "_" + Integer.toHexString(flags.hashCode()));
        return built.computeIfAbsent(name, key -> {
            extractSources();
            final Path binary = workDirectory.resolve(key);
            final List<String> compile = new ArrayList<>(List.of(mpi.compilerPath().get().toString(), "-O2"));
            compile.addAll(flags);
            compile.addAll(List.of("-o", binary.toString(), source, "-lm"));
            return build(compile, label(mpi.impl()) + " " + source) ? Optional.of(binary) : Optional.empty();
        });
    }

    /**
     * @return the command that runs {@code binary} with {@code args} as {@code ranks} processes under
     *         {@code mpi}'s mpirun; for Open MPI with {@link #OPENMPI_MCA}, {@code --oversubscribe} (more
     *         ranks than cores is a case the harness measures) and, as root, {@code --allow-run-as-root}.
     *         Binding is mpirun's default: rank i on core i up to 2 ranks, no binding when there are more
     *         ranks than cores.
     */
    static List<String> mpirun(final MpiTool mpi, final int ranks, final Path binary, final List<String> args) {
        final List<String> command = new ArrayList<>();
        command.add(mpi.launcherPath().get().toString());
        if (mpi.impl().equals(Rows.OPENMPI)) {
            if (isRoot()) {
                command.add("--allow-run-as-root");
            }
            command.add("--oversubscribe");
            command.addAll(OPENMPI_MCA);
        }
        command.addAll(List.of("-np", Integer.toString(ranks), binary.toString()));
        command.addAll(args);
        return command;
    }

    void extractSources() {
        if (extracted) {
            return;
        }
        extracted = true;
        for (final String name : SOURCES) {
            try (InputStream in = Peers.class.getResourceAsStream(SOURCE_RESOURCES + name)) {
                if (in == null) {
                    throw new IllegalStateException(
                        "resource " + SOURCE_RESOURCES + name + " is missing from the class path");
                }
                Files.copy(in, workDirectory.resolve(name), StandardCopyOption.REPLACE_EXISTING);
            } catch (final IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private List<Measurement> runC11(final Path gcc, final long[] sizes, final int iterations, final int warmup,
        final int bwSamples) {
        final Path binary = workDirectory.resolve("c11_pingpong");
        if (!build(List.of(gcc.toString(), "-O2", "-o", binary.toString(), "c11_pingpong.c"), "C11 floor")) {
            return List.of();
        }
        final Path out = workDirectory.resolve("c11.samples");
        final Path shm = Path.of("/dev/shm", "rma4j-bench-c11-" + ProcessHandle.current().pid());
        final Processes.Outcome outcome = Processes.run(List.of(binary.toString(), out.toString(), shm.toString(),
            csv(sizes), Integer.toString(iterations), Integer.toString(warmup), Integer.toString(bwSamples)),
            workDirectory, RUN_TIMEOUT, log);
        try {
            Files.deleteIfExists(shm);
        } catch (final IOException e) {
            log.accept("cannot remove " + shm + ": " + e);
        }
        return collect(outcome, out, Rows.C11, "C11 floor");
    }

    private List<Measurement> runMpi(final MpiTool mpi, final long[] sizes, final int iterations, final int warmup,
        final int bwSamples) {
        final String label = label(mpi.impl());
        final Optional<Path> binary = pingPong(mpi);
        if (binary.isEmpty()) {
            return List.of();
        }
        final Path out = workDirectory.resolve(mpi.impl() + ".samples");
        final List<String> command = mpirun(mpi, 2, binary.get(), List.of(out.toString(), csv(sizes),
            Integer.toString(iterations), Integer.toString(warmup), Integer.toString(bwSamples)));
        log.accept("running " + String.join(" ", command));
        try {
            Files.deleteIfExists(out);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        return collect(Processes.run(command, workDirectory, RUN_TIMEOUT, log), out, mpi.impl(), label);
    }

    /**
     * @return {@code mpi_pingpong.c} built for {@code mpi} (MPICH with {@code -DRMA4J_PROGRESS_POLL}).
     */
    Optional<Path> pingPong(final MpiTool mpi) {
        return buildMpi(mpi, "mpi_pingpong.c",
            mpi.impl().equals(Rows.MPICH) ? List.of("-DRMA4J_PROGRESS_POLL") : List.of());
    }

    /**
     * Runs {@code command} (an mpirun of a built program) with the run timeout.
     *
     * @return whether it succeeded; if not, a note with its output's tail.
     */
    boolean runMpiProgram(final List<String> command, final String label, final Duration timeout) {
        log.accept("running " + String.join(" ", command));
        final Processes.Outcome outcome = Processes.run(command, workDirectory, timeout, log);
        if (!outcome.succeeded()) {
            notes.add(label + " failed (exit " + outcome.exitCode() + "):\n" + outcome.tail());
        }
        return outcome.succeeded();
    }

    Path workDirectory() {
        return workDirectory;
    }

    private boolean build(final List<String> command, final String label) {
        log.accept("building " + label + ": " + String.join(" ", command));
        final Processes.Outcome outcome = Processes.run(command, workDirectory, BUILD_TIMEOUT, log);
        if (!outcome.succeeded()) {
            notes.add(label + " skipped: the build failed (" + String.join(" ", command) + "):\n" + outcome.tail());
            return false;
        }
        return true;
    }

    private List<Measurement> collect(final Processes.Outcome outcome, final Path out, final String impl,
        final String label) {
        if (!outcome.succeeded()) {
            notes.add(
                label + " failed (exit " + outcome.exitCode() + "); rows it finished are kept:\n" + outcome.tail());
        }
        if (!Files.exists(out)) {
            return List.of();
        }
        return SampleFile.read(out).stream().map(line -> Measurement.of(impl, line)).toList();
    }

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    static String csv(final long[] sizes) {
        return Arrays.stream(sizes).mapToObj(Long::toString).collect(Collectors.joining(","));
    }
}
