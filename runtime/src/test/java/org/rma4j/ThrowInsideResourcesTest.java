package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;
import org.rma4j.test.ShmTestDirectory;

/**
 * A rank whose program throws out of {@code try}-with-resources at any point, or whose collective calls
 * do not match its peers', ends the job at once and loudly: every rank ends within a second of the
 * failure (a hang check with a generous bound, not a timing assertion), the failing rank and its
 * exception are reported once, the job's status is non-zero, and nothing is left in /dev/shm (checked
 * after each test by {@link ShmTestDirectory}). In real processes through the launcher, and in thread
 * mode.
 */
@Timeout(120)
class ThrowInsideResourcesTest {
    /** Exit statuses of a rank the launcher had to stop (SIGTERM, SIGKILL) instead of ending by itself. */
    private static final List<Integer> STOPPED_BY_LAUNCHER = List.of(128 + 15, 128 + 9);

    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    static List<String> throwModes() {
        return Arrays.asList(ThrowScenarios.THROW_MODES);
    }

    static List<String> mismatchModes() {
        return Arrays.asList(ThrowScenarios.MISMATCH_MODES);
    }

    @ParameterizedTest
    @MethodSource("throwModes")
    void shouldEndJobAndReportThrowingRankOnceInProcesses(final String mode) throws Exception {
        final Outcome outcome = launch(mode);
        assertThrowReported(outcome);
    }

    @ParameterizedTest
    @MethodSource("throwModes")
    void shouldEndJobAndReportThrowingRankOnceThroughRun(final String mode) throws Exception {
        final Outcome outcome = launch(mode, "run");
        assertThrowReported(outcome);
    }

    @ParameterizedTest
    @MethodSource("mismatchModes")
    void shouldFailMismatchedCollectivesAtEveryRankInProcesses(final String mode) throws Exception {
        final Outcome outcome = launch(mode);
        assertNotEquals(0, outcome.result.exitCode(), outcome.output());
        for (int rank = 0; rank < 2; rank++) {
            final String prefix = "[" + rank + "] rma4j: rank " + rank + " failed: org.rma4j.RmaException:"
                + " MPI_ERR_OTHER: collective calls do not match";
            assertTrue(outcome.lines.stream().anyMatch(line -> line.startsWith(prefix)),
                prefix + "\n" + outcome.output());
        }
        assertTrue(outcome.output().contains("called fence on window 0"), outcome.output());
        assertTrue(outcome.output().contains(switch (mode) {
            case "fence-free" -> "called free on window 0";
            case "fence-barrier" -> "called barrier";
            default -> "called window creation";
        }), outcome.output());
        outcome.assertEndedByItself();
    }

    @ParameterizedTest
    @MethodSource("throwModes")
    void shouldEndJobAndRethrowThrowingRanksExceptionInThreadMode(final String mode) {
        final Throwable failure = assertThrows(Throwable.class,
            () -> Rma.callThreads(2, base.path(), WaitOptions.defaults(), job -> {
                ThrowScenarios.run(mode, job);
                return null;
            }));
        // NOTE: a rank left waiting would keep callThreads from returning: the class's @Timeout is the hang check.
        final List<Throwable> all = new ArrayList<>(List.of(failure.getSuppressed()));
        all.add(failure);
        assertTrue(
            all.stream().anyMatch(t -> t instanceof IllegalStateException && ThrowScenarios.BUG.equals(t.getMessage())),
            () -> describe(failure));
        assertTrue(all.stream().noneMatch(RankFailedException.class::isInstance), () -> describe(failure));
    }

    @ParameterizedTest
    @MethodSource("mismatchModes")
    void shouldFailMismatchedCollectivesAtEveryRankInThreadMode(final String mode) {
        final List<Throwable> seen = Collections.synchronizedList(new ArrayList<>());
        assertThrows(RmaException.class, () -> Rma.callThreads(2, base.path(), WaitOptions.defaults(), job -> {
            try {
                ThrowScenarios.run(mode, job);
            } catch (final RuntimeException e) {
                seen.add(e);
                throw e;
            }
            return null;
        }));
        assertEquals(2, seen.size(), seen.toString());
        for (final Throwable t : seen) {
            assertInstanceOf(RmaException.class, t, t.toString());
            assertTrue(t.getMessage().contains("collective calls do not match: rank "), t.getMessage());
        }
    }

    @Test
    void shouldEndEveryRankWithTheAbortStatus() throws Exception {
        final Outcome outcome = launch("abort");
        assertEquals(7, outcome.result.exitCode(), outcome.output());
        assertEquals(7, outcome.result.exitCode(0), outcome.output());
        assertEquals(7, outcome.result.exitCode(1), outcome.output());
    }

    @Test
    void shouldThrowAbortStatusInThreadMode() {
        final JobAbortedException aborted = assertThrows(JobAbortedException.class,
            () -> Rma.callThreads(3, base.path(), WaitOptions.defaults(), job -> {
                job.barrier();
                if (job.rank() == 1) {
                    job.abort(5);
                }
                job.barrier();
                return null;
            }));
        assertEquals(5, aborted.status());
        assertEquals(1, aborted.rank());
    }

    private static void assertThrowReported(final Outcome outcome) {
        assertNotEquals(0, outcome.result.exitCode(), outcome.output());
        final String report = "[1] rma4j: rank 1 failed: java.lang.IllegalStateException: " + ThrowScenarios.BUG;
        assertEquals(1, outcome.lines.stream().filter(line -> line.startsWith(report)).count(), outcome.output());
        assertEquals(1, outcome.lines.stream().filter(line -> line.contains(ThrowScenarios.BUG)).count(),
            "the exception is reported once\n" + outcome.output());
        assertTrue(outcome.lines.stream().noneMatch(line -> line.contains("Exception in thread")), outcome.output());
        outcome.assertEndedByItself();
    }

    private Outcome launch(final String... args) throws Exception {
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        final JobResult result = Launcher.builder().ranks(2).mainClass(ThrowMain.class.getName()).args(args)
            .baseDirectory(base.path()).grace(Duration.ofSeconds(30)).output(lines::add).errorOutput(lines::add).build()
            .run();
        return new Outcome(result, List.copyOf(lines));
    }

    private static String describe(final Throwable failure) {
        final StringBuilder text = new StringBuilder(failure.toString());
        for (final Throwable suppressed : failure.getSuppressed()) {
            text.append("\n  suppressed: ").append(suppressed);
        }
        return text.toString();
    }

    private record Outcome(JobResult result, List<String> lines) {
        String output() {
            return result + "\n" + String.join("\n", lines);
        }

        /**
         * A rank reached the point of failure, and every rank ended by itself: none was left waiting until the
         * launcher stopped it after the 30 s grace period.
         */
        void assertEndedByItself() {
            assertTrue(lines.stream().anyMatch(line -> line.contains(ThrowScenarios.MARK)),
                "no rank reached the point of failure\n" + output());
            assertTrue(result.rankExitCodes().stream().noneMatch(STOPPED_BY_LAUNCHER::contains),
                "a rank was stopped by the launcher\n" + output());
        }
    }
}
