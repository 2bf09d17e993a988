package org.rma4j;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.Locale;
import org.rma4j.internal.mpi.MpiLink;
import org.rma4j.mpi.MpiBasicType;
import org.rma4j.shm.ControlFile;
import org.rma4j.shm.JobDirectory;
import org.rma4j.shm.WaitStrategy;

/**
 * Joining a job launched by an MPI launcher ({@code mpirun}, {@code mpiexec}): {@link Rma#init()} comes here
 * when the environment names an MPI launch ({@link #LAUNCHER_VARIABLES}) and no {@code rmarun} job, or when
 * {@value #TRANSPORT_PROP_NAME}{@code =mpi}.
 *
 * <p>MPI is initialized at {@code MPI_THREAD_SERIALIZED} ({@link MpiLink}). The ranks of each node share one
 * job directory of that node: its lowest rank (the node leader) removes the directories of dead jobs, creates
 * the directory (its name ends with the host name) and a control file with a row per rank of the job, the other
 * nodes' rows marked {@link org.rma4j.shm.RankState#ELSEWHERE}, and broadcasts the path to its node's ranks.
 * Every rank of the node removes the directory when its JVM ends (a shutdown hook: the launcher stops the ranks
 * of a failed job with SIGTERM), the leader also when it leaves the job. A job of one node then runs exactly as
 * under {@code rmarun}; a job of several nodes gets a world communicator through MPI and a progress thread
 * per rank, and its waits poll MPI without sleeping ({@value #POLL_WAIT_PROP_NAME}).
 */
final class MpiLaunch {
    /** System property: {@code shm} or {@code mpi}, to override the detection of the launcher. */
    static final String TRANSPORT_PROP_NAME = "rma4j.transport";
    /** Environment variables by which MPI launchers give a process its rank (Open MPI, MPICH Hydra, PMIx). */
    static final String[] LAUNCHER_VARIABLES = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"};
    /**
     * System property: in a job across nodes, how many microseconds a waiting thread goes on polling MPI (and
     * yielding) once its spin phase is over, before it sleeps in the kernel. Default -1: it never sleeps, as
     * MPI's blocking calls, so the rank serves its peers at once while it waits; a sleeping rank serves them
     * within the progress thread's interval ({@link MpiLink#PROGRESS_INTERVAL_PROP_NAME}).
     */
    static final String POLL_WAIT_PROP_NAME = "rma4j.mpi.pollWait.us";
    /** Bytes of the broadcast that carries the node's directory path. */
    private static final int PATH_BYTES = 4096;

    private MpiLaunch() {
    }

    /**
     * @param rmarunDirectory the job directory {@code rmarun} gave, or null.
     * @return whether to join through MPI: {@value #TRANSPORT_PROP_NAME} if set, else an MPI launcher's
     *         variable without an {@code rmarun} job.
     * @throws RmaException ARG for another value of the property.
     */
    static boolean selected(final String rmarunDirectory) {
        final String transport = System.getProperty(TRANSPORT_PROP_NAME);
        if (transport != null) {
            return switch (transport.trim().toLowerCase(Locale.ROOT)) {
                case "mpi" -> true;
                case "shm" -> false;
                default -> throw new RmaException(ErrorClass.ARG,
                    TRANSPORT_PROP_NAME + "=" + transport + " is not shm or mpi");
            };
        }
        if (rmarunDirectory != null) {
            return false;
        }
        for (final String variable : LAUNCHER_VARIABLES) {
            if (System.getenv(variable) != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * Initializes MPI and joins the job (collective over the world).
     *
     * @throws RmaException OTHER if MPI cannot be loaded or initialized, or the node's directory cannot be made.
     */
    static RmaJob join() {
        final MpiLink link;
        try {
            link = MpiLink.init();
        } catch (final RuntimeException | LinkageError e) {
            throw new RmaException(ErrorClass.OTHER, "cannot join the job through MPI (" + e.getMessage()
                + "); install Open MPI (Debian: openmpi-bin libopenmpi-dev) or MPICH, or run the program under rmarun"
                + " or with -D" + TRANSPORT_PROP_NAME + "=shm", e);
        }
        final long pollingUs = link.nodes() > 1 ? Long.getLong(POLL_WAIT_PROP_NAME, -1) : 0;
        final WaitStrategy wait = WaitStrategy.defaultStrategy().withPoller(link::pollIfFree,
            pollingUs < 0 ? -1 : TimeUnit.MICROSECONDS.toNanos(pollingUs));
        final boolean leader = link.node().rank() == 0;
        final JobDirectory directory = nodeDirectory(link, leader);
        Runtime.getRuntime().addShutdownHook(new Thread(directory::delete, "rma4j-node-cleanup"));
        final RmaJob job = RmaJob.join(directory, link.rank(), wait, leader, true, link);
        if (link.nodes() > 1) {
            link.startProgress();
        }
        return job;
    }

    /**
     * The leader makes the node's directory and control file and broadcasts the path; the others open it.
     */
    private static JobDirectory nodeDirectory(final MpiLink link, final boolean leader) {
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment path = arena.allocate(PATH_BYTES);
            String problem = null;
            if (leader) {
                try {
                    final JobDirectory made = makeDirectory(link);
                    final byte[] name = made.path().toString().getBytes(StandardCharsets.UTF_8);
                    MemorySegment.copy(name, 0, path, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, name.length);
                } catch (final RuntimeException e) {
                    problem = e.toString();
                }
            }
            link.node().bcast(path, PATH_BYTES, link.mpi().datatype(MpiBasicType.BYTE), 0);
            final String received = path.getString(0);
            if (received.isEmpty()) {
                throw new RmaException(ErrorClass.OTHER, "rank " + link.rank() + " cannot join the job: "
                    + (problem != null ? problem : "its node's first rank could not make the job directory"));
            }
            return JobDirectory.open(Path.of(received));
        }
    }

    private static JobDirectory makeDirectory(final MpiLink link) {
        final Path base = JobDirectory.defaultBase();
        JobDirectory.sweepStale(base);
        final JobDirectory directory = JobDirectory.create(base, hostTag());
        try (ControlFile control = ControlFile.create(directory.controlFile(), link.size(), 0)) {
            final int node = link.nodeOf(link.rank());
            for (int r = 0; r < link.size(); r++) {
                if (link.nodeOf(r) != node) {
                    control.markElsewhere(r);
                }
            }
        } catch (final RuntimeException e) {
            directory.delete();
            throw e;
        }
        return directory;
    }

    /**
     * @return this host's name, reduced to the characters a job directory's name may hold.
     */
    static String hostTag() {
        String host;
        try {
            host = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (final IOException | UncheckedIOException e) {
            host = "";
        }
        return host.replaceAll("[^A-Za-z0-9.-]", "");
    }
}
