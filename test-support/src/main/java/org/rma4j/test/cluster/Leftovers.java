package org.rma4j.test.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Finding and removing what MPI jobs and clusters leave behind: processes, namespaces, files. */
final class Leftovers {
    private static final Path SHM = Path.of("/dev/shm");
    /** {@code r4jmpi-<pid>-<hex>-<node>}: the namespaces of a cluster of process {@code pid}. */
    private static final Pattern NAMESPACE = Pattern.compile("(" + MpiCluster.PREFIX + "(\\d+)-[0-9a-f]+)-\\d+");
    /** {@code rma4j-mpi-<pid>-<hex>}: a cluster's directory. */
    private static final Pattern DIRECTORY = Pattern.compile("rma4j-mpi-(\\d+)-[0-9a-f]+");
    private static final Pattern SHM_FILE = Pattern.compile(".*" + MpiCluster.PREFIX + "(\\d+)-[0-9a-f]+.*");
    private static final long POLL_MS = 50;

    private Leftovers() {
    }

    /** Removes the namespaces, directories and shared-memory files of clusters whose process is gone. */
    static void removeStale(final String ip, final Path temp) {
        for (final String line : Commands.run(List.of(ip, "netns", "list")).output().split("\n")) {
            final Matcher matcher = NAMESPACE.matcher(line.strip().split(" ")[0]);
            if (matcher.matches() && !alive(matcher.group(2))) {
                removeNamespace(ip, matcher.group());
            }
        }
        for (final Path path : list(temp)) {
            final Matcher matcher = DIRECTORY.matcher(path.getFileName().toString());
            if (matcher.matches() && !alive(matcher.group(1))) {
                Commands.deleteTree(path);
            }
        }
        for (final Path path : list(SHM)) {
            final Matcher matcher = SHM_FILE.matcher(path.getFileName().toString());
            if (matcher.matches() && !alive(matcher.group(1))) {
                Commands.deleteTree(path);
            }
        }
    }

    /**
     * Waits up to {@code settle} for the processes of a finished job to end (the remote daemon exits after the
     * launcher), then lists and removes what is left: processes in the namespaces, shared-memory files of the
     * cluster's hosts, session directories.
     */
    static List<String> collect(final MpiCluster cluster, final String ip, final Duration settle) {
        final long deadline = System.nanoTime() + settle.toNanos();
        while (System.nanoTime() < deadline && !processes(ip, cluster).isEmpty()) {
            sleepPoll();
        }
        final List<String> left = new ArrayList<>();
        for (int node = 0; node < MpiCluster.NODES; node++) {
            for (final long pid : pids(ip, cluster.namespace(node))) {
                left.add(
                    "process " + pid + " in " + cluster.namespace(node) + ": " + Commands.commandLine(pid).orElse("?"));
            }
            killProcesses(ip, cluster.namespace(node));
        }
        for (final Path file : list(SHM)) {
            if (file.getFileName().toString().contains(MpiCluster.PREFIX + cluster.id())) {
                left.add("shared memory file " + file);
                Commands.deleteTree(file);
            }
        }
        for (final Path session : list(cluster.directory().resolve("tmp"))) {
            left.add("session directory " + session);
            Commands.deleteTree(session);
        }
        return left;
    }

    /** SIGKILLs every process in a namespace and waits for each to end (bounded). */
    static void killProcesses(final String ip, final String namespace) {
        for (final long pid : pids(ip, namespace)) {
            ProcessHandle.of(pid).ifPresent(process -> {
                process.destroyForcibly();
                try {
                    process.onExit().get(10, TimeUnit.SECONDS);
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (final ExecutionException | TimeoutException e) {
                    // reported by the next look at the namespace
                }
            });
        }
    }

    /** Kills the processes of a namespace and deletes it (its veth end goes with it). */
    static void removeNamespace(final String ip, final String namespace) {
        if (!Commands.run(List.of(ip, "netns", "list")).output().contains(namespace)) {
            return;
        }
        killProcesses(ip, namespace);
        Commands.run(List.of(ip, "netns", "delete", namespace));
    }

    /** Removes the files under /dev/shm whose name contains {@code marker}. */
    static void removeSharedMemory(final String marker) {
        for (final Path file : list(SHM)) {
            if (file.getFileName().toString().contains(marker)) {
                Commands.deleteTree(file);
            }
        }
    }

    private static List<Long> processes(final String ip, final MpiCluster cluster) {
        final List<Long> all = new ArrayList<>();
        for (int node = 0; node < MpiCluster.NODES; node++) {
            all.addAll(pids(ip, cluster.namespace(node)));
        }
        return all;
    }

    private static List<Long> pids(final String ip, final String namespace) {
        final Commands.Result result = Commands.run(List.of(ip, "netns", "pids", namespace));
        if (!result.succeeded()) {
            return List.of();
        }
        return result.output().lines().map(String::strip).filter(line -> line.matches("\\d+")).map(Long::valueOf)
            .filter(pid -> ProcessHandle.of(pid).isPresent()).toList();
    }

    private static boolean alive(final String pid) {
        return ProcessHandle.of(Long.parseLong(pid)).isPresent();
    }

    private static List<Path> list(final Path directory) {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.toList();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleepPoll() {
        try {
            Thread.sleep(POLL_MS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
