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
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;
import org.rma4j.launch.RmaRun;
import org.rma4j.shm.JobDirectory;
import org.rma4j.test.ShmTestDirectory;
import org.rma4j.test.TestProcesses;

/**
 * Jobs of 2-3 real rank processes running {@link ChaosMain} are killed at random points: a random rank
 * with SIGKILL, or (when the job runs under a separate {@code rmarun} JVM) that launcher JVM itself,
 * after which {@code rmarun --clean} or {@link JobDirectory#sweepStale} must remove what it left. After
 * every job its base directory must be empty.
 *
 * <p>Every kill lands on a live process, by handshake rather than timing: a rank is killed only after it
 * printed {@code started <pid>} (or, for kills during the work, after every rank printed {@code ready}),
 * and its ranks run until killed, so its exit status must show SIGKILL; a launcher JVM is killed while
 * its ranks cannot have ended, since after their work they wait for a hold file that the test creates only
 * after the kill. Every survivor of a killed rank
 * must notice the death itself (RankFailedException, exit status 3; the launcher's grace is long enough
 * that it never stops one first), and one of them must name the killed rank (the first to notice can
 * only see that rank dead; a later one may name a survivor that already left).
 *
 * <p>Two lanes run jobs side by side, each in its own base directory, so that one job's JVMs start while
 * the other's wait. The seed is printed; {@code -Drma4j.chaos.seed=N} repeats the choices (not the
 * timing). Where the survivors were and how long they took to notice are counted and printed.
 */
@Tag("reliability")
@Tag("soak")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RandomKillTest {
    private static final int JOBS = Integer.getInteger("rma4j.chaos.jobs", 100);
    private static final int LANES = Integer.getInteger("rma4j.chaos.lanes", 2);
    private static final int ITERATIONS = 60;
    /** Kills land uniformly in this many milliseconds after the launch: JVM start, join, work and exit. */
    private static final int KILL_WINDOW_MS = 800;
    /** Kills after every rank joined land uniformly in this many milliseconds: work, window churn and exit. */
    private static final int WORK_WINDOW_MS = 400;
    /**
     * How long the launcher lets the other ranks run after one died: far longer than a survivor takes to
     * notice (a few liveness periods), so that every survivor ends by itself.
     */
    private static final Duration GRACE = Duration.ofSeconds(30);
    /** Iterations of the jobs whose launcher is killed: their ranks end by themselves. */
    private static final String UNTIL_KILLED = "0";

    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory("rma4j-reliability-");

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
            runs.add(CompletableFuture.runAsync(() -> lane.run(JOBS / LANES),
                runnable -> Thread.ofPlatform().name("random-kill-lane-" + lane.index).start(runnable)));
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
        final Process launcher = lane.startLauncherJvm(2, new String[] {"1", "10", "60000"});
        final Lines out = Lines.of(launcher.getInputStream());
        Lines.of(launcher.getErrorStream());
        // Both printed started: rank 0 goes on into Rma.init, where it waits for rank 1, which waits a minute
        // before joining. Whether rank 0 is already inside Rma.init or enters it after the kills, it must end.
        out.awaitPids("started", 2, Duration.ofSeconds(30));
        final ProcessHandle early = ProcessHandle.of(pidOf(out.lines, 0, "started")).orElseThrow();
        final ProcessHandle late = ProcessHandle.of(pidOf(out.lines, 1, "started")).orElseThrow();
        launcher.destroyForcibly().waitFor();
        late.destroyForcibly();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (TestProcesses.isRunning(early.pid()) && System.nanoTime() < deadline) {
            RankSupport.sleep(20);
        }
        final boolean hung = TestProcesses.isRunning(early.pid());
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
                    final String jobSeed = Long.toString(random.nextLong());
                    final String[] untilKilled = {jobSeed, UNTIL_KILLED};
                    final String context = "lane " + index + " job " + job + " of seed " + seed;
                    switch (job % 10) {
                        case 7, 8 -> killRankUnderLauncherJvm(ranks, untilKilled, context);
                        case 9 -> killLauncherJvm(ranks, jobSeed, job % 20 == 19, context);
                        default -> killRankInProcess(ranks, untilKilled, context);
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
            final int killed = killRandomRank(ranks, output.out, run);
            final long killNs = lastKillNs;
            final JobResult result = run.get(60, TimeUnit.SECONDS);
            final Jobs.Outcome outcome = new Jobs.Outcome(result, output);
            final Supplier<String> describe = () -> context + ": rank " + killed + " killed\n" + outcome.describe();
            assertEquals(128 + 9, result.exitCode(killed), describe);
            assertNotEquals(0, result.exitCode(), describe);
            assertTrue(outcome.errContains("rank " + killed + " exited with status 137"), describe);
            stats.killsLanded++;
            final List<String> reports = new ArrayList<>();
            for (int rank = 0; rank < ranks; rank++) {
                if (rank == killed) {
                    continue;
                }
                final List<String> lines = outcome.lines(rank, "PEER_FAILED ");
                assertEquals(1, lines.size(), describe);
                assertEquals(ChaosMain.EXIT_PEER_FAILED, result.exitCode(rank), describe);
                reports.add(lines.getFirst());
                stats.detected(lines.getFirst(), killed, killNs, !outcome.lines(rank, "ready").isEmpty());
            }
            assertTrue(reports.stream().anyMatch(line -> ("rank=" + killed).equals(line.split(" ")[1])), describe);
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
            final int killed = killRandomRank(ranks, out.lines, launcher.onExit());
            assertTrue(launcher.waitFor(60, TimeUnit.SECONDS), context + ": the launcher did not end");
            final int status = launcher.exitValue();
            final Supplier<String> describe = () -> context + ": rank " + killed + " killed, rmarun exited with "
                + status + "\n" + out + "\n" + err;
            out.awaitEnd();
            err.awaitEnd();
            assertNotEquals(0, status, describe);
            assertTrue(err.contains("rank " + killed + " exited with status 137"), describe);
            stats.killsLanded++;
            boolean named = false;
            for (int rank = 0; rank < ranks; rank++) {
                if (rank != killed) {
                    final List<String> lines = out.starting("[" + rank + "] PEER_FAILED ");
                    assertEquals(1, lines.size(), describe);
                    named |= lines.getFirst().contains("PEER_FAILED rank=" + killed + " ");
                }
            }
            assertTrue(named, describe);
            assertFalse(out.contains("INVARIANT") || out.contains("UNEXPECTED"), describe);
            stats.jobs++;
            stats.launcherJvms++;
        }

        /**
         * A job run by a separate rmarun JVM that is killed with SIGKILL once every rank joined (sometimes
         * with one of its ranks); the orphaned ranks end by themselves, and a sweep removes the job directory.
         * The ranks wait for a hold file after their iterations, so the launcher, which lives as long as one
         * of them does, is alive when it is killed. What the ranks print after that has no reader (their
         * launcher was their only one, and they are not this JVM's children, so their exit statuses are
         * not seen either): that they end is what is asserted here; that survivors notice a killed rank is
         * asserted by the other kinds of job.
         */
        private void killLauncherJvm(final int ranks, final String jobSeed, final boolean alsoKillARank,
            final String context) throws IOException, InterruptedException {
            final Path hold = path.resolveSibling(path.getFileName() + ".hold");
            final Process launcher = startLauncherJvm(ranks,
                new String[] {jobSeed, Integer.toString(ITERATIONS), "0", hold.toString()});
            final Lines out = Lines.of(launcher.getInputStream());
            Lines.of(launcher.getErrorStream());
            // NOTE: only once every rank joined: a launcher killed earlier leaves ranks that wait forever
            // (see shouldEndOrphanedRanksWhenTheLauncherAndAnUnjoinedRankAreKilled).
            final List<Long> rankPids = out.awaitPids("ready", ranks, Duration.ofSeconds(30));
            RankSupport.sleep(random.nextInt(400)); // a random point of the work, not a synchronization
            assertTrue(launcher.isAlive(), context + ": the launcher ended while its ranks wait for " + hold);
            launcher.destroyForcibly();
            assertTrue(launcher.waitFor(10, TimeUnit.SECONDS));
            assertEquals(128 + 9, launcher.exitValue(), context + ": the launcher was not killed\n" + out);
            if (alsoKillARank) {
                final ProcessHandle victim = ProcessHandle.of(rankPids.get(random.nextInt(ranks))).orElseThrow(
                    () -> new AssertionError(context + ": the rank to kill ended while it waits for " + hold));
                assertTrue(victim.destroyForcibly(), context);
                stats.killsLanded++;
            }
            Files.createFile(hold);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (rankPids.stream().anyMatch(TestProcesses::isRunning) && System.nanoTime() < deadline) {
                RankSupport.sleep(10);
            }
            Files.delete(hold);
            final List<Long> hung = rankPids.stream().filter(TestProcesses::isRunning).toList();
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
         * Kills one random rank with SIGKILL once it is known to run. One kill in three lands a random time of
         * up to {@link #KILL_WINDOW_MS} after the victim printed {@code started} (mostly while the ranks start
         * and join); the others a random time of up to {@link #WORK_WINDOW_MS} after every rank printed
         * {@code ready}. The ranks run until killed, so the victim still runs at the kill.
         *
         * @return the killed rank.
         */
        private int killRandomRank(final int ranks, final List<String> out, final CompletableFuture<?> end) {
            final boolean early = random.nextInt(3) == 0;
            final int delayMs = random.nextInt(early ? KILL_WINDOW_MS : WORK_WINDOW_MS);
            final int victim = random.nextInt(ranks);
            long pid = -1;
            // NOTE: no deadline: the class's timeout is the hang check.
            while (pid < 0) {
                assertFalse(end.isDone(), () -> "the job ended before rank " + victim + " was killed:\n" + out);
                pid = early
                    ? pidOf(out, victim, "started")
                    : (readyLines(out) == ranks ? pidOf(out, victim, "ready") : -1);
                if (pid < 0) {
                    RankSupport.sleep(1);
                }
            }
            RankSupport.sleep(delayMs); // a random point of the rank's life, not a synchronization
            final ProcessHandle process = ProcessHandle.of(pid)
                .orElseThrow(() -> new AssertionError("rank " + victim + " ended before it was killed:\n" + out));
            lastKillNs = System.nanoTime();
            assertTrue(process.destroyForcibly(), "SIGKILL to rank " + victim);
            return victim;
        }

        Process startLauncherJvm(final int ranks, final String[] args) throws IOException {
            final List<String> arguments = new ArrayList<>(List.of("-n", Integer.toString(ranks), "--shm-dir",
                path.toString(), "--grace-ms", Long.toString(GRACE.toMillis())));
            Jobs.FAST_JVM.forEach(option -> arguments.add("--jvm-opt=" + option));
            arguments.add(ChaosMain.class.getName());
            arguments.addAll(List.of(args));
            return new ProcessBuilder(TestProcesses.javaCommand(Jobs.FAST_JVM, RmaRun.class, arguments)).start();
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

    /**
     * @return the pid that {@code rank} printed in its line {@code <word> <pid>}, or -1 if it printed none.
     */
    private static long pidOf(final List<String> lines, final int rank, final String word) {
        final String prefix = "[" + rank + "] " + word + " ";
        synchronized (lines) {
            return lines.stream().filter(line -> line.startsWith(prefix))
                .mapToLong(line -> Long.parseLong(line.substring(prefix.length()))).findFirst().orElse(-1);
        }
    }

    /** Lines read from a stream by a daemon thread. */
    private static final class Lines {
        private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        private final CompletableFuture<Void> end = new CompletableFuture<>();

        static Lines of(final InputStream stream) {
            final Lines lines = new Lines();
            Thread.ofPlatform().daemon().start(() -> {
                try (
                    BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                        lines.lines.add(line);
                    }
                } catch (final IOException ignored) {
                    // the process is gone
                } finally {
                    lines.end.complete(null);
                }
            });
            return lines;
        }

        boolean contains(final String text) {
            synchronized (lines) {
                return lines.stream().anyMatch(line -> line.contains(text));
            }
        }

        List<String> starting(final String prefix) {
            synchronized (lines) {
                return lines.stream().filter(line -> line.startsWith(prefix)).toList();
            }
        }

        /**
         * Waits until the stream ended (every process that held it is gone), so that every line is here.
         */
        void awaitEnd() {
            try {
                end.get(30, TimeUnit.SECONDS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (final ExecutionException | TimeoutException e) {
                fail("the output did not end within 30 s:\n" + this, e);
            }
        }

        /**
         * @return the pids that {@code ranks} ranks printed in their lines {@code <word> <pid>}, by rank.
         */
        List<Long> awaitPids(final String word, final int ranks, final Duration timeout) {
            final long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                final List<Long> pids = new ArrayList<>();
                for (int rank = 0; rank < ranks; rank++) {
                    final long pid = pidOf(lines, rank, word);
                    if (pid >= 0) {
                        pids.add(pid);
                    }
                }
                if (pids.size() == ranks) {
                    return pids;
                }
                RankSupport.sleep(2);
            }
            return fail("the ranks did not all print " + word + " within " + timeout + ":\n" + this);
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
        int launchersKilled;
        int swept;
        int survivorsDetectedBeforeJoining;
        long slowestJobMs;
        final Map<String, Integer> detectedIn = new TreeMap<>();
        final List<Double> detectionMs = new ArrayList<>();

        /**
         * Counts a survivor's line {@code PEER_FAILED rank=R at=NS in WHERE: ...}.
         */
        void detected(final String line, final int killed, final long killNs, final boolean joined) {
            if (!joined) {
                survivorsDetectedBeforeJoining++;
            }
            if (line.startsWith("PEER_FAILED rank=" + killed + " ")) {
                detectionMs.add((Long.parseLong(Jobs.Outcome.field(line, "at")) - killNs) / 1e6);
            }
            final int in = line.indexOf(" in ");
            final String where = line.substring(in + 4, line.indexOf(':', in));
            detectedIn.merge(where.replaceAll("iteration \\d+ ", ""), 1, Integer::sum);
        }

        void add(final Stats other) {
            jobs += other.jobs;
            launcherJvms += other.launcherJvms;
            killsLanded += other.killsLanded;
            launchersKilled += other.launchersKilled;
            swept += other.swept;
            survivorsDetectedBeforeJoining += other.survivorsDetectedBeforeJoining;
            slowestJobMs = Math.max(slowestJobMs, other.slowestJobMs);
            other.detectedIn.forEach((where, count) -> detectedIn.merge(where, count, Integer::sum));
            detectionMs.addAll(other.detectionMs);
        }

        @Override
        public String toString() {
            return "jobs=" + jobs + " (under a separate rmarun JVM: " + launcherJvms + ", launcher JVM killed: "
                + launchersKilled + ", of which left a directory for the sweep: " + swept + "), rank kills landed="
                + killsLanded + "; survivors of in-process jobs: noticed the death before joining="
                + survivorsDetectedBeforeJoining + ", where they noticed it: " + detectedIn + "; " + detection()
                + "; slowest job " + slowestJobMs + " ms";
        }

        private String detection() {
            if (detectionMs.isEmpty()) {
                return "no survivor of an in-process job named the killed rank";
            }
            final List<Double> sorted = detectionMs.stream().sorted().toList();
            return String.format(Locale.ROOT,
                "time from kill to a survivor's RankFailedException naming the"
                    + " killed rank: median %.0f ms, 90th percentile %.0f ms, max %.0f ms",
                sorted.get(sorted.size() / 2), sorted.get(sorted.size() * 9 / 10), sorted.getLast());
        }
    }
}
