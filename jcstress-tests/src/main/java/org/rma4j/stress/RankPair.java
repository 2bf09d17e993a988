package org.rma4j.stress;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.rma4j.Info;
import org.rma4j.WaitOptions;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.shm.JobDirectory;

/**
 * A thread-mode job of two ranks (or more, {@link #start(String, int, WindowSpec...)}) that lives as long as
 * the JVM, made once per jcstress test class, and
 * the windows the test's state objects share.
 *
 * <p>{@link #start} runs {@link Rma#callThreads} on a background thread. Each rank thread maps the job's
 * files itself (the code paths of process mode), creates the windows of the given {@link WindowSpec}s
 * (collectively, {@code allocateShared}, displacement unit 1, so displacements are byte offsets), opens the
 * epoch each spec asks for, hands its {@link Window} handles over and parks until the JVM exits. The
 * actors then call the windows from jcstress's threads: actor 1 uses the handles of rank 0, actor 2 those
 * of rank 1. A handle is used by one thread at a time: jcstress runs each actor on one thread at a time and
 * orders its threads' hand-overs, and data calls inside an open epoch may come from any thread (see
 * {@link Window}).
 *
 * <p>Slots: every window is {@link #SLOTS} slots of {@code slotBytes} per rank. Each state object takes the
 * next slot number ({@link #nextSlot()}, rotating) in its constructor, uses the same slot in every window and
 * writes its initial values there (the slot may still hold those of the state that had it {@link #SLOTS}
 * states before). jcstress 0.16 constructs a fresh state for every round of a state class whose fields are
 * final (it cannot reset them in place), so the live states are always the most recently constructed
 * ones, at most {@code strideSize * strideCount} of them (256 x 40 = 10,240 in every preset): no two live
 * states share a slot.
 *
 * <p>Files: the job lives under {@code <rma4j.shm.dir>/rma4j-jcstress-<pid>/}, deleted by a shutdown hook
 * that also lets the rank threads leave the job; directories of dead JVMs found there are swept at start.
 */
final class RankPair {
    /** Slots per window and rank; see the class comment for the bound on live state objects. */
    static final int SLOTS = 1 << 15;

    private static final String BASE_PREFIX = "rma4j-jcstress-";
    private static final long START_TIMEOUT_SECONDS = 120;
    private static final long STOP_TIMEOUT_MILLIS = 10_000;

    private final String name;
    private final WindowSpec[] specs;
    private final int ranks;
    private final Window[][] windows;
    private final RmaJob[] jobs;
    private final AtomicInteger nextSlot = new AtomicInteger();

    private RankPair(final String name, final int ranks, final WindowSpec[] specs) {
        this.name = name;
        this.ranks = ranks;
        this.specs = specs;
        this.windows = new Window[ranks][];
        this.jobs = new RmaJob[ranks];
    }

    /**
     * How a window of the pair is made.
     *
     * @param slotBytes bytes of one slot (a multiple of 128, so slots never share a cache line pair).
     * @param epoch     the epoch both ranks open on it before the actors run.
     * @param info      info hints for its creation, or null.
     */
    record WindowSpec(long slotBytes, Epoch epoch, Info info) {
        WindowSpec {
            if (slotBytes <= 0 || slotBytes % 128 != 0) {
                throw new IllegalArgumentException("slotBytes=" + slotBytes + " must be a positive multiple of 128");
            }
            Objects.requireNonNull(epoch, "epoch");
        }

        static WindowSpec of(final long slotBytes, final Epoch epoch) {
            return new WindowSpec(slotBytes, epoch, null);
        }
    }

    /** The epoch a window is in when the actors get it. */
    enum Epoch {
        /** No epoch: the test opens and closes its own (lock / unlock, post / start / complete / wait). */
        NONE,
        /** lock_all at both ranks, held until the JVM exits. */
        LOCK_ALL,
        /** A fence at both ranks: an open fence epoch, which the test's own fences continue. */
        FENCE
    }

    /**
     * Starts the job with the default wait strategy and blocks until both ranks handed their windows over.
     *
     * @throws IllegalStateException if the job does not start.
     */
    static RankPair start(final String name, final WindowSpec... specs) {
        return start(name, WaitOptions.defaults(), specs);
    }

    /**
     * Starts the job with {@code waitStrategy} for every blocking call of its ranks.
     */
    static RankPair start(final String name, final WaitOptions waitStrategy, final WindowSpec... specs) {
        final RankPair pair = new RankPair(name, 2, specs.clone());
        pair.launch(waitStrategy);
        return pair;
    }

    /**
     * Starts a job of {@code ranks} ranks (the actors of a test drive several ranks' steps each: jcstress
     * 0.16 runs no test with more actors than CPUs).
     */
    static RankPair start(final String name, final int ranks, final WindowSpec... specs) {
        if (ranks < 2) {
            throw new IllegalArgumentException("ranks=" + ranks + " must be >= 2");
        }
        final RankPair pair = new RankPair(name, ranks, specs.clone());
        pair.launch(WaitOptions.defaults());
        return pair;
    }

    /**
     * @return the handle of window {@code index} at {@code rank} (0 or 1 in a pair).
     */
    Window window(final int index, final int rank) {
        return windows[rank][index];
    }

    /**
     * @return the job handle of {@code rank}, for its collective calls (barrier).
     */
    RmaJob job(final int rank) {
        return jobs[rank];
    }

    /**
     * @return {@code rank}'s own part of window {@code index}, in {@code rank}'s mapping (MPI_WIN_BASE).
     */
    MemorySegment local(final int index, final int rank) {
        return windows[rank][index].segment();
    }

    /**
     * @return the part of window {@code index} that belongs to {@code owner}, in {@code viewer}'s mapping
     *         (MPI_WIN_SHARED_QUERY): what {@code viewer} loads and stores directly.
     */
    MemorySegment shared(final int index, final int viewer, final int owner) {
        return windows[viewer][index].sharedQuery(owner).segment();
    }

    /**
     * @return the next slot number for a new state object (rotating over {@link #SLOTS}).
     */
    int nextSlot() {
        return nextSlot.getAndIncrement() & (SLOTS - 1);
    }

    /**
     * @return the byte displacement of {@code slot} in window {@code index}.
     */
    long offset(final int index, final int slot) {
        return slot * specs[index].slotBytes();
    }

    private void launch(final WaitOptions waitStrategy) {
        final Path base = createBase();
        final CountDownLatch release = new CountDownLatch(1);
        final CompletableFuture<Void> ready = new CompletableFuture<>();
        final AtomicInteger handedOver = new AtomicInteger();
        final Thread runner = new Thread(() -> {
            try {
                Rma.callThreads(ranks, base, waitStrategy, job -> {
                    final Window[] mine = new Window[specs.length];
                    for (int i = 0; i < specs.length; i++) {
                        final long bytes = SLOTS * specs[i].slotBytes();
                        mine[i] = specs[i].info() == null
                            ? job.allocateShared(bytes, 1)
                            : job.allocateShared(bytes, 1, specs[i].info());
                    }
                    for (int i = 0; i < specs.length; i++) {
                        open(mine[i], specs[i].epoch());
                    }
                    windows[job.rank()] = mine;
                    jobs[job.rank()] = job;
                    // NOTE: the last rank to hand over completes 'ready', whose completion publishes the arrays.
                    if (handedOver.incrementAndGet() == ranks) {
                        ready.complete(null);
                    }
                    release.await();
                    return null;
                });
            } catch (final Throwable t) {
                ready.completeExceptionally(t);
            }
        }, "rma4j-jcstress-" + name);
        runner.setDaemon(true);
        runner.start();
        Runtime.getRuntime()
            .addShutdownHook(new Thread(() -> stop(runner, release, base), "rma4j-jcstress-stop-" + name));
        try {
            ready.get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (final ExecutionException e) {
            throw new IllegalStateException("the " + ranks + "-rank job of " + name + " failed to start", e.getCause());
        } catch (final TimeoutException e) {
            throw new IllegalStateException(
                "the " + ranks + "-rank job of " + name + " did not start in " + START_TIMEOUT_SECONDS + " s", e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the " + ranks + "-rank job of " + name + " started", e);
        }
    }

    private static void open(final Window window, final Epoch epoch) {
        switch (epoch) {
            case NONE -> {
            }
            case LOCK_ALL -> window.lockAll();
            case FENCE -> window.fence(0);
        }
    }

    private static void stop(final Thread runner, final CountDownLatch release, final Path base) {
        release.countDown();
        try {
            runner.join(STOP_TIMEOUT_MILLIS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        deleteTree(base);
    }

    /**
     * Makes this JVM's base directory for jobs, after sweeping those of JVMs that no longer run.
     */
    private static Path createBase() {
        final Path root = JobDirectory.defaultBase();
        final long pid = ProcessHandle.current().pid();
        sweepDead(root);
        final Path base = root.resolve(BASE_PREFIX + pid);
        try {
            Files.createDirectories(base);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot create " + base, e);
        }
        return base;
    }

    private static void sweepDead(final Path root) {
        try (Stream<Path> entries = Files.list(root)) {
            entries.filter(p -> p.getFileName().toString().startsWith(BASE_PREFIX))
                .filter(p -> !isAlive(p.getFileName().toString().substring(BASE_PREFIX.length())))
                .forEach(RankPair::deleteTree);
        } catch (final IOException | SecurityException e) {
            // Sweeping is hygiene only: a directory we cannot list holds nothing of ours.
        }
    }

    private static boolean isAlive(final String pid) {
        try {
            return ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
        } catch (final NumberFormatException e) {
            return true;
        }
    }

    private static void deleteTree(final Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (final IOException e) {
                    // Left for the next sweep.
                }
            });
        } catch (final IOException | UncheckedIOException e) {
            // Already gone, or left for the next sweep.
        }
    }
}
