package org.rma4j.examples.notified;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rma4j.Rma;
import org.rma4j.examples.ProcessJob;
import org.rma4j.examples.notified.TreeReduction.Result;

/**
 * {@link TreeReduction}: every variant's total is exact in every round, in thread mode with 2 and 3
 * ranks and over a two-level tree, and the notified variant as a job of four processes.
 */
class TreeReductionTest {
    private ProcessJob processes;

    @AfterEach
    void removeBaseDirectory() {
        if (processes != null) {
            processes.close();
        }
    }

    static Stream<Arguments> variantsAndRanks() {
        return TreeReduction.VARIANTS.stream().flatMap(sync -> Stream.of(Arguments.of(sync, 2), Arguments.of(sync, 3)));
    }

    @ParameterizedTest(name = "{0} with {1} ranks")
    @MethodSource("variantsAndRanks")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyRoundsTotalIsExact(final Sync sync, final int ranks) {
        final List<Result> results = Rma.callThreads(ranks, job -> TreeReduction.run(job, sync, 5, 30));
        final Result root = results.getFirst();
        assertEquals(0, root.wrongRounds());
        assertArrayEquals(TreeReduction.expectedSum(TreeReduction.warmupRounds(30) + 29, ranks, 5), root.lastSum());
        for (int rank = 1; rank < ranks; rank++) {
            assertNull(results.get(rank).lastSum(), "rank " + rank);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("twoLevelVariants")
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aTwoLevelTreeOfEighteenRanksSumsExactly(final Sync sync) {
        // Rank 0 has children 1..16, rank 1 has child 17: a counting request of 16 and one of 1.
        final List<Result> results = Rma.callThreads(18, job -> TreeReduction.run(job, sync, 3, 5));
        assertEquals(0, results.getFirst().wrongRounds());
    }

    static Stream<Sync> twoLevelVariants() {
        return Stream.of(Sync.NOTIFIED, Sync.SEND_RECV);
    }

    @Test
    void treeIsSixteenAryInHeapOrder() {
        assertEquals(16, TreeShape.childCount(0, 18));
        assertEquals(1, TreeShape.childCount(1, 18));
        assertEquals(0, TreeShape.childCount(2, 18));
        assertEquals(0, TreeShape.parent(16));
        assertEquals(1, TreeShape.parent(17));
        assertEquals(15, TreeShape.childIndex(16));
        assertEquals(0, TreeShape.childIndex(17));
        assertEquals(17, TreeShape.firstChild(1));
        assertEquals(2, TreeShape.childCount(0, 3));
    }

    @Test
    void contributionsDifferBetweenRounds() {
        assertTrue(TreeReduction.contribution(0, 2, 3) != TreeReduction.contribution(1, 2, 3));
        assertArrayEquals(new long[] {1_000_003L + 2_000_007L, 1_000_003L + 2_000_007L + 62},
            TreeReduction.expectedSum(0, 2, 2));
    }

    @Test
    void summaryLine() {
        assertEquals(
            "tree-reduction notified: 16-ary tree, 4 ranks, 8 longs, 1000 rounds, mean 9.81 us, "
                + "median 8.20 us, 0 wrong sums: VERIFIED",
            TreeReduction.summary(Sync.NOTIFIED, 4, 8, 1000, new Result(new long[8], 0, 9_810, 8_200)));
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void fourProcessesPrintVerified() throws InterruptedException {
        processes = new ProcessJob();
        final ProcessJob.Outcome outcome = processes.run(4, TreeReduction.class, "notified", "8", "50");
        assertEquals(0, outcome.result().exitCode(), outcome::transcript);
        assertTrue(outcome.lines().stream()
            .anyMatch(line -> line.startsWith("[0] tree-reduction notified: 16-ary tree, 4 ranks, 8 longs, 50 rounds, ")
                && line.endsWith(" 0 wrong sums: VERIFIED")),
            outcome::transcript);
    }
}
