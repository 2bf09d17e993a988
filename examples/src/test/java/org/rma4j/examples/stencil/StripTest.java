package org.rma4j.examples.stencil;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The split of lines among ranks.
 */
class StripTest {
    @Test
    void stripsCoverTheLinesEvenly() {
        for (int total = 1; total <= 40; total++) {
            for (int ranks = 1; ranks <= total; ranks++) {
                int next = 0;
                for (int rank = 0; rank < ranks; rank++) {
                    final Strip strip = Strip.of(rank, ranks, total);
                    assertEquals(next, strip.first(), "total=" + total + " ranks=" + ranks + " rank=" + rank);
                    assertTrue(strip.lines() == total / ranks || strip.lines() == total / ranks + 1);
                    next = strip.end();
                }
                assertEquals(total, next, "total=" + total + " ranks=" + ranks);
            }
        }
    }
}
