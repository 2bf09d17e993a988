package org.rma4j.examples.notified;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * {@link Programs}: medians and arguments.
 */
class ProgramsTest {
    @Test
    void medianOfOddAndEvenCountsLeavesTheSamplesAlone() {
        final long[] samples = {9, 1, 5};
        assertEquals(5, Programs.median(samples));
        assertEquals(9, samples[0]);
        assertEquals(4, Programs.median(new long[] {7, 1, 3, 5}));
        assertEquals(0, Programs.median(new long[0]));
    }

    @Test
    void intArgumentsTakeDefaultsAndRejectGarbage() {
        final String[] args = {"all", " 12 ", "x", "-3"};
        assertEquals(12, Programs.intArgument(args, 1, "n", 5, 1));
        assertEquals(5, Programs.intArgument(args, 4, "n", 5, 1));
        assertThrows(IllegalArgumentException.class, () -> Programs.intArgument(args, 2, "n", 5, 1));
        assertThrows(IllegalArgumentException.class, () -> Programs.intArgument(args, 3, "n", 5, 1));
        assertThrows(IllegalArgumentException.class, () -> Programs.checkArgumentCount(args, 3));
    }
}
