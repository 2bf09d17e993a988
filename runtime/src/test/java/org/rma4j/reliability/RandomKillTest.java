package org.rma4j.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.launch.JobEnvironment;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;
import org.rma4j.launch.RmaRun;
import org.rma4j.shm.JobDirectory;

/**
 * Jobs of 2-3 real rank processes running {@link ChaosMain} are killed at random points: a random rank
 * with SIGKILL, or (when the job runs under a separate {@code rmarun} JVM) that launcher JVM itself,
 * after which {@code rmarun --clean} or {@link JobDirectory#sweepStale} must remove what it left. After
 * every job its base directory must be empty.
 *
 * <p>Two lanes run jobs side by side, each in its own base directory, so that one job's JVMs start while
 * the other's wait. The seed is printed; {@code -Drma4j.chaos.seed=N} repeats the choices (not the
 * timing). Outcomes that depend on timing (whether a survivor noticed the death itself or was stopped by
 * the launcher) are counted and printed, not asserted; what is asserted holds on every path.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RandomKillTest {
    private static final int JOBS = Integer.getInteger("rma4j.chaos.jobs", 100);
    private static final int LANES = Integer.getInteger("rma4j.chaos.lanes", 2);
    private static final int ITERATIONS = 60;
    /** Kills land uniformly in this many milliseconds after the launch: JVM start, join, work and exit. */
    private static final int KILL_WINDOW_MS = 800;
    /** Kills after every rank joined land uniformly in this many milliseconds: work, window churn and exit. */
    private static final int WORK_WINDOW_MS = 400;
    private static final Duration GRACE = Duration.ofMillis(500);
    private static final Set<Integer> SURVIVOR_STATUSES = Set.of(0, ChaosMain.EXIT_PEER_FAILED, 128 + 9, 128 + 15);

    @RegisterExtension
    final ShmBase base = new ShmBase();

    @Test
    void shouldCompleteTheChaosProgramWhenNothingIsKilled() throws Exception {
        final Jobs.Outcome outcome = Jobs.run(base.path(), 3, ChaosMain.class, "7", Integer.toString(ITERATIONS));
        assertEquals(0, outcome.result().exitCode(), outcome::describe);
        for (int rank = 0; rank < 3; rank++) {
            assertEquals(List.of("done iterations=" + ITERATIONS), outcome.lines(rank, "done"), outcome::describe);
        }
        base.assertEmpty("by a job that ended normally");
    }

    @Test
    void shouldLeaveNoFileWhenAHundredJobsAreKilledAtRandomPoints() throws Throwable {
        final long seed = Long.getLong("rma4j.chaos.seed", System.nanoTime());
        System.out.println("random kills: seed " + seed + " (-Drma4j.chaos.seed=" + seed + " repeats the choices)");
        final long startNs = System.nanoTime();
        final List<Lane> lanes = new ArrayList<>();
        final List<CompletableFuture<Void>> runs = new ArrayList<>();
        for (int i = 0; i < LANES; i++) {
            final Lane lane = new Lane(i, Files.createDirectory(base.path().resolve("lane-" + i)), seed);
            lanes.add(lane);
            runs.add(CompletableFuture.runAsync(() -> lane.run(JOBS / LANES), runnable -> Thread.ofPlatform()
                .name("random-kill-lane-" + lane.index).start(runnable)));
        }
        try {
            CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).get();
        } catch (final ExecutionException e) {
            throw e.getCause() instanceof CompletionException c ? c.getCause() : e.getCause();
        }
        final Stats total = new Stats();
        lanes.forEach(lane -> total.add(lane.stats));
        System.out.printf("random kills: %d jobs in %.1f s; %s%n", JOBS, (System.nanoTime() - startNs) / 1e9, total);
        for (final Lane lane : lanes) {
            Files.delete(lane.path);
        }
    }

    @Test
    void shouldEndOrphanedRanksWhenTheLauncherAndAnUnjoinedRankAreKilled() throws Exception {
        final Lane lane = new Lane(0, base.path(), 0);
        final Process launcher = lane.startLauncherJvm(2, new String[] {"1", "10", "5000"});
        final List<ProcessHandle> ranks = lane.awaitRanks(launcher::descendants, 2);
        final ProcessHandle early = ranks.stream().filter(p -> ShmBase.rankOf(p.pid()) == 0).findFirst().orElseThrow();
        final ProcessHandle late = ranks.stream().filter(p -> ShmBase.rankOf(p.pid()) == 1).findFirst().orElseThrow();
        RankSupport.sleep(1000); // rank 0 is inside Rma.init, waiting for rank 1, which sleeps before joining
        launcher.destroyForcibly().waitFor();
        late.destroyForcibly();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ShmBase.isRunning(early.pid()) && System.nanoTime() < deadline) {
            RankSupport.sleep(20);
        }
        final boolean hung = ShmBase.isRunning(early.pid());
        early.destroyForcibly();
        JobDirectory.sweepStale(base.path());
        assertFalse(hung, "rank 0 still waits in Rma.init 10 s after its launcher and rank 1 were killed");
    }

    /** A sequence of jobs in one base directory. */
    private static final class Lane {
        private final int index;
        private final Path path;
        private final long seed;
        private final Random random;
        private final Stats stats = new Stats();
        private long lastKillNs;

        Lane(final int index, final Path path, final long seed) {
            this.index = index;
            this.path = path;
            this.seed = seed;
            this.random = new Random(seed + index);
        }

        void run(final int jobs) {
            try {
                for (int job = 0; job < jobs; job++) {
                    final long jobStartNs = System.nanoTime();
                    final int ranks = 2 + random.nextInt(2);
                    final String[] args = {Long.toString(random.nextLong()), Integer.toString(ITERATIONS)};
                    final String context = "lane " + index + " job " + job + " of seed " + seed;
                    switch (job % 10) {
                        case 7, 8 -> killRankUnderLauncherJvm(ranks, args, context);
                        case 9 -> killLauncherJvm(ranks, args, job % 20 == 19, context);
                        default -> killRankInProcess(ranks, args, context);
                    }
                    assertEquals(List.of(), entries(), "files left behind after " + context);
                    stats.slowestJobMs = Math.max(stats.slowestJobMs, (System.nanoTime() - jobStartNs) / 1_000_000);
                }
            } catch (final IOException e) {
                throw new UncheckedIOException(e);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (final ExecutionException | TimeoutException e) {
                throw new AssertionError("lane " + index + ": a job did not end", e);
            }
        }

        /**
         * A job run by a {@link Launcher} in this JVM; a random rank is killed once the random delay is over.
         */
        private void killRankInProcess(final int ranks, final String[] args, final String context)
            throws InterruptedException, ExecutionException, TimeoutException {
            final Jobs.Output output = new Jobs.Output();
            final Launcher launcher = Jobs.launcher(path, ranks, ChaosMain.class, output, args).grace(GRACE).build();
            final CompletableFuture<JobResult> run = new CompletableFuture<>();
            Thread.ofPlatform().daemon().start(() -> {
                try {
                    run.complete(launcher.run());
                } catch (final Throwable t) {
                    run.completeExceptionally(t);
                }
            });
            final int killed = killRandomRank(() -> ProcessHandle.current().children(), run,
                () -> readyLines(output.out) == ranks);
            final long killNs = lastKillNs;
            final JobResult result = run.get(60, TimeUnit.SECONDS);
            final Jobs.Outcome outcome = new Jobs.Outcome(result, output);
            for (int rank = 0; rank < ranks; rank++) {
                final int status = result.exitCode(rank);
                if (rank == killed && status == 128 + 9) {
                    assertNotEquals(0, result.exitCode(), () -> context + "\n" + outcome.describe());
                    assertTrue(outcome.errContains("rank " + rank + " exited with status 137"),
                        () -> context + "\n" + outcome.describe());
                    stats.killsLanded++;
                } else {
                    final int r = rank;
                    assertTrue(SURVIVOR_STATUSES.contains(status), () -> context + ": rank " + r + " ended with an"
                        + " unexpected status\n" + outcome.describe());
                    stats.count(status, killed >= 0, !outcome.lines(rank, "ready").isEmpty());
                    outcome.lines(rank, "PEER_FAILED").forEach(line -> stats.detectionMs.add(
                        (Long.parseLong(Jobs.Outcome.field(line, "at")) - killNs) / 1e6));
                    if (status > 128) {
                        stats.stoppedIn("status " + status);
                    }
                    outcome.lines(rank, "STOPPED in ").forEach(line -> stats.stoppedIn(line.substring(11)));
                }
            }
            if (killed < 0) {
                assertEquals(0, result.exitCode(), () -> context + "\n" + outcome.describe());
            }
            stats.jobs++;
        }

        /**
         * A job run by a separate rmarun JVM; a random rank is killed once the random delay is over.
         */
        private void killRankUnderLauncherJvm(final int ranks, final String[] args, final String context)
            throws IOException, InterruptedException {
            final Process launcher = startLauncherJvm(ranks, args);
            final Lines out = Lines.of(launcher.getInputStream());
            final Lines err = Lines.of(launcher.getErrorStream());
            final int killed = killRandomRank(launcher::descendants, launcher.onExit(), () -> out.ready() == ranks);
            assertTrue(launcher.waitFor(60, TimeUnit.SECONDS), context + ": the launcher did not end");
            final int status = launcher.exitValue();
            final Supplier<String> describe =
                () -> context + ": rmarun exited with " + status + "\n" + out + "\n" + err;
            if (killed >= 0 && err.contains("rank " + killed + " exited with status 137")) {
                assertNotEquals(0, status, describe);
                stats.killsLanded++;
            } else {
                assertEquals(0, status, describe);
            }
            assertFalse(out.contains("INVARIANT") || out.contains("UNEXPECTED"), describe);
            stats.jobs++;
            stats.launcherJvms++;
        }

        /**
         * A job run by a separate rmarun JVM that is killed with SIGKILL once every rank joined (sometimes
         * with one of its ranks); the orphaned ranks end by themselves, and a sweep removes the job directory.
         */
        private void killLauncherJvm(
            final int ranks, final String[] args, final boolean alsoKillARank, final String context)
            throws IOException, InterruptedException {
            final Process launcher = startLauncherJvm(ranks, args);
            final Lines out = Lines.of(launcher.getInputStream());
            Lines.of(launcher.getErrorStream());
            // NOTE: only once every rank joined: a launcher killed earlier leaves ranks that wait forever
            // (see shouldEndOrphanedRanksWhenTheLauncherAndAnUnjoinedRankAreKilled).
            final List<Long> rankPids = out.awaitReady(ranks, Duration.ofSeconds(30));
            RankSupport.sleep(random.nextInt(400));
            launcher.destroyForcibly();
            assertTrue(launcher.waitFor(10, TimeUnit.SECONDS));
            if (alsoKillARank) {
                ProcessHandle.of(rankPids.get(random.nextInt(ranks))).ifPresent(ProcessHandle::destroyForcibly);
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (rankPids.stream().anyMatch(ShmBase::isRunning) && System.nanoTime() < deadline) {
                RankSupport.sleep(10);
            }
            final List<Long> hung = rankPids.stream().filter(ShmBase::isRunning).toList();
            hung.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
            assertEquals(List.of(), hung, context + ": orphaned ranks did not end within 30 s\n" + out);
            assertFalse(out.contains("INVARIANT") || out.contains("UNEXPECTED"), context + "\n" + out);
            final boolean leftSomething = !entries().isEmpty();
            if (random.nextBoolean()) {
                final ByteArrayOutputStream messages = new ByteArrayOutputStream();
                final PrintStream stream = new PrintStream(messages, true, StandardCharsets.UTF_8);
                assertEquals(0, RmaRun.execute(stream, stream, "--clean", "--shm-dir", path.toString()));
                if (leftSomething) {
                    assertTrue(messages.toString(StandardCharsets.UTF_8).contains("removed 1 stale job directory"),
                        () -> context + ": " + messages);
                }
            } else {
                final List<Path> removed = JobDirectory.sweepStale(path);
                assertEquals(leftSomething ? 1 : 0, removed.size(), context + ": " + removed);
            }
            stats.jobs++;
            stats.launcherJvms++;
            stats.launchersKilled++;
            if (leftSomething) {
                stats.swept++;
            }
        }

        /**
         * Waits a random time, then kills one random rank process that runs by then (waiting for one to exist).
         * One kill in three lands in the first {@link #KILL_WINDOW_MS} after the launch, mostly while JVMs
         * start; the others a random time of up to {@link #WORK_WINDOW_MS} after every rank joined.
         *
         * @return the killed rank, or -1 if the job ended first.
         */
        private int killRandomRank(
            final Supplier<Stream<ProcessHandle>> candidates, final CompletableFuture<?> end,
            final BooleanSupplier joined) {
            final boolean early = random.nextInt(3) == 0;
            final int delayMs = random.nextInt(early ? KILL_WINDOW_MS : WORK_WINDOW_MS);
            final int choice = random.nextInt(3);
            while (!early && !joined.getAsBoolean() && !end.isDone()) {
                RankSupport.sleep(1);
            }
            final long killAtNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs);
            while (System.nanoTime() < killAtNs && !end.isDone()) {
                RankSupport.sleep(1);
            }
            while (!end.isDone()) {
                final List<ProcessHandle> ranks = candidates.get().filter(this::isRank).toList();
                if (!ranks.isEmpty()) {
                    final ProcessHandle victim = ranks.get(choice % ranks.size());
                    final int rank = ShmBase.rankOf(victim.pid());
                    lastKillNs = System.nanoTime();
                    victim.destroyForcibly();
                    return rank;
                }
                RankSupport.sleep(1);
            }
            stats.endedBeforeKill++;
            return -1;
        }

        /**
         * Whether a process is a rank JVM of a job of this lane (a launcher's child between fork and exec
         * still shows the launcher's environment).
         */
        boolean isRank(final ProcessHandle process) {
            return ShmBase.environment(process.pid()).contains(JobEnvironment.JOB_DIR + "=" + path + "/");
        }

        List<ProcessHandle> awaitRanks(final Supplier<Stream<ProcessHandle>> candidates, final int count) {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                final List<ProcessHandle> ranks = candidates.get().filter(this::isRank).toList();
                if (ranks.size() == count) {
                    return ranks;
                }
                RankSupport.sleep(5);
            }
            throw new AssertionError("the ranks did not start");
        }

        Process startLauncherJvm(final int ranks, final String[] args) throws IOException {
            final List<String> command = new ArrayList<>();
            command.add(Launcher.builder().mainClass("none").build().command().getFirst());
            command.addAll(Jobs.FAST_JVM);
            command.add(Launcher.NATIVE_ACCESS_OPTION);
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(RmaRun.class.getName());
            command.addAll(List.of("-n", Integer.toString(ranks), "--shm-dir", path.toString(),
                "--grace-ms", Long.toString(GRACE.toMillis())));
            Jobs.FAST_JVM.forEach(option -> command.add("--jvm-opt=" + option));
            command.add(ChaosMain.class.getName());
            command.addAll(List.of(args));
            return new ProcessBuilder(command).start();
        }

        private List<Path> entries() throws IOException {
            try (Stream<Path> entries = Files.list(path)) {
                return entries.toList();
            }
        }
    }

    /**
     * @return how many ranks printed that they joined.
     */
    private static long readyLines(final List<String> lines) {
        synchronized (lines) {
            return lines.stream().filter(line -> line.matches("\\[\\d+] ready \\d+")).count();
        }
    }

    /** Lines read from a stream by a daemon thread. */
    private static final class Lines {
        private final List<String> lines = Collections.synchronizedList(new ArrayList<>());

        static Lines of(final InputStream stream) {
            final Lines lines = new Lines();
            Thread.ofPlatform().daemon().start(() -> {
                try (BufferedReader reader =
                    new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                        lines.lines.add(line);
                    }
                } catch (final IOException ignored) {
                    // the process is gone
                }
            });
            return lines;
        }

        boolean contains(final String text) {
            synchronized (lines) {
                return lines.stream().anyMatch(line -> line.contains(text));
            }
        }

        long ready() {
            return readyLines(lines);
        }

        List<Long> awaitReady(final int ranks, final Duration timeout) {
            final long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                synchronized (lines) {
                    final List<Long> pids = lines.stream().filter(line -> line.matches("\\[\\d+] ready \\d+"))
                        .map(line -> Long.parseLong(line.substring(line.lastIndexOf(' ') + 1))).toList();
                    if (pids.size() == ranks) {
                        return pids;
                    }
                }
                RankSupport.sleep(2);
            }
            return fail("the ranks did not all join within " + timeout + ":\n" + this);
        }

        @Override
        public String toString() {
            synchronized (lines) {
                return String.join("\n", lines);
            }
        }
    }

    /** What happened over the jobs. */
    private static final class Stats {
        int jobs;
        int launcherJvms;
        int killsLanded;
        int endedBeforeKill;
        int survivorsDetected;
        int survivorsStoppedBeforeJoining;
        int survivorsStoppedAfterJoining;
        int survivorsFinished;
        int launchersKilled;
        int swept;
        long slowestJobMs;
        final Map<String, Integer> stoppedIn = new TreeMap<>();
        final List<Double> detectionMs = new ArrayList<>();

        void stoppedIn(final String where) {
            stoppedIn.merge(where.replaceAll("iteration \\d+ ", ""), 1, Integer::sum);
        }

        void count(final int status, final boolean killedSomething, final boolean joined) {
            if (status == ChaosMain.EXIT_PEER_FAILED) {
                survivorsDetected++;
            } else if (status != 0 && joined) {
                survivorsStoppedAfterJoining++;
            } else if (status != 0) {
                survivorsStoppedBeforeJoining++;
            } else if (killedSomething) {
                survivorsFinished++;
            }
        }

        void add(final Stats other) {
            jobs += other.jobs;
            launcherJvms += other.launcherJvms;
            killsLanded += other.killsLanded;
            endedBeforeKill += other.endedBeforeKill;
            survivorsDetected += other.survivorsDetected;
            survivorsStoppedBeforeJoining += other.survivorsStoppedBeforeJoining;
            survivorsStoppedAfterJoining += other.survivorsStoppedAfterJoining;
            survivorsFinished += other.survivorsFinished;
            launchersKilled += other.launchersKilled;
            swept += other.swept;
            slowestJobMs = Math.max(slowestJobMs, other.slowestJobMs);
            other.stoppedIn.forEach((where, count) -> stoppedIn.merge(where, count, Integer::sum));
            detectionMs.addAll(other.detectionMs);
        }

        @Override
        public String toString() {
            return "jobs=" + jobs + " (under a separate rmarun JVM: " + launcherJvms + ", launcher JVM killed: "
                + launchersKilled + ", of which left a directory for the sweep: " + swept + "), rank kills landed="
                + killsLanded + ", jobs ended before the kill=" + endedBeforeKill + "; survivors of in-process jobs:"
                + " noticed the death themselves=" + survivorsDetected + ", stopped by the launcher after joining="
                + survivorsStoppedAfterJoining + ", stopped by the launcher before joining="
                + survivorsStoppedBeforeJoining + " (where the stopped ones were: " + stoppedIn + "), had already"
                + " finished=" + survivorsFinished + "; " + detection() + "; slowest job " + slowestJobMs + " ms";
        }

        private String detection() {
            if (detectionMs.isEmpty()) {
                return "no survivor noticed a death itself";
            }
            final List<Double> sorted = detectionMs.stream().sorted().toList();
            return String.format(Locale.ROOT, "time from kill to a survivor's PeerFailedException: median"
                + " %.0f ms, 90th percentile %.0f ms, max %.0f ms", sorted.get(sorted.size() / 2),
                sorted.get(sorted.size() * 9 / 10), sorted.getLast());
        }
    }
}
