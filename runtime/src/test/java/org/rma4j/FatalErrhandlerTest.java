package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;
import org.rma4j.test.ShmTestDirectory;

/**
 * MPI_ERRORS_ARE_FATAL on a window ({@link WindowSurfaceScenarios#fatalError}): an error of a window call
 * aborts the job with the error class's code, in thread mode and with real processes, after the rank named
 * the error class and the call.
 */
@Timeout(300)
class FatalErrhandlerTest {
    /** The exit status of a job aborted for MPI_ERR_RMA_SYNC: the class's code. */
    private static final int RMA_SYNC_STATUS = 17;

    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    @Test
    void shouldAbortTheThreadModeJobWithTheErrorClassCode() {
        final JobAbortedException aborted = assertThrows(JobAbortedException.class,
            () -> Scenarios.runThreads(base, 2, WindowSurfaceScenarios.class, "fatalError"));
        assertEquals(RMA_SYNC_STATUS, aborted.status());
        assertEquals(WindowSurfaceScenarios.FATAL_RANK, aborted.rank());
    }

    @Test
    void shouldEndEveryProcessWithTheErrorClassCodeAndNameTheCall() throws Exception {
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        final JobResult result = Launcher.builder().ranks(2).mainClass(ScenarioMain.class.getName())
            .args(WindowSurfaceScenarios.class.getName(), "fatalError").jvmOption("-XX:TieredStopAtLevel=1")
            .baseDirectory(base.path()).grace(Duration.ofSeconds(30)).output(lines::add).errorOutput(lines::add).build()
            .run();
        final String output = result + "\n" + String.join("\n", lines);
        assertEquals(RMA_SYNC_STATUS, result.exitCode(), output);
        assertEquals(RMA_SYNC_STATUS, result.exitCode(WindowSurfaceScenarios.FATAL_RANK), output);
        assertTrue(lines.stream().anyMatch(line -> line.contains("rma4j: rank 1: MPI_ERR_RMA_SYNC in put on window 0"
            + " is fatal (MPI_ERRORS_ARE_FATAL), the job is aborted with status 17")), output);
    }
}
