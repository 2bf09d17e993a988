package org.rma4j.examples.stencil;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The program side of {@link StripStencil}: arguments, the summary line, the verdict.
 */
class StripStencilTest {
    @Test
    void argumentsTakeDefaultsAndRejectGarbage() {
        assertArrayEquals(new int[] {512, 512, 200}, StripStencil.parseArguments(new String[0]));
        assertArrayEquals(new int[] {64, 512, 200}, StripStencil.parseArguments(new String[] {"64"}));
        assertArrayEquals(new int[] {64, 32, 7}, StripStencil.parseArguments(new String[] {"64", "32", "7"}));
        assertThrows(IllegalArgumentException.class, () -> StripStencil.parseArguments(new String[] {"x"}));
        assertThrows(IllegalArgumentException.class, () -> StripStencil.parseArguments(new String[] {"2", "9"}));
        assertThrows(IllegalArgumentException.class, () -> StripStencil.parseArguments(new String[] {"9", "9", "-1"}));
        assertThrows(IllegalArgumentException.class,
            () -> StripStencil.parseArguments(new String[] {"9", "9", "1", "1"}));
    }

    @Test
    void summaryLine() {
        assertEquals(
            "stencil jacobi-fence: grid 512x512, 200 iterations, 4 ranks, 123.4 ms, "
                + "max |diff| vs sequential = 0.0e+00: VERIFIED",
            JacobiFence.STENCIL.summary(512, 512, 200, 4, 123_400_000L, 0.0));
        assertTrue(JacobiFence.STENCIL.summary(9, 9, 1, 1, 0, 0.0).contains(", 1 rank, "));
        assertTrue(JacobiFence.STENCIL.summary(9, 9, 1, 2, 0, 1e-6).endsWith("= 1.0e-06: FAILED"));
        assertFalse(StripStencil.verified(Double.NaN));
        assertTrue(StripStencil.verified(1e-12));
    }

    @Test
    void usageNamesTheProgram() {
        assertEquals("usage: JacobiPassive [nx [ny [iterations]]]  (defaults 512 512 200)",
            JacobiPassive.STENCIL.usage());
    }

    @Test
    void eachStencilHasItsOwnName() {
        assertEquals("jacobi-fence", JacobiFence.STENCIL.name());
        assertEquals("jacobi-pscw", JacobiPscw.STENCIL.name());
        assertEquals("jacobi-passive", JacobiPassive.STENCIL.name());
        assertEquals("jacobi-columns", JacobiColumns.STENCIL.name());
    }
}
