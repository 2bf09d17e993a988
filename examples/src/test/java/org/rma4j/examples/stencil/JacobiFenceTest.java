package org.rma4j.examples.stencil;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rma4j.Rma;
import org.rma4j.examples.stencil.JacobiFence.Result;
import org.rma4j.examples.stencil.JacobiFence.Strip;

/**
 * Runs {@link JacobiFence} in thread mode and compares the gathered grid with {@link Jacobi#sequential}.
 */
class JacobiFenceTest {
    private static final int NX = 37;
    private static final int NY = 29;
    private static final int ITERATIONS = 25;

    /** 29 rows: 29 / 3 gives strips of 10, 10, 9 rows; 29 / 4 of 8, 7, 7, 7. */
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
     * Edge cases of the decomposition: strips of one row, a rank owning only a border row, no interior
     * row at some rank, a single interior column, zero and one iterations.
     */
    @ParameterizedTest(name = "{0} ranks, {1}x{2}, {3} iterations")
    @CsvSource({
        "4, 7, 5, 9",
        "5, 5, 5, 3",
        "4, 3, 4, 6",
        "2, 37, 29, 0",
        "3, 37, 29, 1",
        "3, 37, 29, 2",
        "6, 11, 40, 60",
    })
    void smallStripsMatchSequential(final int ranks, final int nx, final int ny, final int iterations) {
        assertArrayEquals(Jacobi.sequential(nx, ny, iterations), runParallel(ranks, nx, ny, iterations));
    }

    @Test
    void fewerRowsThanRanksIsRejected() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Rma.callThreads(4, job -> JacobiFence.run(job, 5, 3, 1)));
        assertTrue(e.getMessage().contains("4 ranks"), e.getMessage());
    }

    @Test
    void stripsCoverTheRowsEvenly() {
        for (int ny = 1; ny <= 40; ny++) {
            for (int ranks = 1; ranks <= ny; ranks++) {
                int next = 0;
                for (int rank = 0; rank < ranks; rank++) {
                    final Strip strip = Strip.of(rank, ranks, ny);
                    assertEquals(next, strip.first(), "ny=" + ny + " ranks=" + ranks + " rank=" + rank);
                    assertTrue(strip.rows() == ny / ranks || strip.rows() == ny / ranks + 1);
                    next += strip.rows();
                }
                assertEquals(ny, next, "ny=" + ny + " ranks=" + ranks);
            }
        }
    }

    @Test
    void stripDisplacementsCountDoubles() {
        final Strip strip = new Strip(10, 4);
        assertEquals(0, strip.disp(0, 0, 8));
        assertEquals(8, strip.disp(0, 1, 8));
        assertEquals(5 * 8, strip.disp(0, 5, 8));
        assertEquals(6 * 8, strip.disp(1, 0, 8));
        assertEquals(6 * 8 + 5 * 8, strip.disp(1, 5, 8));
        assertEquals(6L * 8 * Double.BYTES, strip.bufferBytes(8));
    }

    @Test
    void argumentsTakeDefaultsAndRejectGarbage() {
        assertArrayEquals(new int[] {512, 512, 200}, JacobiFence.parseArguments(new String[0]));
        assertArrayEquals(new int[] {64, 512, 200}, JacobiFence.parseArguments(new String[] {"64"}));
        assertArrayEquals(new int[] {64, 32, 7}, JacobiFence.parseArguments(new String[] {"64", "32", "7"}));
        assertThrows(IllegalArgumentException.class, () -> JacobiFence.parseArguments(new String[] {"x"}));
        assertThrows(IllegalArgumentException.class, () -> JacobiFence.parseArguments(new String[] {"2", "9"}));
        assertThrows(IllegalArgumentException.class, () -> JacobiFence.parseArguments(new String[] {"9", "9", "-1"}));
        assertThrows(IllegalArgumentException.class, () -> JacobiFence.parseArguments(new String[] {"9", "9", "1", "1"}));
    }

    @Test
    void summaryLine() {
        assertEquals("stencil jacobi-fence: grid 512x512, 200 iterations, 4 ranks, 123.4 ms, "
            + "max |diff| vs sequential = 0.0e+00: VERIFIED", JacobiFence.summary(512, 512, 200, 4, 123_400_000L, 0.0));
        assertTrue(JacobiFence.summary(9, 9, 1, 1, 0, 0.0).contains(", 1 rank, "));
        assertTrue(JacobiFence.summary(9, 9, 1, 2, 0, 1e-6).endsWith("= 1.0e-06: FAILED"));
        assertFalse(JacobiFence.verified(Double.NaN));
        assertTrue(JacobiFence.verified(1e-12));
    }

    /**
     * @return the grid gathered at rank 0 of a thread-mode job of {@code ranks} ranks.
     */
    private static double[] runParallel(final int ranks, final int nx, final int ny, final int iterations) {
        final List<Result> results = Rma.callThreads(ranks, job -> JacobiFence.run(job, nx, ny, iterations));
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
