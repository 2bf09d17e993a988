package org.rma4j.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.shm.JobDirectory;
import org.rma4j.test.ShmTestDirectory;

/**
 * Runs real multi-process jobs of {@link RankProgram} through the launcher API.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LauncherTest {
    private final List<String> out = Collections.synchronizedList(new ArrayList<>());
    private final List<String> err = Collections.synchronizedList(new ArrayList<>());
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
    void shouldPrefixEveryOutputLineWithItsRank() throws Exception {
        final JobResult result = launcher(3, "echo", "a", "b c").build().run();

        assertEquals(0, result.exitCode());
        assertEquals(List.of(0, 0, 0), result.rankExitCodes());
        assertEquals(-1, result.failedRank());
        assertTrue(result.failureMessage().isEmpty());
        for (int rank = 0; rank < 3; rank++) {
            assertTrue(out.contains("[" + rank + "] out " + rank + " of 3"), () -> "stdout: " + out);
            assertTrue(out.contains("[" + rank + "] args=a|b c"), () -> "stdout: " + out);
            assertTrue(err.contains("[" + rank + "] err " + rank), () -> "stderr: " + err);
        }
        assertEquals(6, out.size(), () -> "stdout: " + out);
        assertEquals(3, err.stream().filter(line -> line.contains("] err ")).count(), () -> "stderr: " + err);
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldSendStandardErrorToTheOutputSinkWhenNoErrorSinkIsSet() throws Exception {
        final JobResult result = Launcher.builder().ranks(2).mainClass(RankProgram.class.getName()).args("echo")
            .baseDirectory(base.path()).output(out::add).build().run();

        assertEquals(0, result.exitCode());
        assertTrue(out.contains("[0] err 0") && out.contains("[1] err 1"), () -> "output: " + out);
        assertTrue(out.contains("[0] out 0 of 2") && out.contains("[1] out 1 of 2"), () -> "output: " + out);
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldGiveEachRankItsRankSizeAndJobDirectory() throws Exception {
        final JobResult result = launcher(3, "env").environment("RMA4J_TEST_EXTRA", "x y").build().run();

        assertEquals(0, result.exitCode(), () -> "stderr: " + err);
        final long launcherPid = ProcessHandle.current().pid();
        for (int rank = 0; rank < 3; rank++) {
            final String expected = "[" + rank + "] rank=" + rank + " size=3 dir=" + result.jobDirectory()
                + " controlRanks=3 launcherPid=" + launcherPid + " extra=x y";
            assertTrue(out.contains(expected), () -> "expected " + expected + " in " + out);
        }
        assertEquals(base.path(), result.jobDirectory().getParent());
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldReturnFirstNonZeroExitCode() throws Exception {
        // Ranks 0 and 2 exit with 5 only after the launcher marked rank 1 failed, so rank 1's status 3 came first.
        final JobResult result = launcher(3, "await-failed", "1", "3", "5").grace(Duration.ofMinutes(1)).build().run();

        assertEquals(3, result.exitCode());
        assertEquals(1, result.failedRank());
        assertEquals(List.of(5, 3, 5), result.rankExitCodes());
        assertEquals("rank 1 exited with status 3", result.failureMessage().orElseThrow());
        assertTrue(err.contains("rmarun: rank 1 exited with status 3; stopping the job"), () -> "stderr: " + err);
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldKillRanksThatIgnoreTermination() throws Exception {
        // The surviving ranks block SIGTERM in a shutdown hook that never returns: only SIGKILL ends them.
        final JobResult result = launcher(2, "stubborn", "1", "4").grace(Duration.ZERO).build().run();

        assertEquals(4, result.exitCode());
        assertEquals(List.of(137, 4), result.rankExitCodes());
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldStopTheJobWhenARankIsKilledBySignal() throws Exception {
        final JobResult result = launcher(3, "kill-self", "2").build().run();

        assertEquals(137, result.exitCode());
        assertEquals(2, result.failedRank());
        assertEquals(137, result.exitCode(2));
        assertNotEquals(0, result.exitCode(0));
        assertNotEquals(0, result.exitCode(1));
        final String message = result.failureMessage().orElseThrow();
        assertEquals("rank 2 exited with status 137, killed by signal 9 (SIGKILL)", message);
        assertTrue(err.contains("rmarun: " + message + "; stopping the job"), () -> "stderr: " + err);
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldReportFailureOfTheOnlyRankWithoutStoppingTheJob() throws Exception {
        final JobResult result = launcher(1, "exit", "0", "9").build().run();

        assertEquals(9, result.exitCode());
        assertEquals(List.of("rmarun: rank 0 exited with status 9"), launcherMessages());
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldDeclareARankThatEndsWithoutJoiningFailedToItsPeers() throws Exception {
        // Rank 1 exits 0 without joining; rank 0 ends (with 0) only once the launcher marked rank 1 failed.
        final JobResult result = launcher(2, "await-failed", "1", "0", "0").build().run();

        assertEquals(0, result.exitCode());
        assertEquals(List.of(0, 0), result.rankExitCodes());
        assertEquals(List.of(), launcherMessages());
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldLetEveryRankJoinTheJobThroughRmaInit() throws Exception {
        final JobResult result = launcher(3, "rma").build().run();

        assertEquals(0, result.exitCode(), () -> "stderr: " + err);
        for (int rank = 0; rank < 3; rank++) {
            assertTrue(out.contains("[" + rank + "] joined " + rank + " of 3"), () -> "stdout: " + out);
        }
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldMakeWaitingPeersThrowRankFailedExceptionNamingTheFailedRank() throws Exception {
        final JobResult result = launcher(3, "rma-fail", "1", "3").grace(Duration.ofMinutes(1)).build().run();

        assertEquals(3, result.exitCode(), () -> "stderr: " + err);
        assertEquals(List.of(0, 3, 0), result.rankExitCodes());
        assertTrue(out.contains("[0] peer failed: 1") && out.contains("[2] peer failed: 1"), () -> "stdout: " + out);
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldRemoveTheJobDirectoryWhenARankCannotBeStarted() throws Exception {
        final Launcher launcher = launcher(2, "echo").javaExecutable(base.path().resolve("no-such-java")).build();

        final UncheckedIOException thrown = assertThrows(UncheckedIOException.class, launcher::run);

        assertTrue(thrown.getMessage().contains("cannot start rank 0"), thrown::getMessage);
        base.assertNoEntryLeft(JobDirectory.NAME_PREFIX);
    }

    @Test
    void shouldAddNativeAccessOptionOnce() {
        final List<String> command = launcher(1, "echo").jvmOption("-Xmx64m").build().command();

        assertEquals(1, command.stream().filter(Launcher.NATIVE_ACCESS_OPTION::equals).count());
        assertTrue(command.indexOf("-Xmx64m") < command.indexOf(RankProgram.class.getName()));
        assertFalse(launcher(1, "echo").jvmOption("--enable-native-access=ALL-UNNAMED,foo").build().command()
            .contains(Launcher.NATIVE_ACCESS_OPTION));
    }

    @Test
    void shouldRejectAJobWithoutRanks() {
        assertThrows(IllegalArgumentException.class, () -> Launcher.builder().ranks(0));
        assertThrows(IllegalArgumentException.class, () -> Launcher.builder().grace(Duration.ofMillis(-1)));
    }

    private List<String> launcherMessages() {
        synchronized (err) {
            return err.stream().filter(line -> line.startsWith(Launcher.MESSAGE_PREFIX)).toList();
        }
    }

    private Launcher.Builder launcher(final int ranks, final String... args) {
        return Launcher.builder().ranks(ranks).mainClass(RankProgram.class.getName()).args(args)
            .baseDirectory(base.path()).output(out::add).errorOutput(err::add);
    }
}
