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
 * peers, unavailable rows, failures) and the C11 floor probes (8 B median half round trip measured right
 * before each scenario, by scenario, in run order). Written to and read from JSON.
 */
public record Results(RunInfo info, List<Measurement> measurements, List<String> notes,
    Map<String, Double> floorProbesNs) {
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
     */
    public record RunInfo(
        String date, String machine, String javaVersion, double loadBefore, double loadAfter, String command,
        List<Long> sizes, int iterations, int warmup, int bwSamples, Map<String, String> tools) {
    }

    public Results {
        measurements = List.copyOf(measurements);
        notes = List.copyOf(notes);
        floorProbesNs = floorProbesNs == null ? Map.of() : java.util.Collections.unmodifiableMap(
            new java.util.LinkedHashMap<>(floorProbesNs));
    }

    /**
     * @return the measurement of (impl, row, size), if there is one.
     */
    public Optional<Measurement> find(final String impl, final String row, final long sizeBytes) {
        return measurements.stream()
            .filter(m -> m.impl().equals(impl) && m.row().equals(row) && m.sizeBytes() == sizeBytes).findFirst();
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
