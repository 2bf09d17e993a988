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
import java.util.concurrent.TimeUnit;
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
    /** Longest a job may take to end after the failure (a hang check). */
    private static final long END_BOUND_NS = TimeUnit.SECONDS.toNanos(1);

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
        outcome.assertEndedInTime();
    }

    @ParameterizedTest
    @MethodSource("throwModes")
    void shouldEndJobAndRethrowThrowingRanksExceptionInThreadMode(final String mode) {
        final Throwable failure = assertThrows(Throwable.class,
            () -> Rma.callThreads(2, base.path(), WaitOptions.defaults(), job -> {
                ThrowScenarios.run(mode, job);
                return null;
            }));
        final long endedNs = System.nanoTime();
        final List<Throwable> all = new ArrayList<>(List.of(failure.getSuppressed()));
        all.add(failure);
        assertTrue(
            all.stream().anyMatch(t -> t instanceof IllegalStateException && ThrowScenarios.BUG.equals(t.getMessage())),
            () -> describe(failure));
        assertTrue(all.stream().noneMatch(RankFailedException.class::isInstance), () -> describe(failure));
        assertTrue(endedNs - ThrowScenarios.THROWN_AT.get() < END_BOUND_NS,
            () -> "ended " + (endedNs - ThrowScenarios.THROWN_AT.get()) / 1_000_000 + " ms after the throw");
    }

    @ParameterizedTest
    @MethodSource("mismatchModes")
    void shouldFailMismatchedCollectivesAtEveryRankInThreadMode(final String mode) {
        final List<Throwable> seen = Collections.synchronizedList(new ArrayList<>());
        final long startNs = System.nanoTime();
        assertThrows(RmaException.class, () -> Rma.callThreads(2, base.path(), WaitOptions.defaults(), job -> {
            try {
                ThrowScenarios.run(mode, job);
            } catch (final RuntimeException e) {
                seen.add(e);
                throw e;
            }
            return null;
        }));
        assertTrue(System.nanoTime() - startNs < 10 * END_BOUND_NS, "a mismatch ends the job");
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
        outcome.assertEndedInTime();
    }

    private Outcome launch(final String... args) throws Exception {
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        final long[] markNs = {0};
        final JobResult result = Launcher.builder().ranks(2).mainClass(ThrowMain.class.getName()).args(args)
            .baseDirectory(base.path()).grace(Duration.ofSeconds(30)).output(line -> {
                synchronized (markNs) {
                    if (line.contains(ThrowScenarios.MARK)) {
                        markNs[0] = Math.max(markNs[0], System.nanoTime());
                    }
                }
                lines.add(line);
            }).errorOutput(lines::add).build().run();
        final long endedNs = System.nanoTime();
        synchronized (markNs) {
            return new Outcome(result, lines, markNs[0], endedNs);
        }
    }

    private static String describe(final Throwable failure) {
        final StringBuilder text = new StringBuilder(failure.toString());
        for (final Throwable suppressed : failure.getSuppressed()) {
            text.append("\n  suppressed: ").append(suppressed);
        }
        return text.toString();
    }

    private record Outcome(JobResult result, List<String> lines, long markNs, long endedNs) {
        String output() {
            return result + "\n" + String.join("\n", lines);
        }

        void assertEndedInTime() {
            assertTrue(markNs > 0, "no rank reached the point of failure\n" + output());
            assertTrue(endedNs - markNs < END_BOUND_NS,
                "the job ended " + (endedNs - markNs) / 1_000_000 + " ms after the failure\n" + output());
        }
    }
}
