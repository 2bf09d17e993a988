package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AlignTest {
    @Test
    void shouldRoundUpToMultipleOfAlignment() {
        assertEquals(0, Align.up(0, 64));
        assertEquals(64, Align.up(1, 64));
        assertEquals(64, Align.up(63, 64));
        assertEquals(64, Align.up(64, 64));
        assertEquals(128, Align.up(65, 64));
        assertEquals(256, Align.up(129, 128));
        assertEquals(8, Align.up(5, 8));
        assertEquals(7, Align.up(7, 1));
    }

    @Test
    void shouldHandleValuesBeyondIntRange() {
        final long big = (1L << 40) + 1;

        assertEquals((1L << 40) + 4096, Align.up(big, 4096));
    }

    @Test
    void shouldPadTwoCacheLines() {
        assertEquals(64, Align.CACHE_LINE);
        assertEquals(2 * Align.CACHE_LINE, Align.PAD);
    }
}
