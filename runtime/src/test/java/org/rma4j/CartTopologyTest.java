package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * MPI_DIMS_CREATE (MPI-3.1 section 7.5.2) and the grid arithmetic of Cartesian communicators.
 */
class CartTopologyTest {
    @Test
    void shouldBalanceTheFreeDimensionsInNonIncreasingOrder() {
        assertArrayEquals(new int[] {3, 2}, Rma.dimsCreate(6, new int[2]));
        assertArrayEquals(new int[] {4, 3}, Rma.dimsCreate(12, new int[2]));
        assertArrayEquals(new int[] {4, 2, 2}, Rma.dimsCreate(16, new int[3]));
        assertArrayEquals(new int[] {4, 3, 2}, Rma.dimsCreate(24, new int[3]));
        assertArrayEquals(new int[] {6, 6}, Rma.dimsCreate(36, new int[2]));
        assertArrayEquals(new int[] {8, 4}, Rma.dimsCreate(32, new int[2]));
        assertArrayEquals(new int[] {7, 1}, Rma.dimsCreate(7, new int[2]));
        assertArrayEquals(new int[] {1}, Rma.dimsCreate(1, new int[1]));
        assertArrayEquals(new int[] {1024, 1024}, Rma.dimsCreate(1 << 20, new int[2]));
        assertArrayEquals(new int[0], Rma.dimsCreate(1, new int[0]));
    }

    @Test
    void shouldKeepFixedDimensionsAndLeaveTheArgumentUnchanged() {
        final int[] dims = {0, 3, 0};
        assertArrayEquals(new int[] {2, 3, 2}, Rma.dimsCreate(12, dims));
        assertArrayEquals(new int[] {0, 3, 0}, dims);
        assertArrayEquals(new int[] {2, 3}, Rma.dimsCreate(6, new int[] {2, 3}));
    }

    @Test
    void shouldRefuseImpossibleRequestsWithTheirValues() {
        final RmaException notDividing = assertThrows(RmaException.class, () -> Rma.dimsCreate(8, new int[] {0, 3}));
        assertEquals(ErrorClass.DIMS, notDividing.errorClass());
        assertEquals(ErrorClass.DIMS,
            assertThrows(RmaException.class, () -> Rma.dimsCreate(6, new int[] {2, 2})).errorClass());
        assertEquals(ErrorClass.DIMS,
            assertThrows(RmaException.class, () -> Rma.dimsCreate(6, new int[] {-1, 0})).errorClass());
        assertEquals(ErrorClass.ARG,
            assertThrows(RmaException.class, () -> Rma.dimsCreate(0, new int[2])).errorClass());
    }

    @Test
    void shouldNumberCellsRowMajorAndShiftAcrossPeriodicEdgesOnly() {
        final CartTopology grid = new CartTopology(new int[] {2, 3, 4}, new boolean[] {false, true, false});
        assertEquals(24, grid.cells());
        assertArrayEquals(new int[] {1, 2, 3}, grid.coords(23));
        assertArrayEquals(new int[] {0, 1, 2}, grid.coords(6));
        assertEquals(6, grid.rank(new int[] {0, 1, 2}));
        assertEquals(new CartCommunicator.Shift(Rma.PROC_NULL, 18), grid.shift(6, 0, 1));
        assertEquals(new CartCommunicator.Shift(2, 10), grid.shift(6, 1, 1));
        assertEquals(new CartCommunicator.Shift(7, 5), grid.shift(6, 2, -1));
        assertEquals(new CartCommunicator.Shift(Rma.PROC_NULL, Rma.PROC_NULL), grid.shift(6, 2, 4));
        assertEquals(new CartCommunicator.Shift(6, 6), grid.shift(6, 1, 3));
    }
}
