package org.rma4j.test.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The fixture's own promises: it makes its namespaces, removes them on close, and removes a dead run's. */
class MpiClusterTest {
    private static final String IP = Commands.executable("ip", "iproute2");

    @Test
    void closeShouldRemoveTheNamespacesAndTheDirectory() {
        final MpiCluster cluster = MpiCluster.start();
        final List<String> namespaces = List.of(cluster.namespace(0), cluster.namespace(1));
        final Path directory = cluster.directory();
        try {
            assertTrue(netns().containsAll(namespaces), netns().toString());
            assertTrue(Files.isExecutable(cluster.agent()));
            final String link = Commands.check(List.of(IP, "-n", cluster.namespace(1), "-4", "addr"));
            assertTrue(link.contains(MpiCluster.address(1) + "/24"), link);
        } finally {
            cluster.close();
        }
        assertFalse(netns().stream().anyMatch(namespaces::contains), netns().toString());
        assertFalse(Files.exists(directory));
    }

    @Test
    void startShouldRemoveWhatADeadRunLeft() throws IOException, InterruptedException {
        final Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        final String stale = MpiCluster.PREFIX + gone.pid() + "-deadbeef";
        Commands.check(List.of(IP, "netns", "add", stale + "-0"));
        final Path directory = Path.of(System.getProperty("java.io.tmpdir"), "rma4j-mpi-" + gone.pid() + "-deadbeef");
        Files.createDirectories(directory.resolve("tmp"));
        final Path shm = Path.of("/dev/shm", "vader_segment." + stale + "-n0.1.2");
        Files.writeString(shm, "x");
        try {
            MpiCluster.start().close();
            assertFalse(netns().contains(stale + "-0"), netns().toString());
            assertFalse(Files.exists(directory));
            assertFalse(Files.exists(shm));
        } finally {
            Leftovers.removeNamespace(IP, stale + "-0");
            Commands.deleteTree(directory);
            Files.deleteIfExists(shm);
        }
    }

    private static List<String> netns() {
        return Commands.check(List.of(IP, "netns", "list")).lines().map(line -> line.split(" ")[0]).toList();
    }
}
