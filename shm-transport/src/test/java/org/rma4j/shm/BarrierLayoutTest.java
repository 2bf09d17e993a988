package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BarrierLayoutTest {
    @Test
    void shouldPutArrivalsAndGenerationOnLinesTwoApart() {
        assertEquals(0, BarrierLayout.ARRIVALS_OFFSET);
        assertEquals(Align.PAD, BarrierLayout.GENERATION_OFFSET - BarrierLayout.ARRIVALS_OFFSET);
        assertEquals(0, BarrierLayout.GENERATION_OFFSET % Align.CACHE_LINE);
    }

    @Test
    void shouldHoldTheGenerationWaitWordInsideItsLength() {
        assertTrue(BarrierLayout.GENERATION_OFFSET + WaitWords.LENGTH <= BarrierLayout.LENGTH);
        assertEquals(2 * Align.PAD, BarrierLayout.LENGTH);
    }
}
