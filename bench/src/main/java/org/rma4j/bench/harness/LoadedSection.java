package org.rma4j.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;

/**
 * The loaded section: ping-pongs on a machine without load and beside N CPU-bound processes
 * ({@link BackgroundLoad}), each implementation with its default settings. rma4j: the PingPong example
 * ({@link PingPongMain}), send/recv and notified, as {@code rmarun} starts it (no JVM option, its default
 * binding), each variant run once untimed with the same count before the timed run. Open MPI:
 * {@code mpi_pingpong.c}'s send-recv row under mpirun (ob1 / vader, ranks bound to cores as mpirun binds 2
 * ranks), with as many untimed round trips as timed ones. Both therefore measure a warm JIT (the first calls
 * are the cold-start report's subject). The background processes run for the duration of each step and are
 * killed after it.
 */
final class LoadedSection {
    /** Payload sizes of the loaded ping-pongs. */
    static final long[] SIZES = {8, 1024};

    private final Path workDirectory;
    private final Consumer<String> log;
    private final Duration timeout;
    private final Path shmBase;

    LoadedSection(final Path workDirectory, final Consumer<String> log, final Duration timeout, final Path shmBase) {
        this.workDirectory = workDirectory;
        this.log = log;
        this.timeout = timeout;
        this.shmBase = shmBase;
    }

    /**
     * Runs the PingPong example beside {@code load} busy processes.
     *
     * @throws IllegalStateException if the job fails (a wrong payload included) or times out.
     */
    List<LoadedMeasurement> rma4j(final int load, final int iterations) throws InterruptedException {
        final Path out = workDirectory.resolve("loaded-rma4j-" + load + ".samples");
        delete(out);
        final List<String> lines = new CopyOnWriteArrayList<>();
        final Launcher.Builder builder = Launcher.builder().ranks(2).mainClass(PingPongMain.class.getName())
            .args(out.toString(), Integer.toString(iterations), Peers.csv(SIZES)).output(line -> {
                lines.add(line);
                log.accept(line);
            });
        if (shmBase != null) {
            builder.baseDirectory(shmBase);
        }
        final String label = "rma4j PingPong example beside " + load + " busy processes";
        final JobResult result;
        try (BackgroundLoad background = new BackgroundLoad(load)) {
            result = JavaRunner.runWithin(builder.build(), label, lines, timeout);
        }
        if (!result.succeeded()) {
            throw new IllegalStateException(label + " failed: "
                + result.failureMessage().orElse("exit " + result.exitCode()) + "\n" + JavaRunner.tail(lines));
        }
        return read(out, Rows.RMA4J, load, iterations);
    }

    /**
     * Runs Open MPI's send/recv ping-pong beside {@code load} busy processes.
     *
     * @return its measurements; empty (with a note) if it could not be built or failed.
     */
    List<LoadedMeasurement> peer(final Peers peers, final Peers.MpiTool mpi, final int load, final int iterations) {
        final Optional<Path> binary = peers.pingPong(mpi);
        if (binary.isEmpty()) {
            return List.of();
        }
        final Path out = workDirectory.resolve("loaded-" + mpi.impl() + "-" + load + ".samples");
        delete(out);
        final boolean succeeded;
        try (BackgroundLoad background = new BackgroundLoad(load)) {
            succeeded = peers.runMpiProgram(
                Peers.mpirun(mpi, 2, binary.get(),
                    List.of(out.toString(), Peers.csv(SIZES), Integer.toString(iterations),
                        Integer.toString(iterations), "1", "send-recv")),
                Peers.label(mpi.impl()) + " ping-pong beside " + load + " busy processes", timeout);
        }
        return succeeded ? read(out, mpi.impl(), load, iterations) : List.of();
    }

    private static List<LoadedMeasurement> read(final Path out, final String impl, final int load,
        final int iterations) {
        final List<LoadedMeasurement> measurements = new ArrayList<>();
        if (!Files.exists(out)) {
            return measurements;
        }
        for (final SampleFile.Line line : SampleFile.read(out)) {
            final LoadedMeasurement measurement;
            if (impl.equals(Rows.RMA4J)) {
                // NOTE: PingPongMain writes the example's median and mean, not the round trips.
                final double[] summary = line.valuesNs();
                measurement = new LoadedMeasurement(impl, line.row(), line.sizeBytes(), load, summary[0],
                    summary.length > 1 ? summary[1] : 0, iterations);
            } else {
                final Measurement all = Measurement.of(impl, line);
                measurement = new LoadedMeasurement(impl, line.row(), line.sizeBytes(), load, all.p50Ns(), all.meanNs(),
                    iterations);
            }
            measurements.add(measurement);
        }
        return measurements;
    }

    private static void delete(final Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
