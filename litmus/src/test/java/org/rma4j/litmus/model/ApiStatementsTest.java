package org.rma4j.litmus.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.rma4j.litmus.Seeds;
import org.rma4j.litmus.syntax.Loc;
import org.rma4j.litmus.syntax.Parser;
import org.rma4j.litmus.syntax.Program;

/** The model of PSCW, notified get, direct accesses, typed and payload variables, waits on any source / tag. */
class ApiStatementsTest {
    private static Set<String> allowed(final Program p, final ModelOptions options, final String... locations) {
        final ModelResult r = Model.allowedFull(p, options);
        final List<Loc> locs = r.locations().stream().filter(l -> List.of(locations).contains(l.toString())).toList();
        return new TreeSet<>(r.project(locs).format());
    }

    @Test
    void pscwMakesThePutVisibleAfterWinWait() {
        final Program p = Seeds.load("pscw-mp");
        assertEquals(Set.of("1:r=1;"), allowed(p, ModelOptions.stock(), "1:r"));
        assertEquals(Set.of("1:r=1;"), allowed(p, ModelOptions.mpi(), "1:r"));
        assertEquals(Set.of("1:r=0;", "1:r=1;"), allowed(p, ModelOptions.stock().without(Rule.PSCW), "1:r"));
    }

    @Test
    void pscwPostPrecedesTheEpochsAccesses() {
        final Program p = Parser.parse("t.litmus", """
            RMA pscw-post
            { X@0 = 0; Y@1 = 0; }
            P0 { start(1); X = get(Y); complete; r = X; }
            P1 { Y = 1; post(0); win_wait; }
            """);
        assertEquals(Set.of("0:r=1;"), allowed(p, ModelOptions.mpi(), "0:r"));
    }

    @Test
    void crossedPscwEpochsHaveNoExecution() {
        final Program p = Parser.parse("t.litmus", """
            RMA pscw-deadlock
            { X@0 = 0; Y@1 = 0; }
            P0 { start(1); complete; post(1); win_wait; }
            P1 { start(0); complete; post(0); win_wait; }
            """);
        assertTrue(Model.allowedFull(p, ModelOptions.stock()).states().isEmpty(), "start may block until the post");
    }

    @Test
    void notifiedGetReadsBeforeTheTargetsWaitReturns() {
        final Program p = Seeds.load("na-get-notify");
        assertEquals(Set.of("A=0;", "A=1;"), allowed(p, ModelOptions.stock(), "A"));
        assertEquals(Set.of("A=0;", "A=1;", "A=2;"), allowed(p, ModelOptions.stock().without(Rule.NA), "A"));
    }

    @Test
    void directStoreIsOrderedByWinSyncAndBarrier() {
        final Program p = Seeds.load("shm-store");
        assertEquals(Set.of("1:r=1;"), allowed(p, ModelOptions.stock(), "1:r"));
        // MPI's view: the accesses are not atomic, but win_sync + barrier + win_sync order them.
        assertEquals(Set.of("1:r=1;"), allowed(p, ModelOptions.mpi(), "1:r"));
        assertEquals(Set.of("1:r=0;", "1:r=1;"),
            allowed(p, ModelOptions.stock().without(Rule.WSY).without(Rule.DS), "1:r"));
    }

    @Test
    void pollingMessagePassingThroughSharedMemoryIsAnRma4jGuarantee() {
        final Program p = Seeds.load("shm-poll-mp");
        assertEquals(Set.of("1:r=0; 1:s=0;", "1:r=0; 1:s=1;", "1:r=1; 1:s=1;"),
            allowed(p, ModelOptions.stock(), "1:r", "1:s"));
        // Without DS the store of the flag may pass the store of X; MPI makes the race undefined.
        assertTrue(allowed(p, ModelOptions.stock().without(Rule.DS), "1:r", "1:s").contains("1:r=1; 1:s=0;"));
        assertTrue(Model.allowedFull(p, ModelOptions.mpi()).hasTop());
    }

    @Test
    void barrierAloneOrdersNoLoadOrStoreUnderMpi() {
        // MPI-3 paper Figure 9(b) prints 1 (eq. (20)); MPI-3.1 Example 11.9, the same program, is unsafe.
        final Program p = Seeds.load("mpi-fig9b");
        assertEquals(Set.of("1:v=1;"), allowed(p, ModelOptions.stock(), "1:v"));
        assertEquals(Set.of("1:v=?;", "1:v=0;", "1:v=1;"), allowed(p, ModelOptions.mpi(), "1:v"));
        assertEquals(Set.of("1:v=?;", "1:v=0;", "1:v=1;"), allowed(p, ModelOptions.stock().without(Rule.LB), "1:v"));
    }

    @Test
    void payloadNotifiedPutIsCompleteAfterTheWait() {
        assertEquals(Set.of("1:r=1;"), allowed(Seeds.load("na-put-1k"), ModelOptions.stock(), "1:r"));
        // A payload is never atomic: without NA the read races with the put and is undefined.
        assertTrue(Model.allowedFull(Seeds.load("na-put-1k"), ModelOptions.stock().without(Rule.NA)).hasTop());
    }

    @Test
    void shortAccumulatesWrapAsTheMachineDoes() {
        assertEquals(Set.of("X=-32767;"), allowed(Seeds.load("acc-short"), ModelOptions.mpi(), "X"));
    }

    @Test
    void doubleAccumulatesSum() {
        final Program p = Parser.parse("t.litmus", """
            RMA acc-double
            { D@2:double = 1; A@0:double = 2; B@1:double = 3; }
            P0 { acc(D, A); }
            P1 { acc(D, B, max); }
            P2 { }
            """);
        assertEquals(Set.of("D=3;", "D=5;"), allowed(p, ModelOptions.mpi(), "D"));
    }

    @Test
    void wildcardWaitsMatchEitherNotificationFirst() {
        final Program p = Seeds.load("wait-any");
        assertEquals(Set.of("2:s=0; 2:t=5; 2:u=1; 2:v=6;", "2:s=1; 2:t=6; 2:u=0; 2:v=5;"),
            allowed(p, ModelOptions.stock(), "2:s", "2:t", "2:u", "2:v"));
    }

    @Test
    void notificationsOfOneSourceAndTagMatchInOrder() {
        final Program p = Parser.parse("t.litmus", """
            RMA na-fifo
            { Y@1 = 0; A@0 = 1; B@0 = 2; }
            P0 { put_notify(Y, A, 4); put_notify(Y, B, 4); }
            P1 { s, t = wait(any, any); r = Y; u, v = wait(any, any); }
            """);
        // the first wait matches the first notified put: Y is 1 or (IR) already 2 after it, never 0.
        assertEquals(Set.of("1:r=1;", "1:r=2;"), allowed(p, ModelOptions.stock(), "1:r"));
    }
}
