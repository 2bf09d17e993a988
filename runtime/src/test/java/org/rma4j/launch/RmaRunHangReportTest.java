package org.rma4j.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.shm.JobDirectory;
import org.rma4j.test.ShmTestDirectory;

/**
 * A job whose rank 2 is stopped with SIGSTOP while the others loop on fence: rmarun says who waits for
 * whom on {@code --timeout}, on {@code --status} from another process and on Ctrl-C (SIGINT).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RmaRunHangReportTest {
    private static final int RANKS = 3;
    private static final int STOPPED = 2;
    private static final Pattern READY = Pattern.compile("\\[(\\d+)] ready (\\d+)");
    /** What a rank blocked in fence because of the stopped rank reports. */
    private static final Pattern FENCE_WAIT = Pattern
        .compile("rank [01] \\(pid \\d+, [a-z ]+\\): in fence on window 0 \\(collective call #\\d+\\) for \\d+\\.\\d s,"
            + " waiting for ranks? (\\d+, )*2");
    private static final Pattern STOPPED_LINE = Pattern.compile("rank 2 \\(pid \\d+, stopped by a signal.*");

    private ShmTestDirectory base;
    private Process launcher;
    private long stoppedPid;

    @BeforeEach
    void createBaseDirectory() throws IOException {
        base = new ShmTestDirectory("launch-test-");
    }

    @AfterEach
    void cleanUp() throws Exception {
        try {
            if (stoppedPid != 0) {
                ProcessHandle.of(stoppedPid).ifPresent(handle -> {
                    signal("CONT", handle.pid());
                    handle.destroyForcibly();
                });
            }
            RmaRunProcess.destroy(launcher);
        } finally {
            base.close();
        }
    }

    @Test
    void shouldReportWhoWaitsForWhomAndExitWithTheTimeoutStatusWhenTheTimeoutExpires() throws Exception {
        start("--timeout", "20");
        final CompletableFuture<List<String>> errors = readLines(launcher.getErrorStream());
        stopRank();

        assertTrue(launcher.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS), "rmarun did not stop");
        final List<String> report = errors.get(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS);
        assertEquals(Launcher.EXIT_TIMEOUT, launcher.exitValue(), () -> String.join("\n", report));
        assertTrue(report.stream().anyMatch(line -> line.contains("did not end within 20 s (--timeout)")),
            () -> String.join("\n", report));
        assertReport(report);
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldReportWhoWaitedForWhomWhenTheJobsWaitTimeoutFires() throws Exception {
        start("--jvm-opt=-D" + org.rma4j.shm.WaitStrategy.TIMEOUT_PROP_NAME + "=8000");
        final CompletableFuture<List<String>> errors = readLines(launcher.getErrorStream());
        stopRank();

        assertTrue(launcher.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS), "rmarun did not stop");
        final String report = String.join("\n", errors.get(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS));
        assertEquals(1, launcher.exitValue(), report);
        assertTrue(report.contains("rmarun: what each rank waits for:"), report);
        assertTrue(Pattern.compile("rank [01] \\(pid \\d+, [a-z ]+\\): failed; it was blocked in fence on window 0 "
            + "\\(collective call #\\d+\\) for \\d+\\.\\d s").matcher(report).find(), report);
        assertTrue(STOPPED_LINE.matcher(report).find(), report);
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldPrintTheWaitsOfARunningJobWithStatusAndReportThemOnSigint() throws Exception {
        start();
        final CompletableFuture<List<String>> errors = readLines(launcher.getErrorStream());
        stopRank();

        final String status = awaitStatus(text -> FENCE_WAIT.matcher(text).results().count() == 2);
        assertTrue(status.contains("(rmarun pid " + launcher.pid() + ", 3 ranks)"), status);
        assertTrue(STOPPED_LINE.matcher(status).find(), status);

        // NOTE: a JVM started with SIGINT ignored (a build run in the background by a non-interactive shell, as
        // nohup ... & does) cannot catch it; SIGTERM then takes the same shutdown path (exit 128 + 15).
        final boolean interruptible = !ignoresSigint(launcher.pid());
        signal(interruptible ? "INT" : "TERM", launcher.pid());
        assertTrue(launcher.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS), "rmarun did not stop");
        final List<String> report = errors.get(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS);
        assertEquals(interruptible ? 130 : 143, launcher.exitValue(), () -> String.join("\n", report));
        assertTrue(report.stream().anyMatch(line -> line.contains("shutting down")), () -> String.join("\n", report));
        assertReport(report);
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldReportLockAndStartWaits() throws Exception {
        launcher = new ProcessBuilder(
            RmaRunProcess.command(base.path(), List.of("-n", "3", BlockedProgram.class.getName()))).start();
        final CompletableFuture<List<String>> errors = readLines(launcher.getErrorStream());
        awaitReady();
        final Pattern lock = Pattern.compile("rank 0 \\(pid \\d+, [a-z ]+\\): in lock on window 0, target 0 for");
        final Pattern start = Pattern
            .compile("rank 2 \\(pid \\d+, [a-z ]+\\): in start on window 0, waiting for the post of rank 1 for");
        final String status = awaitStatus(text -> lock.matcher(text).find() && start.matcher(text).find());
        assertTrue(status.contains("rank 1 (pid "), status);

        // NOTE: SIGTERM through kill: Process.destroy() would also close the pipe the report arrives on.
        signal("TERM", launcher.pid());
        assertTrue(launcher.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS), "rmarun did not stop");
        final String report = String.join("\n", errors.get(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS));
        assertTrue(lock.matcher(report).find() && start.matcher(report).find(), report);
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldReportNotificationAndMessagingWaits() throws Exception {
        launcher = new ProcessBuilder(
            RmaRunProcess.command(base.path(), List.of("-n", "2", NotifyBlockedProgram.class.getName()))).start();
        final CompletableFuture<List<String>> errors = readLines(launcher.getErrorStream());
        awaitReady(2);
        final Pattern notification = Pattern.compile("rank 0 \\(pid \\d+, [a-z ]+\\): in notification wait on window 0,"
            + " waiting for a notification from rank 1, tag " + NotifyBlockedProgram.NOTIFY_TAG + " for");
        final Pattern receive = Pattern.compile("rank 1 \\(pid \\d+, [a-z ]+\\): in Messaging recv, waiting for a"
            + " message from rank 0, tag " + NotifyBlockedProgram.MESSAGE_TAG + " for");
        final String status = awaitStatus(text -> notification.matcher(text).find() && receive.matcher(text).find());
        assertFalse(status.contains("waiting for rank"), status);

        signal("TERM", launcher.pid());
        assertTrue(launcher.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS), "rmarun did not stop");
        final String report = String.join("\n", errors.get(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS));
        assertTrue(notification.matcher(report).find() && receive.matcher(report).find(), report);
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldReportAStallByItselfAndLetTheJobGoOn() throws Exception {
        launcher = new ProcessBuilder(RmaRunProcess.command(base.path(),
            List.of("-n", "2", "--stall-report", "1", ThrowInCloseProgram.class.getName()))).start();
        awaitReady(2);
        final Pattern close = Pattern
            .compile("rank 0 \\(pid \\d+, [a-z ]+\\): in RmaJob.close \\(collective call #\\d+\\) for \\d+\\.\\d s,"
                + " waiting for rank 1");
        final Pattern notification = Pattern.compile("rank 1 \\(pid \\d+, [a-z ]+\\): in notification wait on window 0,"
            + " waiting for a notification from rank 0, tag " + ThrowInCloseProgram.TAG + " for");
        final BufferedReader errors = new BufferedReader(
            new InputStreamReader(launcher.getErrorStream(), StandardCharsets.UTF_8));
        final List<String> report = new ArrayList<>();
        while (!(report.size() >= 2 && close.matcher(String.join("\n", report)).find()
            && notification.matcher(String.join("\n", report)).find())) {
            final String line = errors.readLine();
            assertFalse(line == null, () -> "rmarun ended without a stall report: " + String.join("\n", report));
            if (line.contains("looks deadlocked") || !report.isEmpty()) {
                report.add(line);
            }
        }
        assertTrue(report.get(0).contains("every rank in the job has been blocked in an rma4j call for 1.0 s or more"),
            () -> String.join("\n", report));
        assertTrue(launcher.isAlive(), "the stall report stopped the job");

        signal("TERM", launcher.pid());
        final CompletableFuture<List<String>> rest = readLines(launcher.getErrorStream());
        assertTrue(launcher.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS), "rmarun did not stop");
        final String after = String.join("\n", rest.get(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS));
        assertFalse(after.contains("looks deadlocked"), "a stall reported twice:\n" + after);
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldSayThatNoJobRuns() {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        assertEquals(RmaRun.EXIT_NO_JOB, RmaRun.execute(out, out, "--status", "--shm-dir", base.path().toString()));
        assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("no running job under " + base.path()),
            () -> bytes.toString(StandardCharsets.UTF_8));
    }

    /**
     * Runs {@code rmarun --status PID} until its output satisfies {@code done}: the waiting ranks publish
     * their waits at their first liveness check.
     */
    private String awaitStatus(final java.util.function.Predicate<String> done) throws InterruptedException {
        final ByteArrayOutputStream statusBytes = new ByteArrayOutputStream();
        while (true) {
            statusBytes.reset();
            final PrintStream out = new PrintStream(statusBytes, true, StandardCharsets.UTF_8);
            final int exitStatus = RmaRun.execute(out, out, "--status", "--shm-dir", base.path().toString(),
                Long.toString(launcher.pid()));
            final String status = statusBytes.toString(StandardCharsets.UTF_8);
            assertEquals(0, exitStatus, status);
            if (done.test(status)) {
                return status;
            }
            // NOTE: polls another process's published state; the class's timeout is the hang check.
            Thread.sleep(50);
        }
    }

    private static void assertReport(final List<String> report) {
        final String text = String.join("\n", report);
        assertEquals(2, FENCE_WAIT.matcher(text).results().count(), text);
        assertTrue(STOPPED_LINE.matcher(text).find(), text);
    }

    private void start(final String... options) throws IOException {
        final List<String> args = new ArrayList<>(List.of("-n", Integer.toString(RANKS)));
        args.addAll(List.of(options));
        args.addAll(List.of(RankProgram.class.getName(), "fence-loop"));
        launcher = new ProcessBuilder(RmaRunProcess.command(base.path(), args)).start();
    }

    /**
     * Waits until every rank passed its first fence, then stops rank 2.
     */
    private void stopRank() throws IOException {
        stoppedPid = awaitReady().get(STOPPED);
        signal("STOP", stoppedPid);
    }

    /**
     * Waits for the line {@code ready <pid>} of every rank.
     *
     * @return the pid of each rank.
     */
    private Map<Integer, Long> awaitReady() throws IOException {
        return awaitReady(RANKS);
    }

    private Map<Integer, Long> awaitReady(final int ranks) throws IOException {
        final Map<Integer, Long> pids = new TreeMap<>();
        final BufferedReader lines = new BufferedReader(
            new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8));
        while (pids.size() < ranks) {
            final String line = lines.readLine();
            assertFalse(line == null, "rmarun ended before its ranks were ready");
            final Matcher ready = READY.matcher(line);
            if (ready.matches()) {
                pids.put(Integer.parseInt(ready.group(1)), Long.parseLong(ready.group(2)));
            }
        }
        // the rest of the output is not needed, but must not fill the pipe
        readLines(launcher.getInputStream());
        return pids;
    }

    private static CompletableFuture<List<String>> readLines(final java.io.InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            final List<String> lines = new ArrayList<>();
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    lines.add(line);
                }
            } catch (final IOException e) {
                lines.add("read failed: " + e);
            }
            return lines;
        }, task -> Thread.ofPlatform().daemon().start(task));
    }

    /** @return whether process {@code pid} ignores SIGINT (bit 2 of SigIgn in /proc/pid/status). */
    private static boolean ignoresSigint(final long pid) throws IOException {
        for (final String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseLong(line.substring("SigIgn:".length()).strip(), 16) & 0x2) != 0;
            }
        }
        return false;
    }

    private static void signal(final String name, final long pid) {
        try {
            final Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
            assertTrue(kill.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS));
        } catch (final IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
