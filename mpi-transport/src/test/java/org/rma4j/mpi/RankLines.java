package org.rma4j.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.rma4j.test.cluster.JobOutcome;
import org.rma4j.mpi.ranks.RankMain;
import org.rma4j.test.TestProcesses;

/** Reading what the ranks of a {@link RankMain} job printed, and the command of such a rank. */
final class RankLines {
    /** Ranks of the cluster's jobs. */
    static final int RANKS = 4;
    /** Generous bound of one job (4 JVMs on a shared 2-core machine); not a measurement. */
    static final Duration JOB_TIMEOUT = Duration.ofMinutes(4);

    private RankLines() {
    }

    /**
     * @return {@code java <small-footprint options> -cp <test class path> RankMain <scenarios>}.
     */
    static List<String> rankCommand(final String... scenarios) {
        return TestProcesses.javaCommand(
            List.of("-XX:-UsePerfData", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx256m"), RankMain.class,
            List.of(scenarios));
    }

    /**
     * @return rank -> the key=value pairs of its line of {@code scenario}; fails (with the job's output) if a
     *         rank printed none or reported the scenario failed.
     */
    static Map<Integer, Map<String, String>> scenario(final JobOutcome job, final String scenario) {
        final Map<Integer, Map<String, String>> byRank = new LinkedHashMap<>();
        for (int rank = 0; rank < RANKS; rank++) {
            final List<String> lines = job.lines("R" + rank + " " + scenario + " ");
            final List<String> failed = lines.stream().filter(line -> line.contains(" FAILED ")).toList();
            if (!failed.isEmpty()) {
                fail("rank " + rank + ": " + failed + "\n" + job);
            }
            if (lines.size() != 1) {
                fail("rank " + rank + " printed " + lines.size() + " lines of " + scenario + "\n" + job);
            }
            byRank.put(rank, pairs(lines.getFirst()));
        }
        return byRank;
    }

    /** Asserts that every rank's {@code key} is the given value. */
    static void assertAll(final Map<Integer, Map<String, String>> byRank, final String key, final String expected) {
        final List<String> wrong = new ArrayList<>();
        byRank.forEach((rank, pairs) -> {
            if (!expected.equals(pairs.get(key))) {
                wrong.add("rank " + rank + ": " + key + "=" + pairs.get(key));
            }
        });
        assertEquals(List.of(), wrong, "expected " + key + "=" + expected);
    }

    private static Map<String, String> pairs(final String line) {
        final Map<String, String> pairs = new LinkedHashMap<>();
        for (final String word : line.split(" ")) {
            final int equals = word.indexOf('=');
            if (equals > 0) {
                pairs.put(word.substring(0, equals), word.substring(equals + 1));
            }
        }
        return pairs;
    }
}
