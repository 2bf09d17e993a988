package org.rma4j.examples.stencil;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rma4j.Rma;
import org.rma4j.examples.stencil.StripLayout.Axis;
import org.rma4j.examples.stencil.StripStencil.Result;

/**
 * What every Jacobi stencil of the package must do, run in thread mode: gather at rank 0 a grid equal,
 * bit for bit, to {@link Jacobi#sequential}, on uneven splits and on the edge cases of the
 * decomposition. One subclass per stencil.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class StripStencilContractTest {
    private static final int NX = 37;
    private static final int NY = 29;
    private static final int ITERATIONS = 25;

    /**
     * @return the stencil under test.
     */
    abstract StripStencil stencil();

    /**
     * @return how the stencil under test cuts the grid.
     */
    abstract Axis axis();

    /**
     * 37 columns x 29 rows: rows split 10, 10, 9 among 3 ranks and 8, 7, 7, 7 among 4; columns 13, 12,
     * 12 and 10, 9, 9, 9.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 3, 4})
    void gatheredGridEqualsSequential(final int ranks) {
        final double[] grid = runParallel(ranks, NX, NY, ITERATIONS);
        final double[] expected = Jacobi.sequential(NX, NY, ITERATIONS);
        assertArrayEquals(expected, grid);
        assertEquals(0.0, Jacobi.maxAbsDiff(expected, grid));
        // Not a vacuous comparison: heat from the top row has spread into the interior.
        assertTrue(grid[NX + NX / 2] > 0.1, "row 1 centre " + grid[NX + NX / 2]);
        assertTrue(grid[(ITERATIONS / 2) * NX + NX / 2] > 0.0, "row " + ITERATIONS / 2 + " centre");
    }

    /**
     * Edge cases of the decomposition, {@code lines} being the side that is split among the ranks and
     * {@code across} the other: strips of one line, a rank owning only a border line, no interior line
     * at some rank, a single interior point across, zero and one iterations.
     */
    @ParameterizedTest(name = "{0} ranks, {1} lines x {2} across, {3} iterations")
    @CsvSource({"4, 5, 7, 9", "5, 5, 5, 3", "4, 4, 3, 6", "2, 29, 37, 0", "3, 29, 37, 1", "3, 29, 37, 2",
        "6, 40, 11, 60", "6, 11, 40, 60",})
    void smallStripsMatchSequential(final int ranks, final int lines, final int across, final int iterations) {
        final int nx = axis() == Axis.ROWS ? across : lines;
        final int ny = axis() == Axis.ROWS ? lines : across;
        assertArrayEquals(Jacobi.sequential(nx, ny, iterations), runParallel(ranks, nx, ny, iterations));
    }

    @Test
    void fewerLinesThanRanksIsRejected() {
        final int nx = axis() == Axis.ROWS ? 5 : 3;
        final int ny = axis() == Axis.ROWS ? 3 : 5;
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Rma.callThreads(4, job -> stencil().run(job, nx, ny, 1)));
        assertTrue(e.getMessage().contains("4 ranks"), e.getMessage());
    }

    @Test
    void summaryLineCarriesTheStencilName() {
        final String line = stencil().summary(9, 9, 1, 2, 1_000_000L, 0.0);
        assertTrue(line.startsWith("stencil " + stencil().name() + ": grid 9x9, 1 iterations, 2 ranks, 1.0 ms"), line);
        assertTrue(line.endsWith(": VERIFIED"), line);
    }

    /**
     * @return the grid gathered at rank 0 of a thread-mode job of {@code ranks} ranks.
     */
    double[] runParallel(final int ranks, final int nx, final int ny, final int iterations) {
        final List<Result> results = Rma.callThreads(ranks, job -> stencil().run(job, nx, ny, iterations));
        assertEquals(ranks, results.size());
        for (int rank = 1; rank < ranks; rank++) {
            assertNull(results.get(rank).grid(), "rank " + rank + " returned a grid");
        }
        final double[] grid = results.getFirst().grid();
        assertNotNull(grid);
        assertEquals(nx * ny, grid.length);
        return grid;
    }
}
