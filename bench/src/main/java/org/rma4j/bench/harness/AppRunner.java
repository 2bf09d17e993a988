package org.rma4j.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.rma4j.examples.notified.Sync;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;

/**
 * Runs one application at one rank count and problem size as a job of real rank JVMs ({@link AppMain})
 * through the {@link Launcher}, every variant in the same job, and turns rank 0's lines into one
 * {@link AppMeasurement} per variant.
 */
final class AppRunner {
    private final Path workDirectory;
    private final List<String> jvmOptions;
    private final Consumer<String> log;
    private final Duration timeout;
    private final Path shmBase;

    /**
     * @param workDirectory where rank 0 writes its results.
     * @param jvmOptions    the rank JVMs' options.
     * @param timeout       longest time of one job; then its ranks are killed and the job fails.
     * @param shmBase       where the jobs' directories are made; null for the launcher's default.
     */
    AppRunner(final Path workDirectory, final List<String> jvmOptions, final Consumer<String> log,
        final Duration timeout, final Path shmBase) {
        this.workDirectory = workDirectory;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.log = log;
        this.timeout = timeout;
        this.shmBase = shmBase;
    }

    /**
     * Runs {@code app} with every variant of {@code variants}: untimed rounds for {@code warmupMs} (at least one),
     * then {@code repeats} timed ones ({@link AppMain}).
     *
     * @return one measurement per variant, in the order of {@code variants}.
     * @throws IllegalStateException naming the job if it fails, times out or reports no result.
     */
    List<AppMeasurement> run(final Application app, final List<Sync> variants, final int ranks, final int size,
        final int work, final int repeats, final long warmupMs) throws InterruptedException {
        app.check(size, work, ranks);
        final String label = "application " + app.id + " (" + ranks + " ranks, " + app.sizeLabel(size, work) + ")";
        final Path out = workDirectory.resolve("app-" + app.id + "-" + ranks + "-" + size + "-" + work + ".txt");
        try {
            Files.deleteIfExists(out);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        final List<String> lines = new CopyOnWriteArrayList<>();
        final Launcher.Builder builder = Launcher.builder().ranks(ranks).bindToCore(JavaRunner.bindToCore(ranks))
            .mainClass(AppMain.class.getName())
            .args(app.id, out.toString(), variants.stream().map(Sync::label).collect(Collectors.joining(",")),
                Integer.toString(size), Integer.toString(work), Integer.toString(repeats), Long.toString(warmupMs))
            .jvmOptions(jvmOptions).output(line -> {
                lines.add(line);
                log.accept(line);
            });
        if (shmBase != null) {
            builder.baseDirectory(shmBase);
        }
        final JobResult result = JavaRunner.runWithin(builder.build(), label, lines, timeout);
        if (!result.succeeded()) {
            throw new IllegalStateException(label + " failed: "
                + result.failureMessage().orElse("exit " + result.exitCode()) + "\n" + JavaRunner.tail(lines));
        }
        final List<String> written;
        try {
            written = Files.exists(out) ? Files.readAllLines(out) : List.of();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read " + out, e);
        }
        return measurements(app, variants, ranks, size, work, written, label);
    }

    /**
     * Parses rank 0's lines ({@link AppMain#line}).
     *
     * @throws IllegalStateException if a variant has no line or a line is malformed.
     */
    static List<AppMeasurement> measurements(final Application app, final List<Sync> variants, final int ranks,
        final int size, final int work, final List<String> written, final String label) {
        final Map<String, List<String[]>> byVariant = new LinkedHashMap<>();
        variants.forEach(v -> byVariant.put(v.label(), new ArrayList<>()));
        for (final String line : written) {
            if (line.isBlank()) {
                continue;
            }
            final String[] fields = line.strip().split(" ");
            if (fields.length != 5 || !byVariant.containsKey(fields[0])) {
                throw new IllegalStateException(label + ": malformed result line '" + line + "'");
            }
            byVariant.get(fields[0]).add(fields);
        }
        final List<AppMeasurement> measurements = new ArrayList<>();
        byVariant.forEach((variant, runs) -> {
            if (runs.isEmpty()) {
                throw new IllegalStateException(label + ": no result for variant " + variant);
            }
            measurements.add(new AppMeasurement(app.id, variant, ranks, size, work, app.sizeLabel(size, work), app.unit,
                runs.stream().map(f -> Double.parseDouble(f[3])).toList(),
                runs.stream().map(f -> Double.parseDouble(f[2])).toList(),
                runs.stream().allMatch(f -> Boolean.parseBoolean(f[4]))));
        });
        return measurements;
    }
}
