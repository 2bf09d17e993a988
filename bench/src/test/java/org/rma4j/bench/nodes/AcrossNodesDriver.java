package org.rma4j.bench.nodes;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;
import org.rma4j.test.TestProcesses;
import org.rma4j.test.cluster.JobOutcome;
import org.rma4j.test.cluster.MpiCluster;

/**
 * The measurement of rma4j across nodes (not a test, no timed assertion), in one run on the namespace cluster
 * ({@link MpiCluster}: two network namespaces as two nodes, TCP over a veth pair), round by round:
 * <ol>
 *   <li>remote, C: {@code across_nodes.c} built with {@code mpicc.openmpi -O2}, 2 ranks, one per node (Open MPI,
 *   osc/pt2pt);</li>
 *   <li>remote, rma4j: {@link AcrossNodesRank} {@code remote}, the same calls through rma4j, same placement;</li>
 *   <li>local, hybrid: {@link AcrossNodesRank} {@code local} in a job of 2 nodes x 2 ranks (ranks 0 and 1 on one
 *   node: the target is reached through shared memory inside a job across nodes), its waits sleeping as in shared
 *   memory ({@code -Drma4j.mpi.pollWait.us=0}: on this 2-core machine, 3 ranks polling in the barrier would take
 *   the origin's CPU, which is not the cost of the path measured);</li>
 *   <li>local, shared memory: the same program as a job of 4 processes under rmarun.</li>
 * </ol>
 * Prints each round, then the medians over rounds with the ratios rma4j / C (remote) and hybrid / shared memory
 * (local), and the load average before and after; writes the tables to {@code bench/target/across-nodes.md}.
 *
 * <p>usage: AcrossNodesDriver [ROUNDS [ITERATIONS [WARMUP [PARTS]]]] (defaults 9, 2000, 3000, {@code remote,local}:
 * which of the two tables to measure); run it with
 * {@code mvn -B -pl bench -am -P across-nodes process-test-classes [-Drma4j.nodes.args="9 2000 3000"]} as root; more options
 * of every rank's JVM (a JFR recording, a property): {@code -Drma4j.nodes.jvm="..."}.
 */
public final class AcrossNodesDriver {
    private static final Duration TIMEOUT = Duration.ofMinutes(15);
    /** System property: more JVM options of every rank, separated by spaces (e.g. a JFR recording). */
    static final String JVM_PROP_NAME = "rma4j.nodes.jvm";
    private static final List<String> RANK_JVM = jvm("-XX:-UsePerfData", "-Xmx256m");
    private static final List<String> HYBRID_JVM = jvm("-XX:-UsePerfData", "-Xmx256m", "-Drma4j.mpi.pollWait.us=0");

    private AcrossNodesDriver() {
    }

    private static List<String> jvm(final String... options) {
        final List<String> all = new ArrayList<>(List.of(options));
        final String more = System.getProperty(JVM_PROP_NAME, "").strip();
        if (!more.isEmpty()) {
            all.addAll(List.of(more.split("\\s+")));
        }
        return List.copyOf(all);
    }

    public static void main(final String[] args) throws Exception {
        final int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        final String iterations = args.length > 1 ? args[1] : "2000";
        final String warmup = args.length > 2 ? args[2] : "3000";
        final List<String> parts = List.of((args.length > 3 ? args[3] : "remote,local").split(","));
        final boolean remote = parts.contains("remote");
        final boolean local = parts.contains("local");
        final String loadBefore = Files.readString(Path.of("/proc/loadavg")).strip();
        final Map<String, Map<String, List<Double>>> results = new LinkedHashMap<>();
        for (final String side : List.of("C", "rma4j", "hybrid", "shm")) {
            results.put(side, new LinkedHashMap<>());
        }
        try (MpiCluster cluster = MpiCluster.start()) {
            final Path binary = build(cluster.directory());
            final List<String> byNode = List.of("--map-by", "node");
            for (int round = 1; round <= rounds; round++) {
                if (remote) {
                    collect(cluster.runOpenMpi(2, List.of(binary.toString(), iterations, warmup), byNode, TIMEOUT),
                        results.get("C"));
                    collect(cluster.runOpenMpi(2, rank("remote", iterations, warmup), byNode, TIMEOUT),
                        results.get("rma4j"));
                }
                if (local) {
                    collect(cluster.runOpenMpi(TestProcesses.javaCommand(HYBRID_JVM, AcrossNodesRank.class,
                        List.of("local", iterations, warmup)), List.of(), TIMEOUT), results.get("hybrid"));
                    collectShm(iterations, warmup, results.get("shm"));
                }
                System.out.println("round " + round + ": " + results);
            }
        }
        final String loadAfter = Files.readString(Path.of("/proc/loadavg")).strip();
        final String report = report(results) + String.format(Locale.ROOT,
            "%nrounds %d, iterations %s (after %s untimed), medians over rounds of per-round medians; load average"
                + " before: %s, after: %s; %d CPUs%n",
            rounds, iterations, warmup, loadBefore, loadAfter, Runtime.getRuntime().availableProcessors());
        System.out.println("\n" + report);
        Files.writeString(Path.of("target", "across-nodes.md"), report);
    }

    private static List<String> rank(final String mode, final String iterations, final String warmup) {
        return TestProcesses.javaCommand(RANK_JVM, AcrossNodesRank.class, List.of(mode, iterations, warmup));
    }

    private static String report(final Map<String, Map<String, List<Double>>> results) {
        final StringBuilder out = new StringBuilder();
        out.append("Remote target (the other node), rma4j over MPI against the same calls in C on Open MPI:\n\n")
            .append("| case | C (Open MPI) | rma4j | rma4j / C |\n|---|---|---|---|\n");
        table(out, results.get("C"), results.get("rma4j"));
        out.append("\nNode-local target (the same node), a job across nodes (hybrid) against the same job in shared"
            + " memory (rmarun):\n\n| case | shared memory | hybrid | hybrid / shared memory |\n|---|---|---|---|\n");
        table(out, results.get("shm"), results.get("hybrid"));
        return out.toString();
    }

    private static void table(final StringBuilder out, final Map<String, List<Double>> base,
        final Map<String, List<Double>> measured) {
        for (final String key : base.keySet()) {
            if (!measured.containsKey(key)) {
                continue;
            }
            final double b = median(base.get(key));
            final double m = median(measured.get(key));
            final boolean bandwidth = key.startsWith("put_bw");
            final String unit = bandwidth ? " MB/s" : " us";
            final double scale = bandwidth ? 1 : 1e-3;
            out.append(String.format(Locale.ROOT, "| %s | %.2f%s | %.2f%s | %.2f |%n", label(key), b * scale, unit,
                m * scale, unit, m / b));
        }
    }

    private static String label(final String key) {
        final String[] words = key.split(" ");
        return switch (words[0]) {
            case "put_bw" -> "put bandwidth, 1 MiB";
            case "notify" -> "notified put, 8 B: half round trip of a ping-pong (C: put + flush + flag + flush)";
            case "lock_exclusive" -> "exclusive lock + unlock";
            default -> words[0] + " + flush, " + (words[1].equals("8") ? "8 B" : "1 KiB");
        };
    }

    private static void collectShm(final String iterations, final String warmup, final Map<String, List<Double>> into)
        throws InterruptedException {
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        final Launcher.Builder builder = Launcher.builder().ranks(4).mainClass(AcrossNodesRank.class.getName())
            .args("local", iterations, warmup).output(lines::add).errorOutput(lines::add);
        for (final String option : RANK_JVM) {
            builder.jvmOption(option);
        }
        final JobResult result = builder.build().run();
        if (result.exitCode() != 0) {
            throw new IllegalStateException("the shared-memory job failed:\n" + String.join("\n", lines));
        }
        for (final String line : lines) {
            final int at = line.indexOf("NODES ");
            if (at >= 0) {
                add(line.substring(at), into);
            }
        }
    }

    private static Path build(final Path directory) throws IOException, InterruptedException {
        final Path source = directory.resolve("across_nodes.c");
        try (InputStream in = AcrossNodesDriver.class.getResourceAsStream("across_nodes.c")) {
            Files.copy(in, source);
        }
        final Path binary = directory.resolve("across_nodes");
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
        for (final String line : job.lines("NODES ")) {
            add(line, into);
        }
    }

    private static void add(final String line, final Map<String, List<Double>> into) {
        final String[] words = line.split(" ");
        into.computeIfAbsent(words[1] + " " + words[2], key -> new ArrayList<>()).add(Double.valueOf(words[3]));
    }

    private static double median(final List<Double> values) {
        final List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
