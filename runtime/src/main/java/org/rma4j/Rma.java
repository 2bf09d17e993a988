package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.rma4j.launch.JobEnvironment;
import org.rma4j.launch.RankFailureReport;
import org.rma4j.shm.ControlFile;
import org.rma4j.shm.ShmSpaceException;
import org.rma4j.shm.JobDirectory;
import org.rma4j.shm.WaitStrategy;

/**
 * Entry points and constants of rma4j.
 *
 * <ul>
 *   <li>{@link #run(RankBody)} is the entry point of a rank's program: it joins the job, runs the body
 *   and leaves the job, or, if the body throws, abandons it (peers' blocking calls throw
 *   {@link RankFailedException} naming this rank) and rethrows.</li>
 *   <li>{@link #init()} joins the job described by the environment that {@code rmarun} gives each
 *   process; without it the process is a job of one rank, so every program also runs alone.</li>
 *   <li>{@link #runThreads} / {@link #callThreads} run a job of n ranks as threads of this JVM
 *   (thread mode), each rank mapping the job's files itself: the code paths are those of process
 *   mode.</li>
 * </ul>
 */
public final class Rma {
    /** MPI_PROC_NULL: as a target, operations on it do nothing; in sharedQuery, the lowest non-empty rank. */
    public static final int PROC_NULL = -1;

    /** MPI_ANY_SOURCE: a notification request that matches notifications from every rank. */
    public static final int ANY_SOURCE = -2;
    /** MPI_ANY_TAG: a notification request that matches every tag. */
    public static final int ANY_TAG = -1;

    /**
     * MPI_UNDEFINED: as the color of {@link Communicator#split}, joins no new communicator; returned by
     * {@link Group#translateRanks} for a process that is not in the other group.
     */
    public static final int UNDEFINED = Group.UNDEFINED;

    /** MPI_MODE_NOCHECK (lock, lock_all, post, start). */
    public static final int MODE_NOCHECK = 1;
    /** MPI_MODE_NOSTORE (fence, post): the local window was not updated by stores since the last sync. */
    public static final int MODE_NOSTORE = 2;
    /** MPI_MODE_NOPUT (fence, post): the local window will not be updated by put or accumulate until the next sync. */
    public static final int MODE_NOPUT = 4;
    /** MPI_MODE_NOPRECEDE (fence): the fence completes no locally issued RMA calls. */
    public static final int MODE_NOPRECEDE = 8;
    /** MPI_MODE_NOSUCCEED (fence): no RMA calls follow the fence before the next. */
    public static final int MODE_NOSUCCEED = 16;

    private static final AtomicReference<RmaJob> PROCESS_JOB = new AtomicReference<>();
    /** Longest a rank that stops because of another rank's failure waits for that rank's process to end. */
    private static final long CONSEQUENCE_WAIT_MS = 2_000;

    private Rma() {
    }

    /**
     * MPI_INIT: joins the job this process belongs to ({@code RMA4J_RANK}, {@code RMA4J_SIZE},
     * {@code RMA4J_JOB_DIR} from the launcher), or starts a job of one rank if there is none.
     * Collective over the job's ranks.
     *
     * <p>Under an MPI launcher ({@code mpirun}: the environment has {@code OMPI_COMM_WORLD_RANK},
     * {@code PMI_RANK} or {@code PMIX_RANK}, and no {@code rmarun} job) the process joins through MPI, which it
     * initializes at {@code MPI_THREAD_SERIALIZED}: ranks on one node share memory as under {@code rmarun}, ranks
     * on other nodes are reached through MPI. The system property {@code rma4j.transport=shm|mpi} overrides the
     * detection. The job then uses MPI until {@link RmaJob#close()}, which finalizes it; the program makes no MPI
     * calls of its own.
     *
     * @throws RmaException OTHER if this process already joined a job that is not closed.
     */
    public static RmaJob init() {
        final RmaJob job = join();
        installFailureReport();
        return job;
    }

    /**
     * Runs {@code body} as this process's rank (the documented entry point of a rank's {@code main}):
     * joins the job ({@link #init()}), runs the body, and leaves the job ({@link RmaJob#close()}).
     *
     * <p>If the body throws, the job is abandoned before anything else happens: this rank is marked
     * failed, so peers waiting for it throw {@link RankFailedException} naming it within the liveness
     * period (100 ms) instead of waiting for collective calls it will never make, and the exception is
     * rethrown unchanged. Escaping {@code main}, it is reported once on standard error (the exception
     * and its first frames; see {@link RankFailureReport}) and the process exits with status 1.
     *
     * <p>Windows and Messaging objects the body closes with {@code try}-with-resources while its
     * exception propagates cannot see it; they abandon instead of freeing when the window is in an
     * epoch, a notification request is active, or a call of this rank failed, and otherwise free
     * collectively: a peer that is in another collective call then ends with a mismatch error (see
     * {@link RmaJob}). To make no collective call at all after a failure, free windows explicitly at
     * the end of the body and let this method leave the job.
     *
     * @throws Exception what the body threw.
     */
    public static void run(final RankBody body) throws Exception {
        final RmaJob job = init();
        try {
            body.run(job);
        } catch (final Throwable t) {
            job.abandon(t);
            throw t;
        }
        job.close();
    }

    private static RmaJob join() {
        final RmaJob current = PROCESS_JOB.get();
        if (current != null && !current.isClosed()) {
            throw new RmaException(ErrorClass.OTHER,
                "init called twice; the job of rank " + current.rank() + " is open");
        }
        final String dir = System.getenv(JobEnvironment.JOB_DIR);
        final RmaJob job;
        if (MpiLaunch.selected(dir)) {
            job = MpiLaunch.join();
        } else if (dir == null) {
            job = singleton(WaitStrategy.defaultStrategy());
        } else {
            final int rank = parse(JobEnvironment.RANK, System.getenv(JobEnvironment.RANK));
            job = RmaJob.join(JobDirectory.open(Path.of(dir)), rank, WaitStrategy.defaultStrategy(), false, true, null);
        }
        PROCESS_JOB.set(job);
        return job;
    }

    /**
     * Installs, unless the program installed its own, the default uncaught-exception handler of a rank
     * process: an exception that escapes the main thread abandons the job if it is still open (peers then
     * throw instead of waiting for this rank), is reported once in short form ({@link RankFailureReport}),
     * and the JVM exits with status 1 as it does for any uncaught exception. A rank that stops because
     * another rank failed first waits (at most {@value #CONSEQUENCE_WAIT_MS} ms) for that rank's process
     * to end, so that the launcher sees the failing rank end first and names it.
     */
    private static void installFailureReport() {
        if (Thread.getDefaultUncaughtExceptionHandler() != null) {
            return;
        }
        final Thread main = Thread.currentThread();
        Thread.setDefaultUncaughtExceptionHandler((thread, failure) -> {
            final RmaJob job = PROCESS_JOB.get();
            if (job == null || thread != main && job.isClosed() && job.failure() == null) {
                System.err.print("Exception in thread \"" + thread.getName() + "\" ");
                failure.printStackTrace();
                return;
            }
            if (thread == main && !job.isClosed()) {
                job.abandon(failure);
            }
            System.err.print(RankFailureReport.describe(job.rank(), failure));
            System.err.flush();
            if (failure instanceof RankFailedException peer && peer.rank() != job.rank()) {
                awaitProcessEnd(job, peer.rank());
            }
        });
    }

    /**
     * Waits until the process of {@code rank} has ended (the launcher records exits in the order it sees
     * them), at most {@value #CONSEQUENCE_WAIT_MS} ms.
     */
    private static void awaitProcessEnd(final RmaJob job, final int rank) {
        final long pid = job.pidOf(rank);
        if (pid <= 0 || pid == ProcessHandle.current().pid()) {
            return;
        }
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CONSEQUENCE_WAIT_MS);
        // NOTE: polled, not ProcessHandle.onExit(): for a process that is not a child the JDK polls it with
        // back-off up to a second apart, and this wait delays only the exit of a rank that is stopping anyway.
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadlineNs) {
            LockSupport.parkNanos(2_000_000L);
        }
    }

    /**
     * Runs {@code body} as ranks 0..ranks-1 of a new job, one thread per rank, and returns when all
     * have finished; the job directory is removed on every path. If a rank throws, it is marked
     * failed (peers that wait for it throw {@link RankFailedException}), and the first
     * failure is rethrown with the others attached as suppressed.
     *
     * @param ranks number of ranks, >= 1.
     * @param body  the program of each rank; the job is closed after it returns.
     */
    public static void runThreads(final int ranks, final RankBody body) {
        callThreads(ranks, job -> {
            body.run(job);
            return null;
        });
    }

    /**
     * Like {@link #runThreads} but collects each rank's result, indexed by rank.
     */
    public static <T> List<T> callThreads(final int ranks, final RankFunction<T> body) {
        return ThreadJob.run(ranks, JobDirectory.defaultBase(), WaitStrategy.defaultStrategy(), body);
    }

    /**
     * Like {@link #callThreads(int, RankFunction)} with an explicit way its blocking calls wait.
     */
    public static <T> List<T> callThreads(final int ranks, final WaitOptions wait, final RankFunction<T> body) {
        return ThreadJob.run(ranks, JobDirectory.defaultBase(), wait.strategy(), body);
    }

    /**
     * Like {@link #callThreads(int, RankFunction)} with an explicit base directory (under which the job's
     * directory is made) and the way its blocking calls wait.
     */
    public static <T> List<T> callThreads(final int ranks, final Path baseDirectory, final WaitOptions wait,
        final RankFunction<T> body) {
        return ThreadJob.run(ranks, baseDirectory, wait.strategy(), body);
    }

    /**
     * MPI_GET_ADDRESS: the address of {@code location} in this process, the target displacement by
     * which other ranks reach memory this rank attached to a dynamic window.
     */
    public static long address(final MemorySegment location) {
        return location.address();
    }

    /**
     * MPI_DIMS_CREATE (MPI-3.1 section 7.5.2): a balanced grid of {@code nnodes} cells for
     * {@link Communicator#cartCreate}. The zero entries of {@code dims} are filled so that the product of
     * all entries is {@code nnodes}, with extents as close to each other as possible and in non-increasing
     * order; the non-zero entries are kept.
     *
     * @return a new array ({@code dims} is not changed), e.g. {@code [3, 2]} for 6 nodes and {@code [0, 0]}.
     * @throws RmaException DIMS for a negative entry or fixed entries that do not divide {@code nnodes};
     *                      ARG for {@code nnodes < 1}.
     */
    public static int[] dimsCreate(final int nnodes, final int[] dims) {
        return CartTopology.dimsCreate(nnodes, dims);
    }

    private static RmaJob singleton(final WaitStrategy waitStrategy) {
        final JobDirectory directory = JobDirectory.create(JobDirectory.defaultBase());
        try {
            createControl(directory, 1).close();
            final RmaJob job = RmaJob.join(directory, 0, waitStrategy, true, true, null);
            Runtime.getRuntime().addShutdownHook(new Thread(directory::delete, "rma4j-cleanup"));
            return job;
        } catch (final RuntimeException e) {
            directory.delete();
            throw e;
        }
    }

    /**
     * Creates the control file of a job started in this process (a job of one, a thread-mode job).
     *
     * @throws RmaException NO_MEM if the job's file system has too little free space for it.
     */
    private static ControlFile createControl(final JobDirectory directory, final int ranks) {
        try {
            return ControlFile.create(directory.controlFile(), ranks, ProcessHandle.current().pid());
        } catch (final ShmSpaceException e) {
            throw SharedFileErrors.noSpace("creating the job's control file for " + ranks + " ranks", e);
        }
    }

    private static int parse(final String name, final String value) {
        try {
            return Integer.parseInt(value);
        } catch (final NumberFormatException e) {
            throw new RmaException(ErrorClass.OTHER, "environment " + name + "=" + value + " is not a number");
        }
    }

    /** The program of one rank in thread mode. */
    @FunctionalInterface
    public interface RankBody {
        void run(RmaJob job) throws Exception;
    }

    /** The program of one rank in thread mode, with a result. */
    @FunctionalInterface
    public interface RankFunction<T> {
        T call(RmaJob job) throws Exception;
    }

    /** Runs a thread-mode job. */
    private static final class ThreadJob {
        static <T> List<T> run(final int ranks, final Path base, final WaitStrategy waitStrategy,
            final RankFunction<T> body) {
            if (ranks < 1) {
                throw new RmaException(ErrorClass.ARG, "runThreads ranks=" + ranks + " must be >= 1");
            }
            final JobDirectory directory = JobDirectory.create(base);
            final List<T> results = new ArrayList<>(Collections.nCopies(ranks, null));
            final List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            final ControlFile created;
            try {
                created = createControl(directory, ranks);
            } catch (final RuntimeException e) {
                directory.delete();
                throw e;
            }
            try (ControlFile control = created) {
                final List<Thread> threads = new ArrayList<>();
                for (int rank = 0; rank < ranks; rank++) {
                    final Thread thread = rankThread(directory, control, rank, waitStrategy, body, results, failures);
                    threads.add(thread);
                    thread.start();
                }
                boolean interrupted = false;
                for (final Thread thread : threads) {
                    interrupted |= joinCancellingOnInterrupt(thread, control, ranks);
                }
                if (interrupted) {
                    Thread.currentThread().interrupt();
                    failures.add(0, new RmaException(ErrorClass.OTHER,
                        "the thread-mode job of " + ranks + " ranks was cancelled: its runner was interrupted"));
                }
            } finally {
                directory.delete();
            }
            if (!failures.isEmpty()) {
                throw report(failures);
            }
            return results;
        }

        /**
         * The thread of rank {@code rank}: joins the job, runs {@code body} and stores its result, or records
         * its failure and marks the rank failed.
         */
        private static <T> Thread rankThread(final JobDirectory directory, final ControlFile control, final int rank,
            final WaitStrategy waitStrategy, final RankFunction<T> body, final List<T> results,
            final List<Throwable> failures) {
            return new Thread(() -> {
                RmaJob job = null;
                try {
                    job = RmaJob.join(directory, rank, waitStrategy, false, false, null);
                    final T result = body.call(job);
                    synchronized (results) {
                        results.set(rank, result);
                    }
                    job.close();
                } catch (final Throwable t) {
                    failures.add(t);
                    if (job != null) {
                        job.abandon(t);
                    } else {
                        control.markFailed(rank);
                    }
                }
            }, "rma4j-rank-" + rank);
        }

        /**
         * @return the failure a failed job throws: the {@link #primary} one, with the others suppressed in it,
         *         wrapped in an RmaException if it is a checked exception.
         */
        private static RuntimeException report(final List<Throwable> failures) {
            final Throwable first = primary(failures);
            for (final Throwable other : failures) {
                // NOTE: ranks that only stopped because another failed add nothing but noise to its report.
                if (other != first && !(other instanceof RankFailedException)) {
                    first.addSuppressed(other);
                }
            }
            if (first instanceof RuntimeException runtime) {
                return runtime;
            }
            if (first instanceof Error error) {
                throw error;
            }
            return new RmaException(ErrorClass.OTHER, "a rank failed: " + first, first);
        }

        /**
         * @return the failure to report: an abort, else the first that is not a rank stopping because another
         *         failed, else the first.
         */
        private static Throwable primary(final List<Throwable> failures) {
            for (final Throwable failure : failures) {
                if (failure instanceof JobAbortedException) {
                    return failure;
                }
            }
            for (final Throwable failure : failures) {
                if (!(failure instanceof RankFailedException)) {
                    return failure;
                }
            }
            return failures.getFirst();
        }

        /**
         * Joins a rank thread. An interrupt of the runner cancels the job: every rank still running is
         * declared failed, so each blocked call of the job throws RankFailedException within the
         * liveness period and its thread ends.
         *
         * @return whether the runner was interrupted.
         */
        private static boolean joinCancellingOnInterrupt(final Thread thread, final ControlFile control,
            final int ranks) {
            boolean interrupted = false;
            while (true) {
                try {
                    thread.join();
                    return interrupted;
                } catch (final InterruptedException e) {
                    interrupted = true;
                    for (int rank = 0; rank < ranks; rank++) {
                        if (control.state(rank) != org.rma4j.shm.RankState.FINISHED) {
                            control.markFailed(rank);
                        }
                    }
                }
            }
        }
    }
}
