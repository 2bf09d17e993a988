package org.rma4j.examples.stencil;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * Checks of the sequential reference itself, so that agreeing with it means something.
 */
class JacobiTest {
    @Test
    void oneInteriorPointAveragesItsNeighbours() {
        assertArrayEquals(new double[] {1, 1, 1, 0, 0, 0, 0, 0, 0}, Jacobi.sequential(3, 3, 0));
        assertArrayEquals(new double[] {1, 1, 1, 0, 0.25, 0, 0, 0, 0}, Jacobi.sequential(3, 3, 1));
        // A fixed point after the first iteration: the neighbours do not change.
        assertArrayEquals(new double[] {1, 1, 1, 0, 0.25, 0, 0, 0, 0}, Jacobi.sequential(3, 3, 5));
    }

    @Test
    void twoIterationsByHand() {
        // 4 columns x 4 rows: interior (1,1) (2,1) (1,2) (2,2).
        final double[] one = Jacobi.sequential(4, 4, 1);
        assertEquals(0.25, one[4 + 1]);
        assertEquals(0.25, one[4 + 2]);
        assertEquals(0.0, one[8 + 1]);
        final double[] two = Jacobi.sequential(4, 4, 2);
        assertEquals(0.25 * (1 + 0 + 0 + 0.25), two[4 + 1]);
        assertEquals(0.25 * (0.25 + 0 + 0 + 0), two[8 + 1]);
    }

    @Test
    void bordersStayFixedAndValuesStayBoundedAndSymmetric() {
        final int nx = 21;
        final int ny = 17;
        final double[] grid = Jacobi.sequential(nx, ny, 40);
        for (int y = 0; y < ny; y++) {
            for (int x = 0; x < nx; x++) {
                final double value = grid[y * nx + x];
                if (y == 0 || y == ny - 1 || x == 0 || x == nx - 1) {
                    assertEquals(Jacobi.initialValue(x, y, nx, ny), value, "border (" + x + "," + y + ")");
                } else {
                    assertTrue(value >= 0.0 && value < 1.0, "(" + x + "," + y + ") = " + value);
                    assertEquals(grid[y * nx + nx - 1 - x], value, 1e-15, "mirror of (" + x + "," + y + ")");
                }
            }
        }
        assertTrue(grid[nx + nx / 2] > grid[2 * nx + nx / 2], "values decrease away from the hot top row");
    }

    @Test
    void relaxingARowInPiecesEqualsRelaxingItWhole() {
        final int nx = 11;
        final double[] src = new double[3 * nx];
        for (int i = 0; i < src.length; i++) {
            src[i] = Math.sin(i) + i / 7.0;
        }
        final double[] whole = new double[3 * nx];
        final double[] pieces = new double[3 * nx];
        Jacobi.relaxRow(MemorySegment.ofArray(src), MemorySegment.ofArray(whole), 1, nx);
        Jacobi.relaxRow(MemorySegment.ofArray(src), MemorySegment.ofArray(pieces), 1, nx, 1, 4);
        Jacobi.relaxRow(MemorySegment.ofArray(src), MemorySegment.ofArray(pieces), 1, nx, 4, 4);
        Jacobi.relaxRow(MemorySegment.ofArray(src), MemorySegment.ofArray(pieces), 1, nx, 4, nx - 1);
        assertArrayEquals(whole, pieces);
        assertEquals(0.0, pieces[nx], "the border column is not computed");
    }

    @Test
    void maxAbsDiffTreatsNanAsFailure() {
        assertEquals(0.0, Jacobi.maxAbsDiff(new double[] {1, 2}, new double[] {1, 2}));
        assertEquals(0.5, Jacobi.maxAbsDiff(new double[] {1, 2, 3}, new double[] {1.5, 2, 2.75}));
        assertTrue(Double.isNaN(Jacobi.maxAbsDiff(new double[] {Double.NaN, 5}, new double[] {0, 0})));
        assertThrows(IllegalArgumentException.class, () -> Jacobi.maxAbsDiff(new double[1], new double[2]));
    }

    @Test
    void badProblemsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Jacobi.sequential(2, 9, 1));
        assertThrows(IllegalArgumentException.class, () -> Jacobi.sequential(9, 2, 1));
        assertThrows(IllegalArgumentException.class, () -> Jacobi.sequential(9, 9, -1));
        assertThrows(IllegalArgumentException.class, () -> Jacobi.sequential(1 << 16, 1 << 16, 1));
    }
}
