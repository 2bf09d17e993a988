package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.rma4j.launch.JobResult;
import org.rma4j.launch.Launcher;

/**
 * Typed put and get with ranks as real JVM processes started through the launcher.
 */
class DatatypeTransferProcessModeTest extends DatatypeTransferContractTest {
    @Override
    void run(final int ranks, final String scenario) throws Exception {
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        final JobResult result = Launcher.builder()
            .ranks(ranks)
            .mainClass(DatatypeScenarioMain.class.getName())
            .args(scenario)
            .jvmOption("-XX:TieredStopAtLevel=1")
            .baseDirectory(base.path())
            .output(lines::add)
            .errorOutput(lines::add)
            .build()
            .run();
        assertEquals(0, result.exitCode(), () -> "job failed:\n" + String.join("\n", lines));
        assertEquals(ranks, lines.stream().filter(line -> line.contains("scenario " + scenario + " passed")).count(),
            () -> String.join("\n", lines));
    }
}
