package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.junit.jupiter.api.Test;

class PeerFailedExceptionTest {
    @Test
    void shouldNameRankAndReasonInMessage() {
        final PeerFailedException failure = new PeerFailedException(12, "process 4711 is gone");

        assertEquals(12, failure.rank());
        assertEquals("rank 12 failed: process 4711 is gone", failure.getMessage());
    }

    @Test
    void shouldBeUnchecked() {
        assertInstanceOf(RuntimeException.class, new PeerFailedException(0, "x"));
    }
}
