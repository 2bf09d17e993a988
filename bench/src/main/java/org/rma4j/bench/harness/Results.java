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
 * before each scenario, by scenario, in run order) and the applications' throughputs. Written to and
 * read from JSON; a file without applications (from before they were added) reads with none.
 */
public record Results(RunInfo info, List<Measurement> measurements, List<String> notes,
    Map<String, Double> floorProbesNs, List<AppMeasurement> applications) {
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
     */
    public record RunInfo(String date, String machine, String javaVersion, double loadBefore, double loadAfter,
        String command, List<Long> sizes, int iterations, int warmup, int bwSamples, Map<String, String> tools,
        String profile, int cpus, List<String> appJvmOptions) {

        public RunInfo {
            appJvmOptions = appJvmOptions == null ? List.of() : List.copyOf(appJvmOptions);
        }
    }

    /**
     * A run without applications.
     */
    public Results(final RunInfo info, final List<Measurement> measurements, final List<String> notes,
        final Map<String, Double> floorProbesNs) {
        this(info, measurements, notes, floorProbesNs, List.of());
    }

    public Results {
        measurements = List.copyOf(measurements);
        notes = List.copyOf(notes);
        floorProbesNs = floorProbesNs == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(floorProbesNs));
        applications = applications == null ? List.of() : List.copyOf(applications);
    }

    /**
     * @return the measurement of (impl, row, size), if there is one.
     */
    public Optional<Measurement> find(final String impl, final String row, final long sizeBytes) {
        return measurements.stream()
            .filter(m -> m.impl().equals(impl) && m.row().equals(row) && m.sizeBytes() == sizeBytes).findFirst();
    }

    /**
     * @return the application measurements of {@code app}, in run order.
     */
    public List<AppMeasurement> applications(final String app) {
        return applications.stream().filter(a -> a.app().equals(app)).toList();
    }

    /**
     * @return the measurement of (app, variant, ranks, size, work), if there is one.
     */
    public Optional<AppMeasurement> findApplication(final String app, final String variant, final int ranks,
        final int size, final int work) {
        return applications.stream().filter(a -> a.app().equals(app) && a.variant().equals(variant)
            && a.ranks() == ranks && a.size() == size && a.work() == work).findFirst();
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
