package org.rma4j.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.shm.JobDirectory;
import org.rma4j.test.ShmTestDirectory;
import org.rma4j.test.TestProcesses;

/**
 * A real {@code rmarun} JVM killed with SIGKILL while its ranks run: the ranks notice, say so on the
 * launcher's standard error, remove the job directory and end, whether they are inside rma4j calls or
 * compute without it; and a rank whose launcher is gone before it starts ends at once.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LauncherKilledTest {
    private static final Pattern READY = Pattern.compile("\\[(\\d+)] ready (\\d+)");

    private ShmTestDirectory base;
    private Path stderrFile;

    @BeforeEach
    void setUp() throws IOException {
        base = new ShmTestDirectory("launch-test-");
        stderrFile = Files.createTempFile("rmarun-killed-", ".err");
    }

    @AfterEach
    void tearDown() throws IOException {
        try {
            base.close();
        } finally {
            Files.deleteIfExists(stderrFile);
        }
    }

    @Test
    void shouldEndRanksInFenceAndRemoveTheirFilesWhenRmarunIsKilled() throws Exception {
        killRmarunAndCheck("fence-loop");
    }

    @Test
    void shouldEndRanksThatComputeWithoutRma4jWhenRmarunIsKilled() throws Exception {
        killRmarunAndCheck("spin");
    }

    @Test
    void shouldEndARankAtOnceWhoseLauncherIsGoneBeforeItStarts() throws Exception {
        final Process gone = new ProcessBuilder("true").start();
        assertTrue(gone.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS));
        final long goneStart = gone.info().startInstant().map(instant -> instant.toEpochMilli()).orElse(0L);
        final org.rma4j.shm.JobDirectory job = org.rma4j.shm.JobDirectory.create(base.path());
        final List<String> command = TestProcesses.javaCommand(RmaRunProcess.SMALL_JVM, RankMain.class,
            List.of(RankProgram.class.getName(), "spin"));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put(JobEnvironment.RANK, "0");
        builder.environment().put(JobEnvironment.SIZE, "1");
        builder.environment().put(JobEnvironment.JOB_DIR, job.path().toString());
        builder.environment().put(JobEnvironment.LAUNCHER_PID, Long.toString(gone.pid()));
        builder.environment().put(JobEnvironment.LAUNCHER_START_MILLIS, Long.toString(goneStart));
        final Process rank = builder.start();
        try {
            final String output = new String(rank.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(rank.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS));
            assertEquals(LauncherWatch.EXIT_LAUNCHER_GONE, rank.exitValue(), output);
            assertTrue(output.contains("the job's launcher (process " + gone.pid() + ") is gone"), output);
            assertTrue(!output.contains("ready"), "the program never ran: " + output);
            assertEquals(List.of(), base.entries(JobDirectory.NAME_PREFIX), "the rank removed the job directory");
        } finally {
            RmaRunProcess.destroy(rank);
        }
    }

    private void killRmarunAndCheck(final String mode) throws Exception {
        final int ranks = 2;
        final Process rmarun = new ProcessBuilder(RmaRunProcess.command(base.path(), List.of("-n",
            Integer.toString(ranks), "-cp", System.getProperty("java.class.path"), RankProgram.class.getName(), mode)))
            .redirectError(stderrFile.toFile()).start();
        final Map<Integer, Long> rankPids = new TreeMap<>();
        try {
            final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread.ofPlatform().daemon().start(() -> {
                try (BufferedReader reader = new BufferedReader(
                    new InputStreamReader(rmarun.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = reader.readLine()) != null) {
                        lines.add(line);
                    }
                } catch (final IOException ignored) {
                    // rmarun is gone
                }
            });
            while (rankPids.size() < ranks) {
                final String line = lines.poll(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS);
                assertNotNull(line, () -> "no ready line from every rank; stderr: " + stderr());
                final Matcher ready = READY.matcher(line);
                if (ready.matches()) {
                    rankPids.put(Integer.parseInt(ready.group(1)), Long.parseLong(ready.group(2)));
                }
            }
            assertEquals(1, base.entries(JobDirectory.NAME_PREFIX).size(),
                "the job directory exists while the job runs");

            final long killedNs = System.nanoTime();
            rmarun.toHandle().destroyForcibly(); // SIGKILL: no shutdown hook, no cleanup by the launcher
            assertTrue(rmarun.waitFor(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS));
            for (final long pid : rankPids.values()) {
                final Optional<ProcessHandle> rank = ProcessHandle.of(pid);
                if (rank.isPresent()) {
                    rank.get().onExit().get(RmaRunProcess.HANG_BOUND_SECONDS, TimeUnit.SECONDS);
                }
            }
            System.out.printf(
                "rmarun killed (%s): every rank had ended and was reaped by its new parent %.0f ms later%n", mode,
                (System.nanoTime() - killedNs) / 1e6);

            assertEquals(List.of(), base.entries(JobDirectory.NAME_PREFIX), "the ranks removed the job directory");
            assertEquals(List.of(), jobProcesses(), "no process of the job is left");
            final String messages = stderr();
            for (final Map.Entry<Integer, Long> rank : rankPids.entrySet()) {
                assertTrue(messages.contains("rmarun: rank " + rank.getKey() + " (process " + rank.getValue()
                    + "): the job's launcher (process " + rmarun.pid() + ") is gone"), messages);
            }
        } finally {
            rankPids.values().forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
            RmaRunProcess.destroy(rmarun);
        }
    }

    private String stderr() {
        try {
            return Files.readString(stderrFile, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @return the pids of the processes whose environment names a job directory under the test's base.
     */
    private List<Long> jobProcesses() {
        final List<Long> pids = new ArrayList<>();
        ProcessHandle.allProcesses().forEach(process -> {
            try {
                final String environment = Files.readString(Path.of("/proc", Long.toString(process.pid()), "environ"),
                    StandardCharsets.ISO_8859_1);
                if (environment.contains(JobEnvironment.JOB_DIR + "=" + base.path() + "/")) {
                    pids.add(process.pid());
                }
            } catch (final IOException | UncheckedIOException ignored) {
                // ended meanwhile, or not readable
            }
        });
        return pids;
    }
}
