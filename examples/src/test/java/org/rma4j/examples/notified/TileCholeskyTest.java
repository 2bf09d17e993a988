package org.rma4j.examples.notified;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import org.rma4j.examples.notified.TileCholesky.Result;

/**
 * {@link TileCholesky}: every variant factors the test matrix to a residual below 1e-10, in thread
 * mode with 2, 3 and 4 ranks, and the notified variant as a job of three processes.
 */
class TileCholeskyTest {
    private ProcessJob processes;

    @AfterEach
    void removeBaseDirectory() {
        if (processes != null) {
            processes.close();
        }
    }

    static Stream<Arguments> variantsAndRanks() {
        return TileCholesky.VARIANTS.stream()
            .flatMap(sync -> Stream.of(Arguments.of(sync, 2), Arguments.of(sync, 3), Arguments.of(sync, 4)));
    }

    @ParameterizedTest(name = "{0} with {1} ranks")
    @MethodSource("variantsAndRanks")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void factorReproducesTheMatrix(final Sync sync, final int ranks) {
        final List<Result> results = Rma.callThreads(ranks, job -> TileCholesky.run(job, sync, 6, 8));
        final Result root = results.getFirst();
        assertTrue(root.residual() < TileCholesky.TOLERANCE, "residual " + root.residual());
        long received = 0;
        for (int rank = 0; rank < ranks; rank++) {
            received += results.get(rank).tilesReceived();
            if (rank > 0) {
                assertNull(results.get(rank).factor(), "rank " + rank);
            }
        }
        assertEquals(expectedTransfers(6, ranks), received);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void ranksWithoutColumnsOnlyTakePartInCollectives() {
        final List<Result> results = Rma.callThreads(4, job -> TileCholesky.run(job, Sync.NOTIFIED, 2, 5));
        assertTrue(results.getFirst().residual() < TileCholesky.TOLERANCE);
        assertEquals(0, results.get(2).tilesReceived());
        assertEquals(0, results.get(3).tilesReceived());
    }

    @Test
    void aSingleRankFactorsWithoutTransfers() {
        final List<Result> results = Rma.callThreads(1, job -> TileCholesky.run(job, Sync.PUT_FLUSH, 3, 4));
        assertTrue(results.getFirst().residual() < TileCholesky.TOLERANCE);
        assertEquals(0, results.getFirst().tilesReceived());
    }

    @Test
    void parallelFactorEqualsTheSequentialOneUpToRounding() {
        final double[] alone = Rma.callThreads(1, job -> TileCholesky.run(job, Sync.NOTIFIED, 4, 6)).getFirst()
            .factor();
        final double[] shared = Rma.callThreads(3, job -> TileCholesky.run(job, Sync.NOTIFIED, 4, 6)).getFirst()
            .factor();
        assertArrayEquals(alone, shared, 1e-12);
    }

    @Test
    void panelTilesGoToTheOwnersOfTheColumnsTheyUpdate() {
        // Tile (4, 1) updates columns 2, 3, 4, owned by ranks 2, 0, 1 of three; its producer is rank 1.
        assertArrayEquals(new int[] {0, 2}, CholeskyEngine.consumers(4, 1, 3));
        assertArrayEquals(new int[] {1}, CholeskyEngine.consumers(1, 0, 2));
        assertArrayEquals(new int[] {1, 2}, CholeskyEngine.consumers(2, 0, 3));
        assertArrayEquals(new int[0], CholeskyEngine.consumers(2, 0, 1));
    }

    @Test
    void tagsNameRowAndStep() {
        final CholeskyLayout layout = new CholeskyLayout(8, 32);
        final int tag = layout.tag(5, 3);
        assertEquals(5, layout.tagRow(tag));
        assertEquals(3, layout.tagColumn(tag));
        assertEquals(0, layout.tileOffset(0, 0) % 128);
        assertEquals(layout.tileOffset(1, 0) + layout.tileBytes(), layout.tileOffset(1, 1));
    }

    @Test
    void potrfOfANonPositiveDefiniteTileThrows() {
        assertThrows(ArithmeticException.class, () -> TileKernels.potrf(new double[] {1, 2, 2, 1}, 2));
    }

    @Test
    void residualOfAWrongFactorIsLarge() {
        final SpdMatrix matrix = new SpdMatrix(4);
        final double[] notAFactor = new double[16];
        for (int i = 0; i < 4; i++) {
            notAFactor[i * 4 + i] = 1;
        }
        assertFalse(TileCholesky.verified(matrix.relativeResidual(notAFactor)));
    }

    @Test
    void summaryLine() {
        assertEquals("cholesky notified: 8x8 tiles of 32x32 (N=256), 4 ranks, 10.0 ms, 0.56 GFLOPS, residual 3.1e-17: "
            + "VERIFIED", TileCholesky.summary(Sync.NOTIFIED, 8, 32, 4, new Result(null, 3.1e-17, 0, 10_000_000L)));
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void threeProcessesPrintVerified() throws InterruptedException {
        processes = new ProcessJob();
        final ProcessJob.Outcome outcome = processes.run(3, TileCholesky.class, "notified", "6", "16");
        assertEquals(0, outcome.result().exitCode(), outcome::transcript);
        assertTrue(outcome.lines().stream()
            .anyMatch(line -> line.startsWith("[0] cholesky notified: 6x6 tiles of 16x16 (N=96), 3 ranks, ")
                && line.endsWith(": VERIFIED")),
            outcome::transcript);
    }

    /**
     * @return the panel-tile transfers of T x T tiles over {@code ranks}: one per tile and consumer.
     */
    private static long expectedTransfers(final int tiles, final int ranks) {
        long transfers = 0;
        for (int k = 0; k < tiles; k++) {
            for (int i = k + 1; i < tiles; i++) {
                transfers += CholeskyEngine.consumers(i, k, ranks).length;
            }
        }
        return transfers;
    }
}
