package org.rma4j.bench.coldstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rma4j.shm.JobDirectory;
import picocli.CommandLine;

/**
 * The cold-start command end to end with tiny counts: real 2-rank jobs, one report row per operation with a
 * positive time in every column. (Its ahead-of-time path needs a class path of jars, which the test class
 * path is not; the launcher's cache handling is tested in the runtime, RmaRunAotCacheTest.)
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ColdStartTest {
    private static final List<String> OPERATIONS = List.of("barrier", "fence", "lock-unlock", "put-flush",
        "notified-put-round-trip");

    @TempDir
    Path out;

    private Path shm;

    @BeforeEach
    void makeShmDirectory() throws IOException {
        shm = Files.createTempDirectory(JobDirectory.defaultBase(), "rma4j-test-cold-");
    }

    @AfterEach
    void removeShmDirectory() throws IOException {
        final List<Path> left;
        try (Stream<Path> entries = Files.list(shm)) {
            left = entries.toList();
        } finally {
            try (Stream<Path> tree = Files.walk(shm)) {
                for (final Path path : tree.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
        assertEquals(List.of(), left, "the cold-start jobs left files under " + shm);
    }

    @Test
    void shouldReportEveryOperationsFirstCallsBesideItsSteadyState() throws IOException {
        final int status = new CommandLine(new ColdStart()).execute("--calls", "12", "--steady", "40", "--repetitions",
            "2", "--no-aot", "--shm-dir", shm.toString(), "-o", out.toString());

        assertEquals(0, status);
        final List<String> rows = Files.readAllLines(out.resolve("cold-start.md")).stream()
            .filter(line -> line.startsWith("| ") && !line.startsWith("| operation") && !line.startsWith("| ---"))
            .toList();
        assertEquals(OPERATIONS, rows.stream().map(row -> row.split(" \\| ")[0].substring(2)).toList(), rows::toString);
        for (final String row : rows) {
            final String[] cells = row.substring(2, row.length() - 2).split(" \\| ");
            // operation, configuration, uptime, call 1, calls 2-10, calls 11-12, steady, ratio
            assertEquals(8, cells.length, row);
            assertEquals("no cache", cells[1], row);
            for (int c = 2; c < 7; c++) {
                assertTrue(Long.parseLong(cells[c]) > 0, "column " + c + " of " + row);
            }
            assertTrue(cells[7].endsWith("x"), row);
        }
    }
}
