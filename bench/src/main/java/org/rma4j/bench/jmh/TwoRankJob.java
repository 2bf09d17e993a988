package org.rma4j.bench.jmh;

import org.rma4j.WaitOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.shm.JobDirectory;

/**
 * A thread-mode job of two ranks for one benchmark trial, whose rank 0 is driven by the caller's
 * thread (the JMH benchmark thread).
 *
 * <p>{@link #start} runs {@link Rma#callThreads} on a background thread. Both ranks allocate a window
 * of {@code windowBytes} (displacement unit 1). Rank 0's thread hands its {@link RmaJob} and
 * {@link Window} to the caller and waits on a latch; rank 1 runs its {@link Partner} and then waits
 * on the same latch. {@link #close()} opens the latch, after which both rank threads free the window
 * collectively and leave the job; it then checks that the job directory is gone. A shutdown hook
 * removes the base directory if the JVM exits before {@link #close()} (a hung trial, Ctrl-C).
 *
 * <p>The job uses {@link WaitOptions#busySpin()}: a rank blocked in an rma4j call spins. Waiting on
 * the latch is an ordinary Java wait, so an idle partner costs no CPU.
 *
 * <p>The caller must end every epoch it opened on the window (unlockAll, complete, ...) before
 * {@link #close()}: the window is freed by rank 0's own thread after the latch opens, which also
 * gives the caller's calls a happens-before edge to the free.
 */
public final class TwoRankJob implements AutoCloseable {
    /** The rank the benchmark thread plays. */
    public static final int ORIGIN = 0;
    /** The partner rank, target of every benchmark operation. */
    public static final int TARGET = 1;

    /** Longest wait for the job to start or to finish; a hung partner fails the trial instead of the run. */
    static final long TIMEOUT_SECONDS = 60;

    /** Prefix of the private base directory under /dev/shm that holds the job directory. */
    static final String BASE_PREFIX = "rma4j-bench-";

    /** A partner that does nothing: rank 1 stays idle until {@link #close()}. */
    public static final Partner IDLE = window -> {
    };

    private final Path base;
    private final CountDownLatch released = new CountDownLatch(1);
    private final CompletableFuture<Origin> origin = new CompletableFuture<>();
    private final Thread runner;
    private final Thread cleanupHook;
    private volatile Throwable failure;
    private Origin handle;
    private boolean closed;

    private TwoRankJob(final Path base, final long windowBytes, final Partner partner) {
        this.base = base;
        this.runner = Thread.ofPlatform().name("rma4j-bench-job").daemon(true)
            .unstarted(() -> run(windowBytes, partner));
        this.cleanupHook = new Thread(this::deleteTree, "rma4j-bench-cleanup");
    }

    /**
     * Starts the job and returns once rank 0's window exists at both ranks.
     *
     * @param windowBytes each rank's window size in bytes.
     * @param partner     what rank 1 does with its window before it waits for {@link #close()}.
     * @throws IllegalStateException if the job fails to start within {@link #TIMEOUT_SECONDS}.
     */
    public static TwoRankJob start(final long windowBytes, final Partner partner) {
        final Path base;
        try {
            base = Files.createTempDirectory(JobDirectory.defaultBase(), BASE_PREFIX);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot create a base directory under " + JobDirectory.defaultBase(), e);
        }
        final TwoRankJob job = new TwoRankJob(base, windowBytes, partner);
        // A trial that hangs or is interrupted (JMH fork timeout, Ctrl-C) exits without teardown.
        Runtime.getRuntime().addShutdownHook(job.cleanupHook);
        job.runner.start();
        try {
            job.handle = job.origin.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (final InterruptedException | ExecutionException | TimeoutException e) {
            job.close(e);
            throw new IllegalStateException("the two-rank job did not start: " + e, e);
        }
        return job;
    }

    /**
     * @return rank 0's window.
     */
    public Window window() {
        return handle.window();
    }

    /**
     * @return rank 0's job handle.
     */
    public RmaJob job() {
        return handle.job();
    }

    /**
     * Lets both ranks free the window and leave the job, waits for them, and checks that nothing is
     * left under the base directory, which is then removed. Idempotent.
     *
     * @throws IllegalStateException if a rank failed, the ranks did not finish in time, or files were
     *                               left behind.
     */
    @Override
    public void close() {
        close(null);
    }

    private void close(final Throwable pending) {
        if (closed) {
            return;
        }
        closed = true;
        released.countDown();
        IllegalStateException problem = null;
        try {
            runner.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (runner.isAlive()) {
            problem = new IllegalStateException("the ranks did not finish within " + TIMEOUT_SECONDS + " s");
        } else if (failure != null && pending == null) {
            problem = new IllegalStateException("a rank failed: " + failure, failure);
        } else {
            final List<Path> left = entries();
            if (!left.isEmpty()) {
                problem = new IllegalStateException("job files left behind under " + base + ": " + left);
            }
        }
        if (!runner.isAlive()) {
            deleteTree();
            Runtime.getRuntime().removeShutdownHook(cleanupHook);
        }
        if (problem != null) {
            throw problem;
        }
    }

    private void run(final long windowBytes, final Partner partner) {
        try {
            Rma.callThreads(2, base, WaitOptions.busySpin(), job -> {
                final Window window = job.allocate(windowBytes, 1);
                if (job.rank() == ORIGIN) {
                    origin.complete(new Origin(job, window));
                } else {
                    partner.run(window);
                }
                released.await();
                window.free();
                return null;
            });
        } catch (final Throwable t) {
            failure = t;
            origin.completeExceptionally(t);
        }
    }

    private List<Path> entries() {
        try (Stream<Path> entries = Files.list(base)) {
            return entries.toList();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void deleteTree() {
        if (!Files.exists(base)) {
            return;
        }
        try (Stream<Path> tree = Files.walk(base)) {
            for (final Path entry : tree.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.deleteIfExists(entry);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot remove " + base, e);
        }
    }

    /** What rank 1 does with its window between the window's creation and {@link #close()}. */
    @FunctionalInterface
    public interface Partner {
        void run(Window window) throws Exception;
    }

    private record Origin(RmaJob job, Window window) {
    }
}
