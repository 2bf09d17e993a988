package org.rma4j.bench.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;

/**
 * The fan-in sweep: many producers, one consumer taking 8-byte messages from any source, at several rank
 * counts (2, 4, 8 by default), on rma4j ({@link FanInMain}: notified put with a request per message, notified
 * put with a request per {@value FanInMain#BATCH}, Messaging send / recv) and on Open MPI (send /
 * recv(MPI_ANY_SOURCE), {@code mpi_fanin.c}, ob1 / vader). Default settings on both sides (rma4j's adaptive
 * waits, Open MPI's defaults): with more ranks than cores the ranks take turns. Each job runs untimed rounds,
 * then timed ones; a cell is the median of its timed rounds, in messages per second, with its ratio to Open
 * MPI's cell of the same rank count.
 *
 * <p>Runs from {@link Harness} (one markdown file beside the report) or alone:
 * {@code java -cp rma4j-benchmarks.jar org.rma4j.bench.harness.FanInSweep OUT.md [RANKS_CSV [TOTAL]]}.
 */
public final class FanInSweep {
    /** The rank counts of the sweep. */
    static final List<Integer> RANKS = List.of(2, 4, 8);
    /** rma4j variants, in the report's column order. */
    static final List<String> VARIANTS = List.of("notified-each", "notified-batch", "messaging");
    static final int WARMUP_ROUNDS = 2;
    static final int ROUNDS = 3;
    static final Duration TIMEOUT = Duration.ofSeconds(600);

    private final Path work;
    private final Path shmBase;
    private final Consumer<String> log;
    private final List<String> notes = new ArrayList<>();
    /** (impl variant, ranks) -> rates of the timed rounds. */
    private final Map<String, List<Double>> rates = new LinkedHashMap<>();

    FanInSweep(final Path work, final Path shmBase, final Consumer<String> log) {
        this.work = work;
        this.shmBase = shmBase;
        this.log = log;
    }

    public static void main(final String[] args) throws Exception {
        if (args.length < 1 || args.length > 3) {
            System.err.println("usage: FanInSweep OUT.md [RANKS_CSV [TOTAL_MESSAGES_PER_ROUND]]");
            System.exit(2);
        }
        final List<Integer> ranks = args.length > 1
            ? Arrays.stream(args[1].split(",")).map(Integer::valueOf).toList()
            : RANKS;
        final int total = args.length > 2 ? Integer.parseInt(args[2]) : 1_000_000;
        final Path work = Files.createTempDirectory("rma4j-fanin-");
        final Path shm = Files.createTempDirectory(Path.of("/dev/shm"), "rma4j-fanin-");
        try {
            final FanInSweep sweep = new FanInSweep(work, shm, System.out::println);
            sweep.run(Peers.detect(System.getenv("PATH")).openMpi(), ranks, total);
            Files.writeString(Path.of(args[0]), sweep.markdown(total), StandardCharsets.UTF_8);
            System.out.println("wrote " + args[0]);
        } finally {
            Processes.deleteTree(work);
            Processes.deleteTree(shm);
        }
    }

    /**
     * The harness's one call: runs the sweep at {@link #RANKS} and writes {@code out}.
     *
     * @return notes for the report (where the table is, what failed).
     */
    static List<String> runInto(final Path out, final Path work, final Path shmBase, final Consumer<String> log,
        final Peers.MpiTool openMpi, final int total) throws InterruptedException {
        final FanInSweep sweep = new FanInSweep(work, shmBase, log);
        sweep.run(openMpi, RANKS, total);
        try {
            Files.writeString(out, sweep.markdown(total), StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        final List<String> notes = new ArrayList<>(sweep.notes);
        notes.add("Fan-in sweep (8-byte messages from any source at " + RANKS + " ranks): " + out.getFileName());
        return notes;
    }

    void run(final Peers.MpiTool openMpi, final List<Integer> ranks, final int total) throws InterruptedException {
        final Path binary = openMpi.present() ? buildPeer(openMpi) : null;
        if (!openMpi.present()) {
            notes.add("fan-in: Open MPI not found (" + openMpi.missing() + "); rma4j rows only.");
        }
        for (final int n : ranks) {
            final int perProducer = Math.max(1, total / (n - 1));
            for (final String variant : VARIANTS) {
                runJava(variant, n, perProducer);
            }
            if (binary != null) {
                runPeer(openMpi, binary, n, perProducer);
            }
        }
    }

    private void runJava(final String variant, final int ranks, final int perProducer) throws InterruptedException {
        final Path out = work.resolve("fanin-" + variant + "-" + ranks + ".samples");
        final List<String> lines = new CopyOnWriteArrayList<>();
        log.accept("== fan-in " + variant + ", " + ranks + " ranks");
        final Launcher launcher = Launcher
            .builder().ranks(ranks).mainClass(FanInMain.class.getName()).args(variant, out.toString(),
                Integer.toString(perProducer), Integer.toString(WARMUP_ROUNDS), Integer.toString(ROUNDS))
            .output(line -> {
                lines.add(line);
                log.accept(line);
            }).baseDirectory(shmBase).build();
        final JobResult result = JavaRunner.runWithin(launcher, "fan-in " + variant, lines, TIMEOUT);
        if (!result.succeeded()) {
            notes.add("FAILED: fan-in " + variant + " at " + ranks + " ranks: "
                + result.failureMessage().orElse("exit " + result.exitCode()) + "\n" + JavaRunner.tail(lines));
            return;
        }
        collect(out);
    }

    private Path buildPeer(final Peers.MpiTool openMpi) {
        try (InputStream in = FanInSweep.class.getResourceAsStream(Peers.SOURCE_RESOURCES + "mpi_fanin.c")) {
            if (in == null) {
                throw new IllegalStateException("mpi_fanin.c is missing from the class path");
            }
            Files.copy(in, work.resolve("mpi_fanin.c"), StandardCopyOption.REPLACE_EXISTING);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        final Path binary = work.resolve("mpi_fanin");
        final List<String> compile = List.of(openMpi.compilerPath().orElseThrow().toString(), "-O2", "-o",
            binary.toString(), "mpi_fanin.c");
        final Processes.Outcome outcome = Processes.run(compile, work, Peers.BUILD_TIMEOUT, log);
        if (!outcome.succeeded()) {
            notes
                .add("fan-in: the Open MPI peer did not build (" + String.join(" ", compile) + "):\n" + outcome.tail());
            return null;
        }
        return binary;
    }

    private void runPeer(final Peers.MpiTool openMpi, final Path binary, final int ranks, final int perProducer) {
        final Path out = work.resolve("fanin-openmpi-" + ranks + ".samples");
        final List<String> command = new ArrayList<>();
        command.add(openMpi.launcherPath().orElseThrow().toString());
        if (Peers.isRoot()) {
            command.add("--allow-run-as-root");
        }
        command.add("--oversubscribe");
        command.addAll(List.of("--mca", "pml", "ob1", "--mca", "btl", "self,vader", "-np", Integer.toString(ranks),
            binary.toString(), out.toString(), Integer.toString(perProducer), Integer.toString(WARMUP_ROUNDS),
            Integer.toString(ROUNDS)));
        log.accept("== fan-in Open MPI, " + ranks + " ranks: " + String.join(" ", command));
        final Processes.Outcome outcome = Processes.run(command, work, TIMEOUT, log);
        if (!outcome.succeeded()) {
            notes.add(
                "fan-in: Open MPI at " + ranks + " ranks failed (exit " + outcome.exitCode() + "):\n" + outcome.tail());
        }
        collect(out);
    }

    private void collect(final Path out) {
        if (!Files.exists(out)) {
            return;
        }
        try {
            for (final String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
                final String[] f = line.trim().split("\\s+");
                if (f.length == 4) {
                    rates.computeIfAbsent(f[0] + " " + f[1] + " " + f[2], k -> new ArrayList<>())
                        .add(Double.parseDouble(f[3]));
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @return the median of the timed rounds of {@code impl variant} at {@code ranks}, or NaN.
     */
    double median(final String implVariant, final int ranks) {
        final List<Double> values = rates.get(implVariant + " " + ranks);
        if (values == null || values.isEmpty()) {
            return Double.NaN;
        }
        final double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted.length % 2 == 1
            ? sorted[sorted.length / 2]
            : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    String markdown(final int total) {
        final StringBuilder md = new StringBuilder();
        md.append("# Fan-in: 8-byte messages to one consumer, from any source\n\n");
        md.append(String.format(Locale.ROOT,
            "%d messages per round from the producers together (ranks 1..n-1), "
                + "%d untimed then %d timed rounds per job; median of the timed rounds, in millions of messages per "
                + "second, and its ratio to Open MPI's send / recv (ob1 / vader) at the same rank count. Default "
                + "settings on both sides; %d CPUs. Load average (1 min) at the end: %.2f.%n%n",
            total, WARMUP_ROUNDS, ROUNDS, Runtime.getRuntime().availableProcessors(), MachineInfo.loadAverage()));
        md.append("| ranks | Open MPI send / recv | rma4j notified put, request per message | ratio "
            + "| rma4j notified put, request per " + FanInMain.BATCH + " | ratio | rma4j Messaging send / recv "
            + "| ratio |\n");
        md.append("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (final int n : ranksMeasured()) {
            final double mpi = median("openmpi send-recv", n);
            md.append("| ").append(n).append(" | ").append(millions(mpi));
            for (final String variant : VARIANTS) {
                final double rate = median("rma4j " + variant, n);
                md.append(" | ").append(millions(rate)).append(" | ").append(ratio(rate, mpi));
            }
            md.append(" |\n");
        }
        if (!notes.isEmpty()) {
            md.append("\nNotes:\n\n");
            for (final String note : notes) {
                md.append("- ").append(note.replace("\n", "\n  ")).append('\n');
            }
        }
        md.append(
            "\nEvery timed round (messages per second):\n\n| impl variant | ranks | rounds |\n| --- | ---: | --- |\n");
        for (final Map.Entry<String, List<Double>> e : rates.entrySet()) {
            final int split = e.getKey().lastIndexOf(' ');
            md.append("| ").append(e.getKey(), 0, split).append(" | ").append(e.getKey().substring(split + 1))
                .append(" | ").append(e.getValue().stream().map(v -> String.format(Locale.ROOT, "%.0f", v)).toList())
                .append(" |\n");
        }
        return md.toString();
    }

    private List<Integer> ranksMeasured() {
        return rates.keySet().stream().map(k -> Integer.valueOf(k.substring(k.lastIndexOf(' ') + 1))).distinct()
            .sorted().toList();
    }

    private static String millions(final double rate) {
        return Double.isNaN(rate) ? "—" : String.format(Locale.ROOT, "%.2f M", rate / 1e6);
    }

    private static String ratio(final double rate, final double baseline) {
        return Double.isNaN(rate) || Double.isNaN(baseline) ? "—" : String.format(Locale.ROOT, "%.2f", rate / baseline);
    }
}
