package org.rma4j.examples.stencil;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rma4j.Rma;
import org.rma4j.examples.stencil.StripLayout.Axis;

/**
 * Window layout of a strip: block shapes, displacements in doubles, halo positions, neighbours.
 */
class StripLayoutTest {
    /** 8 columns x 18 rows among 4 ranks: rows 5, 5, 4, 4; rank 2 owns rows 10..13. */
    @Test
    void rowStripDisplacementsCountDoubles() {
        final StripLayout layout = StripLayout.of(Axis.ROWS, 2, 4, 8, 18);
        assertEquals(new Strip(10, 4), layout.strip());
        assertEquals(6, layout.height());
        assertEquals(8, layout.width());
        assertEquals(0, layout.disp(0, 0, 0));
        assertEquals(8, layout.disp(0, 1, 0));
        assertEquals(5 * 8 + 3, layout.disp(0, 5, 3));
        assertEquals(6 * 8, layout.disp(1, 0, 0));
        assertEquals(0, layout.lowHaloDisp(0));
        assertEquals(5 * 8, layout.highHaloDisp(0));
        assertEquals(6 * 8 + 5 * 8, layout.highHaloDisp(1));
        assertEquals(6L * 8 * Double.BYTES, layout.bufferBytes());
        assertEquals(2 * 6L * 8 * Double.BYTES, layout.windowBytes());
        assertEquals(1, layout.low());
        assertEquals(3, layout.high());
    }

    /** 18 columns x 8 rows among 4 ranks: columns 5, 5, 4, 4; rank 3 owns columns 14..17. */
    @Test
    void columnStripHasHaloColumnsAtBothEnds() {
        final StripLayout layout = StripLayout.of(Axis.COLUMNS, 3, 4, 18, 8);
        assertEquals(new Strip(14, 4), layout.strip());
        assertEquals(8, layout.height());
        assertEquals(6, layout.width());
        assertEquals(2 * 6 + 1, layout.disp(0, 2, 1));
        assertEquals(8 * 6, layout.disp(1, 0, 0));
        assertEquals(0, layout.lowHaloDisp(0));
        assertEquals(5, layout.highHaloDisp(0));
        assertEquals(8 * 6 + 5, layout.highHaloDisp(1));
        assertEquals(2, layout.low());
        assertEquals(Rma.PROC_NULL, layout.high());
    }

    @Test
    void firstRankHasNoLowNeighbour() {
        final StripLayout only = StripLayout.of(Axis.ROWS, 0, 1, 5, 5);
        assertEquals(Rma.PROC_NULL, only.low());
        assertEquals(Rma.PROC_NULL, only.high());
    }

    @Test
    void splitNeedsALinePerRank() {
        final IllegalArgumentException rows = assertThrows(IllegalArgumentException.class,
            () -> StripLayout.of(Axis.ROWS, 0, 4, 9, 3));
        assertTrue(rows.getMessage().contains("ny=3 rows"), rows.getMessage());
        final IllegalArgumentException columns = assertThrows(IllegalArgumentException.class,
            () -> StripLayout.of(Axis.COLUMNS, 0, 4, 3, 9));
        assertTrue(columns.getMessage().contains("nx=3 columns"), columns.getMessage());
        assertThrows(IllegalArgumentException.class, () -> StripLayout.of(Axis.ROWS, 4, 4, 9, 9));
    }
}
