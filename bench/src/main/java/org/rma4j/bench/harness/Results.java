package org.rma4j.bench.harness;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything one harness run produced: the run's circumstances, the measurements, the notes (skipped
 * peers, unavailable rows, failures), the C11 floor probes (8 B median half round trip measured right
 * before each scenario, by scenario, in run order), the applications' throughputs (rma4j's programs and
 * the C peers), the throughput and scale sweep and the loaded ping-pongs. Written to and read from JSON; a
 * file from before a part was added reads with none of it.
 */
public record Results(RunInfo info, List<Measurement> measurements, List<String> notes,
    Map<String, Double> floorProbesNs, List<AppMeasurement> applications, List<SweepMeasurement> sweeps,
    List<LoadedMeasurement> loaded) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * The run's circumstances.
     *
     * @param date          ISO-8601 start time.
     * @param machine       CPU model, cores, memory.
     * @param javaVersion   the rank JVMs' Java version.
     * @param loadBefore    1-minute load average at the start.
     * @param loadAfter     1-minute load average at the end.
     * @param command       the harness's arguments.
     * @param sizes         payload sizes in bytes.
     * @param iterations    timed round trips (or op batches) per size.
     * @param warmup        untimed ones before them.
     * @param bwSamples     timed batches per bandwidth size.
     * @param tools         peer tools found, by name (path and version).
     * @param profile       the profile the options not given came from ({@link Profile}); null in files
     *                      from before profiles.
     * @param cpus          CPUs the harness's JVM saw (0 in files from before this field).
     * @param appJvmOptions the JVM options of the application jobs' ranks.
     * @param rounds        times the latency part and the application part ran (each cell keeps its best
     *                      round); 0 in files from before this field, whose application jobs were bound to
     *                      cores whatever their rank count.
     * @param sweepMessages messages each producer sends per pass of the fan-in sweep (0: no sweep).
     * @param sweepCalls    calls per pass of the fence and barrier sweep.
     * @param sweepRuns     runs of each sweep row (the median is reported).
     * @param backgroundLoad CPU-bound processes of the loaded section (0: no loaded section).
     * @param loadedIterations timed round trips of each loaded ping-pong.
     * @param appWarmupMs   untimed time of each application job before its timed repetitions (0 in files from
     *                      before this field, whose jobs ran one untimed round).
     */
    public record RunInfo(String date, String machine, String javaVersion, double loadBefore, double loadAfter,
        String command, List<Long> sizes, int iterations, int warmup, int bwSamples, Map<String, String> tools,
        String profile, int cpus, List<String> appJvmOptions, int rounds, int sweepMessages, int sweepCalls,
        int sweepRuns, int backgroundLoad, int loadedIterations, long appWarmupMs) {

        public RunInfo {
            appJvmOptions = appJvmOptions == null ? List.of() : List.copyOf(appJvmOptions);
        }

        /**
         * The circumstances of a run from before the sweeps, the loaded section and application rounds.
         */
        public RunInfo(final String date, final String machine, final String javaVersion, final double loadBefore,
            final double loadAfter, final String command, final List<Long> sizes, final int iterations,
            final int warmup, final int bwSamples, final Map<String, String> tools, final String profile,
            final int cpus, final List<String> appJvmOptions) {
            this(date, machine, javaVersion, loadBefore, loadAfter, command, sizes, iterations, warmup, bwSamples,
                tools, profile, cpus, appJvmOptions, 0, 0, 0, 0, 0, 0, 0);
        }
    }

    /**
     * A run without applications.
     */
    public Results(final RunInfo info, final List<Measurement> measurements, final List<String> notes,
        final Map<String, Double> floorProbesNs) {
        this(info, measurements, notes, floorProbesNs, List.of(), List.of(), List.of());
    }

    /**
     * A run without sweeps and loaded section.
     */
    public Results(final RunInfo info, final List<Measurement> measurements, final List<String> notes,
        final Map<String, Double> floorProbesNs, final List<AppMeasurement> applications) {
        this(info, measurements, notes, floorProbesNs, applications, List.of(), List.of());
    }

    public Results {
        measurements = List.copyOf(measurements);
        notes = List.copyOf(notes);
        floorProbesNs = floorProbesNs == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(floorProbesNs));
        applications = applications == null ? List.of() : List.copyOf(applications);
        sweeps = sweeps == null ? List.of() : List.copyOf(sweeps);
        loaded = loaded == null ? List.of() : List.copyOf(loaded);
    }

    /**
     * @return the measurement of (impl, row, size), if there is one.
     */
    public Optional<Measurement> find(final String impl, final String row, final long sizeBytes) {
        return measurements.stream()
            .filter(m -> m.impl().equals(impl) && m.row().equals(row) && m.sizeBytes() == sizeBytes).findFirst();
    }

    /**
     * @return rma4j's application measurements of {@code app}, in run order.
     */
    public List<AppMeasurement> applications(final String app) {
        return applications(Rows.RMA4J, app);
    }

    /**
     * @return the application measurements of {@code impl} and {@code app}, in run order.
     */
    public List<AppMeasurement> applications(final String impl, final String app) {
        return applications.stream().filter(a -> a.impl().equals(impl) && a.app().equals(app)).toList();
    }

    /**
     * @return rma4j's measurement of (app, variant, ranks, size, work), if there is one.
     */
    public Optional<AppMeasurement> findApplication(final String app, final String variant, final int ranks,
        final int size, final int work) {
        return findApplication(Rows.RMA4J, app, variant, ranks, size, work);
    }

    /**
     * @return the measurement of (impl, app, variant, ranks, size, work), if there is one.
     */
    public Optional<AppMeasurement> findApplication(final String impl, final String app, final String variant,
        final int ranks, final int size, final int work) {
        return applications.stream().filter(a -> a.impl().equals(impl) && a.app().equals(app)
            && a.variant().equals(variant) && a.ranks() == ranks && a.size() == size && a.work() == work).findFirst();
    }

    /**
     * @return the sweep measurement of (impl, row, ranks), if there is one.
     */
    public Optional<SweepMeasurement> findSweep(final String impl, final String row, final int ranks) {
        return sweeps.stream().filter(s -> s.impl().equals(impl) && s.row().equals(row) && s.ranks() == ranks)
            .findFirst();
    }

    /**
     * @return the loaded measurement of (impl, row, size, background load), if there is one.
     */
    public Optional<LoadedMeasurement> findLoaded(final String impl, final String row, final long sizeBytes,
        final int backgroundLoad) {
        return loaded.stream().filter(l -> l.impl().equals(impl) && l.row().equals(row) && l.sizeBytes() == sizeBytes
            && l.backgroundLoad() == backgroundLoad).findFirst();
    }

    public void write(final Path file) {
        try {
            JSON.writeValue(file.toFile(), this);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    public static Results read(final Path file) {
        try {
            return JSON.readValue(file.toFile(), Results.class);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
