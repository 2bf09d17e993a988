package org.rma4j.mpi.overhead;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.rma4j.test.cluster.JobOutcome;
import org.rma4j.test.cluster.MpiCluster;
import org.rma4j.test.TestProcesses;

/**
 * The record of the binding's overhead (not a test, no timed assertion): in one run, on the namespace cluster,
 * an Open MPI job of 2 ranks on 2 nodes (TCP over the veth pair, osc/pt2pt) runs {@code overhead.c} built with
 * {@code mpicc.openmpi} and then {@link OverheadRank} (the same calls through the binding), alternately for
 * several rounds. Prints each round, the medians over rounds, the ratios Java / C and the load average before and
 * after.
 *
 * <p>usage: OverheadDriver [ROUNDS [ITERATIONS [WARMUP]]] (defaults 3, 2000, 3000); run it with
 * {@code mvn -B -pl mpi-transport -am -P overhead process-test-classes}.
 */
public final class OverheadDriver {
    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    private OverheadDriver() {
    }

    public static void main(final String[] args) throws IOException, InterruptedException {
        final int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        final String iterations = args.length > 1 ? args[1] : "2000";
        final String warmup = args.length > 2 ? args[2] : "3000";
        final String loadBefore = Files.readString(Path.of("/proc/loadavg")).strip();
        final Map<String, List<Double>> c = new LinkedHashMap<>();
        final Map<String, List<Double>> java = new LinkedHashMap<>();
        try (MpiCluster cluster = MpiCluster.start()) {
            final Path binary = build(cluster.directory());
            final List<String> placement = List.of("--map-by", "node");
            for (int round = 1; round <= rounds; round++) {
                collect(cluster.runOpenMpi(2, List.of(binary.toString(), iterations, warmup), placement, TIMEOUT), c);
                collect(cluster.runOpenMpi(2, TestProcesses.javaCommand(List.of("-XX:-UsePerfData", "-Xmx256m"),
                    OverheadRank.class, List.of(iterations, warmup)), placement, TIMEOUT), java);
                System.out.println("round " + round + ": C " + c + "\n         Java " + java);
            }
        }
        final String loadAfter = Files.readString(Path.of("/proc/loadavg")).strip();
        System.out.println("\n| case | C (Open MPI) | Java (binding) | Java / C |\n|---|---|---|---|");
        for (final String key : c.keySet()) {
            final double cValue = median(c.get(key));
            final double javaValue = median(java.get(key));
            final String unit = key.startsWith("put_bw") ? " MB/s" : " us";
            final double scale = key.startsWith("put_bw") ? 1 : 1e-3;
            System.out.printf("| %s | %.1f%s | %.1f%s | %.2f |%n", key, cValue * scale, unit, javaValue * scale, unit,
                javaValue / cValue);
        }
        System.out.println("\nrounds " + rounds + ", iterations " + iterations + " (after " + warmup + " untimed), "
            + "medians over rounds of per-round medians; load average before: " + loadBefore + ", after: " + loadAfter
            + ", " + Runtime.getRuntime().availableProcessors() + " CPUs");
    }

    private static Path build(final Path directory) throws IOException, InterruptedException {
        final Path source = directory.resolve("overhead.c");
        try (InputStream in = OverheadDriver.class.getResourceAsStream("overhead.c")) {
            Files.copy(in, source);
        }
        final Path binary = directory.resolve("overhead");
        final Process compiler = new ProcessBuilder("mpicc.openmpi", "-O2", "-o", binary.toString(), source.toString())
            .inheritIO().start();
        if (compiler.waitFor() != 0) {
            throw new IllegalStateException("mpicc.openmpi failed on " + source);
        }
        return binary;
    }

    private static void collect(final JobOutcome job, final Map<String, List<Double>> into) {
        if (job.exitCode() != 0) {
            throw new IllegalStateException("job failed: " + job);
        }
        for (final String line : job.lines("OVH ")) {
            final String[] words = line.split(" ");
            into.computeIfAbsent(words[1] + " " + words[2], key -> new ArrayList<>()).add(Double.valueOf(words[3]));
        }
    }

    private static double median(final List<Double> values) {
        final List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

}
