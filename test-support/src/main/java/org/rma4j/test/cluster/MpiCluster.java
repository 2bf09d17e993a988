package org.rma4j.test.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A cluster of {@value #NODES} "nodes" on this machine for real MPI jobs: each node a network namespace of
 * its own with its own host name (a UTS namespace per daemon), the two joined by a veth pair
 * ({@code 10.251.0.1/24} and {@code 10.251.0.2/24}); nothing is connected to the host's network. A job's
 * launcher runs on node 0 and reaches node 1 through {@link #agent()}, a script that starts the remote daemon
 * ({@code orted}, {@code hydra_pmi_proxy}) in node 1's namespace ({@code ip netns exec}); ranks talk over TCP
 * between the nodes and through shared memory inside one.
 *
 * <p>Names are unique per cluster ({@code r4jmpi-<pid>-<random>}). {@link #close()} kills every process
 * left in the namespaces, deletes them (and with them the veth pair) and removes the cluster's directory and
 * the shared-memory files of its hosts; a shutdown hook does the same if the JVM exits first. {@link #start()}
 * first removes what a cluster of a process that no longer exists left behind.
 *
 * <p>Needs root (namespaces) and {@code ip} (Debian: iproute2) and {@code unshare} (util-linux).
 */
public final class MpiCluster implements AutoCloseable {
    /** Nodes of the cluster. */
    public static final int NODES = 2;
    /** Ranks per node. */
    public static final int SLOTS = 2;
    /** The veth pair's subnet (inside the cluster's namespaces only). */
    public static final String SUBNET = "10.251.0.0/24";

    static final String PREFIX = "r4jmpi-";
    private static final Path TEMP = Path.of(System.getProperty("java.io.tmpdir"));
    private static final Duration SETTLE = Duration.ofSeconds(20);

    private final String id;
    private final Path directory;
    private final String ip;
    private final String unshare;
    private final Thread shutdownHook = new Thread(this::removeEverything, "MpiCluster cleanup");
    private int jobs;
    private boolean closed;

    private MpiCluster(final String id) {
        this.id = id;
        this.directory = TEMP.resolve("rma4j-mpi-" + id);
        this.ip = Commands.executable("ip", "iproute2");
        this.unshare = Commands.executable("unshare", "util-linux");
    }

    /**
     * Removes the leftovers of dead clusters, then creates the namespaces, the veth pair, the agent script and
     * the host files.
     *
     * @throws IllegalStateException if a step fails (not root, {@code ip} missing, ...); what was made is
     *                               removed.
     */
    public static MpiCluster start() {
        Leftovers.removeStale(Commands.executable("ip", "iproute2"), TEMP);
        final byte[] random = new byte[4];
        new SecureRandom().nextBytes(random);
        final MpiCluster cluster = new MpiCluster(
            ProcessHandle.current().pid() + "-" + HexFormat.of().formatHex(random));
        Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
        try {
            cluster.create();
            return cluster;
        } catch (final RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** @return the cluster's unique part of every name. */
    public String id() {
        return id;
    }

    /** @return the network namespace of a node. */
    public String namespace(final int node) {
        return PREFIX + id + "-" + node;
    }

    /** @return the host name of a node (its daemons' and ranks' {@code gethostname}). */
    public String hostname(final int node) {
        return PREFIX + id + "-n" + node;
    }

    /** @return the address of a node on the veth pair. */
    public static String address(final int node) {
        return "10.251.0." + (node + 1);
    }

    /** @return the cluster's directory (agent, host files, job output, the MPI session directories). */
    public Path directory() {
        return directory;
    }

    /** @return the rsh agent script. */
    public Path agent() {
        return directory.resolve("agent.sh");
    }

    /**
     * Runs an Open MPI job of {@code NODES x SLOTS} ranks, ranks 0 and 1 on node 0, 2 and 3 on node 1, each
     * rank the command {@code rank}: {@code mpirun --hostfile ... --mca plm_rsh_agent AGENT --mca btl
     * tcp,self,vader --mca btl_tcp_if_include SUBNET --mca osc sm,pt2pt ...} on node 0.
     *
     * @param options more {@code mpirun} options.
     * @param timeout the job is killed after it (a bound against hangs, not a measurement).
     */
    public JobOutcome runOpenMpi(final List<String> rank, final List<String> options, final Duration timeout) {
        return runOpenMpi(NODES * SLOTS, rank, options, timeout);
    }

    /**
     * Runs an Open MPI job of {@code ranks} ranks (mapped by slot unless {@code options} say otherwise, e.g.
     * {@code --map-by node}), as {@link #runOpenMpi(List, List, Duration)}.
     */
    public JobOutcome runOpenMpi(final int ranks, final List<String> rank, final List<String> options,
        final Duration timeout) {
        final List<String> command = new ArrayList<>(List.of(Commands.executable("mpirun.openmpi", "openmpi-bin"),
            "--hostfile", directory.resolve("hosts.openmpi").toString(), "-np", Integer.toString(ranks), "--bind-to",
            "none", "--mca", "plm_rsh_agent", agent().toString(), "--mca", "pml", "ob1", "--mca", "btl",
            "tcp,self,vader", "--mca", "btl_tcp_if_include", SUBNET, "--mca", "oob_tcp_if_include", SUBNET,
            // Debian's /etc/openmpi/openmpi-mca-params.conf disables osc/pt2pt, the only one-sided component
            // that works over TCP between nodes in Open MPI 4.1; osc/sm serves windows of one node.
            "--mca", "osc", "sm,pt2pt"));
        command.addAll(options);
        command.addAll(rank);
        return run(command, timeout);
    }

    /**
     * Runs an MPICH job of {@code NODES x SLOTS} ranks the same way: {@code mpirun.mpich -f HOSTS -launcher ssh
     * -launcher-exec AGENT} on node 0.
     */
    public JobOutcome runMpich(final List<String> rank, final Duration timeout) {
        final List<String> command = new ArrayList<>(
            List.of(Commands.executable("mpirun.mpich", "mpich"), "-f", directory.resolve("hosts.mpich").toString(),
                "-n", Integer.toString(NODES * SLOTS), "-launcher", "ssh", "-launcher-exec", agent().toString()));
        command.addAll(rank);
        return run(command, timeout);
    }

    /**
     * Kills what is left in the namespaces, deletes them and removes the cluster's files. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            removeEverything();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (final IllegalStateException e) {
                // the JVM is shutting down: the hook runs anyway
            }
        }
    }

    private void create() {
        try {
            Files.createDirectory(directory,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.createDirectory(directory.resolve("tmp"));
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int node = 0; node < NODES; node++) {
            Commands.check(List.of(ip, "netns", "add", namespace(node)));
            Commands.check(List.of(ip, "-n", namespace(node), "link", "set", "lo", "up"));
        }
        final String veth = "r4j" + id.substring(id.indexOf('-') + 1);
        Commands.check(List.of(ip, "link", "add", veth + "a", "netns", namespace(0), "type", "veth", "peer", "name",
            veth + "b", "netns", namespace(1)));
        for (int node = 0; node < NODES; node++) {
            final String device = veth + (node == 0 ? "a" : "b");
            Commands.check(List.of(ip, "-n", namespace(node), "addr", "add", address(node) + "/24", "dev", device));
            Commands.check(List.of(ip, "-n", namespace(node), "link", "set", device, "up"));
        }
        writeFiles();
    }

    private void writeFiles() {
        final StringBuilder cases = new StringBuilder();
        final StringBuilder openMpiHosts = new StringBuilder();
        final StringBuilder mpichHosts = new StringBuilder();
        for (int node = 0; node < NODES; node++) {
            cases.append("  ").append(address(node)).append(") ns=").append(namespace(node)).append("; name=")
                .append(hostname(node)).append(" ;;\n");
            openMpiHosts.append(address(node)).append(" slots=").append(SLOTS).append('\n');
            mpichHosts.append(address(node)).append(':').append(SLOTS).append('\n');
        }
        final String script = """
            #!/bin/sh
            # The rsh agent of rma4j's MpiCluster (Open MPI's plm_rsh_agent, MPICH Hydra's -launcher-exec):
            #   agent.sh [OPTIONS] HOST COMMAND...
            # runs the shell command line COMMAND in HOST's network namespace under HOST's host name.
            while [ "${1#-}" != "$1" ]; do shift; done
            host=$1; shift
            case "$host" in
            %s  *) echo "agent.sh: unknown host $host" >&2; exit 1 ;;
            esac
            exec %s netns exec "$ns" %s --uts -- /bin/sh -c \\
              'echo "$1" > /proc/sys/kernel/hostname && exec /bin/sh -c "$2"' agent "$name" "$*"
            """.formatted(cases, ip, unshare);
        try {
            Files.writeString(agent(), script, StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(agent(), PosixFilePermissions.fromString("rwx------"));
            Files.writeString(directory.resolve("hosts.openmpi"), openMpiHosts);
            Files.writeString(directory.resolve("hosts.mpich"), mpichHosts);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs a launcher on node 0 under node 0's host name, then collects and removes what it left. */
    private synchronized JobOutcome run(final List<String> launcher, final Duration timeout) {
        if (closed) {
            throw new IllegalStateException("the cluster " + id + " is closed");
        }
        final int job = ++jobs;
        final Path out = directory.resolve("job-" + job + ".out");
        final Path err = directory.resolve("job-" + job + ".err");
        final List<String> command = new ArrayList<>(List.of(ip, "netns", "exec", namespace(0), unshare, "--uts", "--",
            "/bin/sh", "-c", "echo \"$1\" > /proc/sys/kernel/hostname && shift && exec \"$@\"", "head", hostname(0)));
        command.addAll(launcher);
        final ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile())
            .redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        final Map<String, String> environment = builder.environment();
        environment.put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        environment.put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        // Open MPI's session directories (and anything else that honours TMPDIR) go under the cluster's.
        environment.put("TMPDIR", directory.resolve("tmp").toString());
        final long start = System.nanoTime();
        boolean timedOut = false;
        int exitCode;
        try {
            final Process process = builder.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                timedOut = true;
                killNamespaces();
                process.destroyForcibly();
            }
            exitCode = process.waitFor();
            exitCode = timedOut ? -1 : exitCode;
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            killNamespaces();
            throw new IllegalStateException("interrupted while the job ran", e);
        }
        final Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        final List<String> leftovers = Leftovers.collect(this, ip, SETTLE);
        try {
            return new JobOutcome(exitCode, Files.readString(out), Files.readString(err), timedOut, elapsed, leftovers);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void killNamespaces() {
        for (int node = 0; node < NODES; node++) {
            Leftovers.killProcesses(ip, namespace(node));
        }
    }

    private void removeEverything() {
        for (int node = 0; node < NODES; node++) {
            Leftovers.removeNamespace(ip, namespace(node));
        }
        Leftovers.removeSharedMemory(PREFIX + id);
        Commands.deleteTree(directory);
    }
}
