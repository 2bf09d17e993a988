package org.rma4j.litmus.syntax;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CheckerTest {
    private static LitmusException error(final String body) {
        return assertThrows(LitmusException.class,
            () -> Parser.parse("t.litmus", "RMA t\n{ X@0 = 0; Y@1 = 0; }\n" + body));
    }

    @Test
    void shouldRejectUnlockWithoutLock() {
        final LitmusException e = error("P0 { unlock(1); }\nP1 { }");
        assertEquals(3, e.pos().line());
        assertTrue(e.detail().contains("without a matching lock"), e.getMessage());
    }

    @Test
    void shouldRejectALockNeverClosed() {
        assertTrue(error("P0 { lock(1); }\nP1 { }").detail().contains("never closed"));
    }

    @Test
    void shouldRejectRemoteAccessOutsideAnEpochOnceEpochsAreExplicit() {
        final LitmusException e = error("P0 { lock(0); unlock(0); put(Y, X); }\nP1 { }");
        assertTrue(e.detail().contains("outside an access epoch"), e.getMessage());
        assertEquals(26, e.pos().column());
    }

    @Test
    void shouldRejectFlushOutsideAPassiveEpoch() {
        assertTrue(error("P0 { fence; put(Y, X); flush(1); fence; }\nP1 { fence; fence; }").detail()
            .contains("outside a passive-target epoch"));
    }

    @Test
    void shouldAllowFlushEverywhereInCoreRmaPrograms() {
        assertDoesNotThrow(() -> Parser.parse("t.litmus",
            "RMA t\n{ X@0 = 0; Y@1 = 0; }\nP0 { put(Y, X); flush(1); " + "win_sync; flush_local_all; }\nP1 { }"));
    }

    @Test
    void shouldRejectMismatchedCollectives() {
        assertTrue(error("P0 { fence; }\nP1 { barrier; }").detail().contains("collective #1"));
        assertTrue(error("P0 { barrier; barrier; }\nP1 { barrier; }").detail().contains("only 1 collective"));
    }

    @Test
    void shouldRejectMixingFenceAndLockEpochs() {
        assertTrue(error("P0 { fence; lock(1); unlock(1); }\nP1 { fence; }").detail().contains("fence"));
    }

    @Test
    void shouldRejectLockInsideLockAll() {
        assertTrue(error("P0 { lock_all; lock(1); unlock(1); unlock_all; }\nP1 { }").detail()
            .contains("inside the lock_all epoch"));
    }

    @Test
    void shouldRejectUnmatchedNotifications() {
        final LitmusException e = error("P0 { put_notify(Y, X, 4); put_notify(Y, X, 4); }\nP1 { wait(0, 4); }");
        assertTrue(e.detail().contains("sends 2 notified put(s) with tag 4 to process 1, which waits for 1"),
            e.getMessage());
        assertDoesNotThrow(() -> Parser.parse("t.litmus", "RMA t\n{ X@0 = 0; Y@1 = 0; }\nP0 { put_notify(Y, X, 4);"
            + " put_notify(Y, X, 4); }\nP1 { wait(0, 4, 2); }"));
    }
}
