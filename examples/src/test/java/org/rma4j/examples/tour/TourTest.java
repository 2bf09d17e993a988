package org.rma4j.examples.tour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.examples.ProcessJob;
import org.rma4j.test.TestProcesses;

/**
 * The README's tour is {@link Tour}: the same text, and it runs on 1 and 3 processes and alone.
 */
@Timeout(120)
class TourTest {
    private static final Path SOURCE = Path.of("src/main/java/org/rma4j/examples/tour/Tour.java");
    private static final Path README = Path.of("../README.md");

    @Test
    void readmeTourShouldBeTheCompiledExample() throws IOException {
        final List<String> source = Files.readAllLines(SOURCE, StandardCharsets.UTF_8);
        final int begin = source.indexOf("        // tour:begin");
        final int end = source.indexOf("        // tour:end");
        assertTrue(begin >= 0 && end > begin, "the tour:begin / tour:end lines of " + SOURCE);
        final List<String> tour = new ArrayList<>();
        for (final String line : source.subList(begin + 1, end)) {
            tour.add(line.length() >= 8 ? line.substring(8) : line.strip());
        }
        final String readme = Files.readString(README, StandardCharsets.UTF_8);
        final String block = "```java\n" + String.join("\n", tour) + "\n```\n";
        assertTrue(readme.contains(block), "README.md must hold the tour of " + SOURCE + " as:\n" + block);
    }

    @Test
    void shouldRunOnThreeProcesses() throws Exception {
        try (ProcessJob job = new ProcessJob()) {
            final ProcessJob.Outcome outcome = job.run(3, Tour.class);
            assertEquals(0, outcome.result().exitCode(), outcome.transcript());
            for (int rank = 0; rank < 3; rank++) {
                final String expected = "[" + rank + "] " + line(rank, 3);
                assertTrue(outcome.lines().contains(expected), expected + "\n" + outcome.transcript());
            }
        }
    }

    @Test
    void shouldRunAsJobOfOneProcess() throws Exception {
        try (ProcessJob job = new ProcessJob()) {
            final ProcessJob.Outcome outcome = job.run(1, Tour.class);
            assertEquals(0, outcome.result().exitCode(), outcome.transcript());
            assertTrue(outcome.lines().contains("[0] " + line(0, 1)), outcome.transcript());
        }
    }

    @Test
    void shouldRunAloneWithoutLauncher() throws Exception {
        try (ProcessJob job = new ProcessJob()) {
            final Process process = new ProcessBuilder(
                TestProcesses.javaCommand(List.of("-Drma4j.shm.dir=" + job.base()), Tour.class, List.of()))
                .redirectErrorStream(true).start();
            process.getOutputStream().close();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), output);
            assertEquals(0, process.exitValue(), output);
            assertTrue(output.contains(line(0, 1)), output);
            try (var left = Files.list(job.base())) {
                assertEquals(List.of(), left.toList(), "the job of one left files behind");
            }
        }
    }

    private static String line(final int rank, final int ranks) {
        return "rank " + rank + " of " + ranks + ": left put " + (rank + ranks - 1) % ranks + ", rank 0 holds "
            + (ranks - 1) + ", rank " + (ranks - 1) + " holds " + (100 + rank);
    }
}
