package org.rma4j.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.rma4j.launch.JobEnvironment;

/**
 * One job of the profiling step ({@code org.rma4j.bench.profile.ProfileMain}), run under {@code perf record}:
 * a Java scenario of the latency part at one size through {@link JavaRunner}, one row of its {@code ops} scenario
 * (with {@link RankContext#OPS_ROWS_PROPERTY} naming it), or one row of the throughput and
 * scale sweep at one rank count through {@link Sweeps} (with {@link SweepMain#ROWS_PROPERTY} naming the row),
 * with the JVM options the harness gives those jobs plus the profiling options. While the job runs it finds
 * each rank's process id (its {@link JobEnvironment#RANK} variable in {@code /proc/PID/environ}).
 *
 * <p>usage: {@code ProfileJob OUT_FILE WORK_DIR KIND ROW RANKS_OR_SIZE COUNT WARMUP [JVM_OPTION...]}, KIND
 * {@code latency} (COUNT timed round trips after WARMUP untimed ones, size RANKS_OR_SIZE bytes), {@code operation}
 * (COUNT timed batches of {@link RankContext#OP_BATCH} calls after WARMUP untimed ones; RANKS_OR_SIZE unused) or
 * {@code sweep} (COUNT messages per pass for a fan-in row, calls per pass for fence and barrier; WARMUP
 * unused). It writes OUT_FILE as properties: {@code figure} (the row's median: ns for a half round trip or a
 * call, messages per second for a fan-in), {@code rank.PID=RANK} for each rank and {@code error} if the job
 * failed.
 */
public final class ProfileJob {
    /** How often the ranks' process ids are looked for while the job runs. */
    private static final long POLL_MILLIS = 20;

    private ProfileJob() {
    }

    public static void main(final String[] args) throws Exception {
        if (args.length < 7) {
            System.err
                .println("usage: ProfileJob OUT_FILE WORK_DIR latency|operation|sweep ROW RANKS_OR_SIZE COUNT WARMUP "
                    + "[JVM_OPTION...]");
            System.exit(2);
        }
        final Path outFile = Path.of(args[0]);
        final Path work = Path.of(args[1]);
        final String kind = args[2];
        final String row = args[3];
        final int ranksOrSize = Integer.parseInt(args[4]);
        final int count = Integer.parseInt(args[5]);
        final int warmup = Integer.parseInt(args[6]);
        final List<String> extra = List.of(args).subList(7, args.length);
        final Map<Long, Integer> ranks = new ConcurrentHashMap<>();
        final Thread finder = Thread.ofPlatform().daemon().name("rank-pids").start(() -> findRanks(ranks));
        final Properties result = new Properties();
        try {
            final double figure = switch (kind) {
                case "latency" -> latency(work, RankMain.Scenario.of(row), row, ranksOrSize, count, warmup, extra);
                case "operation" -> latency(work, RankMain.Scenario.OPS, row, Long.BYTES, count, warmup,
                    withProperty(extra, RankContext.OPS_ROWS_PROPERTY, row));
                case "sweep" -> sweep(work, row, ranksOrSize, count, extra);
                default -> throw new IllegalArgumentException("kind must be latency, operation or sweep, not " + kind);
            };
            result.setProperty("figure", Double.toString(figure));
        } catch (final RuntimeException e) {
            result.setProperty("error", String.valueOf(e.getMessage()));
        } finally {
            finder.interrupt();
            finder.join(1000);
        }
        ranks.forEach((pid, rank) -> result.setProperty("rank." + pid, Integer.toString(rank)));
        try (var writer = Files.newBufferedWriter(outFile, StandardCharsets.UTF_8)) {
            result.store(writer, "rma4j profile job");
        }
        System.exit(result.containsKey("error") ? 1 : 0);
    }

    private static double latency(final Path work, final RankMain.Scenario scenario, final String row, final int size,
        final int iterations, final int warmup, final List<String> extra) throws InterruptedException {
        final List<String> options = new ArrayList<>(JavaRunner.DEFAULT_JVM_OPTIONS);
        options.addAll(extra);
        final JavaRunner runner = new JavaRunner(work, options, System.out::println);
        final List<Measurement> measurements = runner.run(scenario, new long[] {size}, iterations, warmup, 1);
        return measurements.stream().filter(m -> m.row().equals(row) && m.sizeBytes() == size).findFirst()
            .orElseThrow(() -> new IllegalStateException("scenario " + row + " measured no " + size + " B row"))
            .p50Ns();
    }

    private static double sweep(final Path work, final String row, final int ranks, final int count,
        final List<String> extra) throws InterruptedException {
        final List<String> options = withProperty(extra, SweepMain.ROWS_PROPERTY, row);
        final boolean fanIn = row.startsWith("fan-in");
        final Sweeps sweeps = new Sweeps(work, System.out::println, new ArrayList<>(), Duration.ofSeconds(900), null);
        final List<SweepMeasurement> measured = sweeps.rma4j(ranks, fanIn ? count : Sweeps.BATCH, fanIn ? 1 : count,
            options);
        final SweepMeasurement m = measured.stream().filter(s -> s.row().equals(row)).findFirst()
            .orElseThrow(() -> new IllegalStateException("the sweep job measured no row " + row));
        return fanIn ? m.perSecond() : m.medianNs();
    }

    private static List<String> withProperty(final List<String> options, final String property, final String value) {
        final List<String> with = new ArrayList<>(options);
        with.add("-D" + property + "=" + value);
        return with;
    }

    /**
     * Until interrupted: records the process id and rank of every descendant whose environment names a rank.
     */
    private static void findRanks(final Map<Long, Integer> ranks) {
        while (!Thread.currentThread().isInterrupted()) {
            ProcessHandle.current().descendants().forEach(p -> rankOf(p.pid()).ifPresent(r -> ranks.put(p.pid(), r)));
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (final InterruptedException e) {
                return;
            }
        }
    }

    private static Optional<Integer> rankOf(final long pid) {
        try {
            final byte[] environ = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
            final String prefix = JobEnvironment.RANK + "=";
            for (final String variable : new String(environ, StandardCharsets.UTF_8).split("\0")) {
                if (variable.startsWith(prefix)) {
                    return Optional.of(Integer.parseInt(variable.substring(prefix.length())));
                }
            }
        } catch (final IOException | UncheckedIOException | NumberFormatException e) {
            // the process ended, or is not a rank
        }
        return Optional.empty();
    }
}
