package org.rma4j.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.shm.JobDirectory;
import org.rma4j.test.ShmTestDirectory;

/**
 * The rmarun command line: parsing in process, and one launcher JVM stopped with SIGTERM.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RmaRunTest {
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    private ShmTestDirectory base;

    @BeforeEach
    void createBaseDirectory() throws IOException {
        base = new ShmTestDirectory("launch-test-");
    }

    @AfterEach
    void removeBaseDirectory() throws IOException {
        base.close();
    }

    @Test
    void shouldRejectARankCountThatIsNotANumber() {
        assertEquals(2, run("-n", "two", "Main"));
        assertTrue(err().contains("-n"), this::err);
    }

    @Test
    void shouldRejectZeroRanks() {
        assertEquals(2, run("-n", "0", "Main"));
        assertTrue(err().contains("-n must be between 1 and 4096, got 0"), this::err);
    }

    @Test
    void shouldRejectAMissingRankCount() {
        assertEquals(2, run("Main"));
        assertTrue(err().contains("-n"), this::err);
    }

    @Test
    void shouldRejectAMissingMainClass() {
        assertEquals(2, run("-n", "2"));
        assertTrue(err().contains("MainClass"), this::err);
    }

    @Test
    void shouldCleanStaleJobDirectoriesAndKeepLiveOnes() throws Exception {
        final Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        final java.nio.file.Path stale = java.nio.file.Files
            .createDirectory(base.path().resolve("rma4j-" + gone.pid() + "-" + "0".repeat(32)));
        final java.nio.file.Path live = org.rma4j.shm.JobDirectory.create(base.path()).path();

        assertEquals(0, run("--clean", "--shm-dir", base.path().toString()));

        assertTrue(err().contains("removed 1 stale job directory"), this::err);
        assertTrue(err().contains(stale.toString()), this::err);
        assertTrue(java.nio.file.Files.notExists(stale));
        assertTrue(java.nio.file.Files.isDirectory(live));
        org.rma4j.shm.JobDirectory.open(live).delete();
    }

    @Test
    void shouldRejectANegativeGracePeriod() {
        assertEquals(2, run("-n", "2", "--grace-ms", "-1", "Main"));
        assertTrue(err().contains("--grace-ms"), this::err);
    }

    @Test
    void shouldPrintHelpAndVersion() {
        assertEquals(0, run("--help"));
        assertTrue(out().contains("Usage: rmarun"), this::out);
        assertEquals(0, run("--version"));
        assertTrue(out().contains("rmarun (rma4j)"), this::out);
    }

    @Test
    void shouldPassEverythingAfterTheMainClassToTheProgram() throws IOException {
        final int status = run("-n", "2", "--shm-dir", base.path().toString(), "--jvm-opt=-Xmx64m",
            RankProgram.class.getName(), "echo", "-n", "5", "--help");

        assertEquals(0, status, this::err);
        assertTrue(out().contains("[0] args=-n|5|--help"), this::out);
        assertTrue(out().contains("[1] args=-n|5|--help"), this::out);
        assertTrue(err().contains("[1] err 1"), this::err);
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldExitWithTheStatusOfTheFailedRank() throws IOException {
        final int status = run("-n", "3", "--shm-dir", base.path().toString(), RankProgram.class.getName(), "exit", "2",
            "3");

        assertEquals(3, status);
        assertTrue(err().contains("rmarun: rank 2 exited with status 3"), this::err);
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldPutTheUserClasspathBeforeTheLaunchersOwn() {
        final String separator = File.pathSeparator;
        assertEquals("app.jar" + separator + "rt.jar", RmaRun.rankClasspath("app.jar", "env.jar", "rt.jar"));
        assertEquals("env.jar" + separator + "rt.jar", RmaRun.rankClasspath(null, "env.jar", "rt.jar"));
        assertEquals("rt.jar", RmaRun.rankClasspath(null, null, "rt.jar"));
        assertEquals("rt.jar", RmaRun.rankClasspath("", null, "rt.jar"));
    }

    @Test
    void shouldStopRanksAndRemoveTheJobDirectoryWhenTheLauncherIsTerminated() throws Exception {
        final List<String> command = List.of(Launcher.currentJava(), Launcher.NATIVE_ACCESS_OPTION, "-cp",
            System.getProperty("java.class.path"), RmaRun.class.getName(), "-n", "2", "--shm-dir",
            base.path().toString(), RankProgram.class.getName(), "sleep");
        final Process launcher = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final List<Long> rankPids = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(
            new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8))) {
            while (rankPids.size() < 2) {
                final String line = lines.readLine();
                assertFalse(line == null, "the launcher ended before its ranks were ready");
                if (line.matches("\\[[01]] ready \\d+")) {
                    rankPids.add(Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)));
                }
            }
            assertEquals(1, base.entries(JobDirectory.NAME_PREFIX).size());

            launcher.destroy();
            launcher.waitFor();
        }

        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
        for (final long pid : rankPids) {
            assertFalse(isRunning(pid), "rank process " + pid + " survived its launcher");
        }
    }

    /**
     * Whether a process exists and is not a zombie (an orphan may stay one where nothing reaps it).
     */
    private static boolean isRunning(final long pid) {
        try {
            final String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (final IOException e) {
            return false;
        }
    }

    private int run(final String... args) {
        return RmaRun.execute(out, err, args);
    }

    private String out() {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return errBytes.toString(StandardCharsets.UTF_8);
    }
}
