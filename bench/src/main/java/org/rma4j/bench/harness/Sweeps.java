package org.rma4j.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;

/**
 * The throughput and scale sweep: at each rank count one job of rma4j ranks ({@link SweepMain}, default
 * settings: no JVM option, so blocked calls spin, yield, then sleep) and one mpirun of {@code mpi_sweep.c}
 * on Open MPI, each measuring every row {@link #RUNS} times with a warm-up pass as long as the timed one.
 */
final class Sweeps {
    /** Runs of each row; the report shows their median. */
    static final int RUNS = 3;
    /** Messages per request of the batch row ({@code fan-in-notified-batch}). */
    static final int BATCH = 64;

    /**
     * One row of the sweep: its id, whether it is a fan-in (messages per second, compared with Open MPI's
     * {@link #FAN_IN_REFERENCE}) or a collective call (ns per call, compared with Open MPI's same row), its
     * label and what it measures.
     */
    record Row(String id, boolean fanIn, String label, String description) {
    }

    /** The Open MPI row every fan-in row is compared with. */
    static final String FAN_IN_REFERENCE = "fan-in-sendrecv";

    /** The rows, in report order; the fan-in rows first, Open MPI's (the reference) before rma4j's. */
    static final List<Row> ROWS = List.of(
        new Row(FAN_IN_REFERENCE, true, "Open MPI send / recv(ANY_SOURCE)",
            "every rank but 0 MPI_Sends its messages of 8 B to rank 0, which MPI_Recvs them from MPI_ANY_SOURCE"),
        new Row("fan-in-notified", true, "rma4j notified put, start + await per message",
            "every rank but 0 putNotifies 8 B into its slot of rank 0's window; rank 0 starts and awaits a request "
                + "(ANY_SOURCE, tag, count 1) per message"),
        new Row("fan-in-notified-batch", true, "rma4j notified put, one request per " + BATCH + " messages",
            "the same, rank 0 with a request (ANY_SOURCE, tag, expected count " + BATCH + ") per " + BATCH
                + " messages"),
        new Row("fan-in-messaging", true, "rma4j Messaging send / recv(ANY_SOURCE)",
            "Messaging.send of 8 B to rank 0, Messaging.recv from ANY_SOURCE"),
        new Row("fence", false, "fence",
            "empty fence(0) of a window at every rank (Open MPI: MPI_Win_fence(0) on an MPI_Win_allocate_shared "
                + "window)"),
        new Row("barrier", false, "barrier", "RmaJob.barrier() at every rank (Open MPI: MPI_Barrier(MPI_COMM_WORLD))"));

    private final Path workDirectory;
    private final Consumer<String> log;
    private final List<String> notes;
    private final Duration timeout;
    private final Path shmBase;

    Sweeps(final Path workDirectory, final Consumer<String> log, final List<String> notes, final Duration timeout,
        final Path shmBase) {
        this.workDirectory = workDirectory;
        this.log = log;
        this.notes = notes;
        this.timeout = timeout;
        this.shmBase = shmBase;
    }

    /**
     * @return the messages each producer sends per pass at {@code ranks}: {@code messages} (what the consumer
     *         receives) split over the producers, rounded up to a multiple of {@link #BATCH}.
     */
    static long perProducer(final int messages, final int ranks) {
        final long share = Math.max(1, (long)messages / (ranks - 1));
        return (share + BATCH - 1) / BATCH * BATCH;
    }

    /**
     * @return the fence and barrier calls per pass at {@code ranks}: {@code calls} at 2 ranks, {@code 2 / ranks} of
     *         it beyond (a call costs about the rank count's share of it on a machine of few CPUs, so a pass
     *         takes about as long at every rank count).
     */
    static long callsAt(final int calls, final int ranks) {
        return Math.max(1, (long)calls * 2 / ranks);
    }

    /**
     * Runs the rma4j sweep job at {@code ranks}.
     *
     * @throws IllegalStateException if the job fails or times out.
     */
    List<SweepMeasurement> rma4j(final int ranks, final int messages, final int calls, final List<String> jvmOptions)
        throws InterruptedException {
        final Path out = workDirectory.resolve("sweep-rma4j-" + ranks + ".samples");
        delete(out);
        final List<String> lines = new CopyOnWriteArrayList<>();
        final Launcher.Builder builder = Launcher.builder().ranks(ranks).bindToCore(JavaRunner.bindToCore(ranks))
            .mainClass(SweepMain.class.getName()).args(out.toString(), Long.toString(perProducer(messages, ranks)),
                Long.toString(callsAt(calls, ranks)), Integer.toString(RUNS), Integer.toString(BATCH))
            .jvmOptions(jvmOptions).output(line -> {
                lines.add(line);
                log.accept(line);
            });
        if (shmBase != null) {
            builder.baseDirectory(shmBase);
        }
        final String label = "rma4j sweep (" + ranks + " ranks)";
        final JobResult result = JavaRunner.runWithin(builder.build(), label, lines, timeout);
        if (!result.succeeded()) {
            throw new IllegalStateException(label + " failed: "
                + result.failureMessage().orElse("exit " + result.exitCode()) + "\n" + JavaRunner.tail(lines));
        }
        return read(out, Rows.RMA4J, ranks);
    }

    /**
     * Runs {@code mpi_sweep.c} at {@code ranks} under {@code mpi}'s mpirun.
     *
     * @return its measurements; empty (with a note) if it could not be built or failed.
     */
    List<SweepMeasurement> peer(final Peers peers, final Peers.MpiTool mpi, final int ranks, final int messages,
        final int calls) {
        final Optional<Path> binary = peers.buildMpi(mpi, "mpi_sweep.c", List.of());
        if (binary.isEmpty()) {
            return List.of();
        }
        final Path out = workDirectory.resolve("sweep-" + mpi.impl() + "-" + ranks + ".samples");
        delete(out);
        final boolean succeeded = peers.runMpiProgram(
            Peers.mpirun(mpi, ranks, binary.get(),
                List.of(out.toString(), Long.toString(perProducer(messages, ranks)),
                    Long.toString(callsAt(calls, ranks)), Integer.toString(RUNS))),
            Peers.label(mpi.impl()) + " sweep (" + ranks + " ranks)", timeout);
        return succeeded || Files.exists(out) ? read(out, mpi.impl(), ranks) : List.of();
    }

    private List<SweepMeasurement> read(final Path out, final String impl, final int ranks) {
        if (!Files.exists(out)) {
            notes.add(Peers.label(impl) + " sweep at " + ranks + " ranks wrote no samples.");
            return List.of();
        }
        final List<SweepMeasurement> measurements = new ArrayList<>();
        for (final SampleFile.Line line : SampleFile.read(out)) {
            measurements
                .add(new SweepMeasurement(impl, line.row(), ranks, Arrays.stream(line.valuesNs()).boxed().toList()));
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
