package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.rma4j.Rma;

/** The consumer's tests: a 4-rank job in threads, a 4-rank job of processes through bin/rmarun. */
class RingExchangeTest {
    private static final int RANKS = 4;

    @Test
    void shouldRunFourRanksAsThreads() {
        final String[] lines = new String[RANKS];
        Rma.runThreads(RANKS, job -> lines[job.rank()] = RingExchange.exchange(job));
        assertEquals(expectedLines(), List.of(lines));
    }

    @Test
    void shouldRunFourRanksAsProcessesThroughRmarun() throws IOException, InterruptedException {
        final Path rmarun = Path.of(System.getProperty("rma4j.home"), "bin", "rmarun");
        final Process process = new ProcessBuilder(rmarun.toString(), "-n", Integer.toString(RANKS),
            "-cp", Path.of("target", "classes").toAbsolutePath().toString(), RingExchange.class.getName())
            .redirectErrorStream(true)
            .start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), output);
        // rmarun prefixes each line of rank r with "[r] "; the lines of different ranks interleave.
        final List<String> lines = new ArrayList<>(output.lines().filter(l -> l.contains("verified")).sorted().toList());
        final List<String> expected = IntStream.range(0, RANKS).mapToObj(r -> "[" + r + "] " + expectedLines().get(r)).toList();
        assertEquals(expected, lines, output);
    }

    @Test
    void shouldNotHaveTheLaunchersCommandLineLibraryOnTheClassPath() throws IOException {
        assertThrows(ClassNotFoundException.class, () -> Class.forName("picocli.CommandLine"));
        // The class path Maven resolved for the tests, as written by the dependency plugin.
        final String classPath = Files.readString(Path.of("target", "test-classpath.txt"));
        assertTrue(classPath.contains("rma4j-runtime"), classPath);
        assertFalse(classPath.contains("picocli"), classPath);
    }

    private static List<String> expectedLines() {
        return IntStream.range(0, RANKS)
            .mapToObj(r -> "rank " + r + " of " + RANKS + ": got " + (r + RANKS - 1) % RANKS + " from rank "
                + (r + RANKS - 1) % RANKS + ", verified")
            .toList();
    }
}
