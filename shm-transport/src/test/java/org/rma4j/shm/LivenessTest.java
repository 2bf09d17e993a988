package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LivenessTest {
    @Test
    void shouldNeverReportFailureFromNone() {
        for (int i = 0; i < 3; i++) {
            assertDoesNotThrow(Liveness.NONE::check);
        }
    }

    @Test
    void shouldPropagatePeerFailureFromCheck() {
        final PeerFailedException failure = new PeerFailedException(5, "gone");
        final Liveness liveness = () -> {
            throw failure;
        };

        assertSame(failure, assertThrows(PeerFailedException.class, liveness::check));
        assertEquals(5, failure.rank());
    }
}
