package org.rma4j.litmus.syntax;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The grammar and static rules of PSCW, get_notify, direct accesses, typed variables, polls, wildcard waits. */
class ApiSyntaxTest {
    private static final String ALL = """
        RMA api
        accumulate_ordering = "rar,waw"
        { X@0 = 0; S@0:short = 1; D@0:double = 2; P@0:long[128] = 0; Y@1 = 0; T@1:short = 0; E@1:double = 0;
          Q@1:long[128] = 0; }
        P0 {
          start(1); acc(Y, X, replace); X = rga(Y, X, no_op); acc(T, S); acc(E, D, max); complete;
          put_notify(Q, P, 7); X = get_notify(Y, 8); store(Y, 5); r = load(Y); w = poll(Y, 5, 1000); win_sync;
        }
        P1 { post(0); win_wait; s, t = wait(any, any); u = wait(any, any); c = poll(Y, 1); }
        """;

    private static Program parse(final String text) {
        return Parser.parse("t.litmus", text);
    }

    private static LitmusException error(final String text) {
        return assertThrows(LitmusException.class, () -> parse(text));
    }

    @Test
    void shouldParseEveryNewStatement() {
        final Program p = parse(ALL);
        final List<Stmt> p0 = p.processes().get(0);
        assertEquals(new Stmt.Pscw(Stmt.PscwKind.START, List.of(1), p0.get(0).pos()), p0.get(0));
        assertEquals(new Stmt.Acc("Y", "X", AccOp.REPLACE, Atomicity.DEFAULT, p0.get(1).pos()), p0.get(1));
        assertEquals(AccOp.NO_OP, ((Stmt.Rga)p0.get(2)).op());
        assertEquals(new Stmt.GetNotify("X", "Y", 8, Atomicity.DEFAULT, p0.get(7).pos()), p0.get(7));
        assertEquals(new Stmt.Load("r", "Y", Atomicity.DEFAULT, p0.get(9).pos()), p0.get(9));
        assertEquals(new Stmt.Poll("w", "Y", 5, 1000, Atomicity.DEFAULT, p0.get(10).pos()), p0.get(10));
        final Stmt.Wait any = (Stmt.Wait)p.processes().get(1).get(2);
        assertEquals(List.of(Stmt.ANY, Stmt.ANY, 1, "s", "t"),
            List.of(any.source(), any.tag(), any.count(), any.sourceRegister(), any.tagRegister()));
        assertEquals(Stmt.Poll.DEFAULT_BOUND, ((Stmt.Poll)p.processes().get(1).get(4)).bound());
        assertEquals(List.of("c", "s", "t", "u"), p.registersOf(1));
        assertEquals(VarType.SHORT, p.variable("S").type());
        assertEquals(1024, p.variable("P").bytes());
        assertEquals(java.util.Set.of("rar", "waw"), p.accumulateOrdering());
    }

    @Test
    void shouldPrintAndParseBack() {
        final Program p = parse(ALL);
        final Program back = parse(Printer.print(p));
        assertEquals(Printer.print(p), Printer.print(back));
        assertEquals(p.variables().size(), back.variables().size());
        assertEquals(p.variable("P").count(), back.variable("P").count());
    }

    @Test
    void shouldAcceptWinSyncInAnyEpoch() {
        // MPI-3.1 section 11.5.4 puts no epoch condition on MPI_WIN_SYNC; Window.sync() accepts it anywhere.
        assertDoesNotThrow(() -> parse("RMA t\n{ X@0 = 0; }\nP0 { fence; win_sync; fence; }\nP1 { fence; fence; }"));
        assertDoesNotThrow(() -> parse("RMA t\n{ X@0 = 0; }\nP0 { lock(1); unlock(1); win_sync; }\nP1 { }"));
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "P0 { start(1); } P1 { post(0); win_wait; }                      | never closed by complete",
        "P0 { complete; } P1 { }                                         | complete without a matching start",
        "P0 { start(1); complete; } P1 { }                               | posts 0 exposure",
        "P0 { start(1); put(Y, X); complete; } P1 { post(0); }           | never closed by win_wait",
        "P0 { put(Y, X); start(1); complete; } P1 { post(0); win_wait; } | outside an access epoch",
        "P0 { lock(1); unlock(1); start(1); complete; } P1 { post(0); win_wait; } | mixes post/start",
        "P0 { start(0); complete; } P1 { }                               | itself",})
    void shouldCheckPscwEpochs(final String body, final String message) {
        final LitmusException e = error("RMA t\n{ X@0 = 0; Y@1 = 0; }\n" + body);
        assertTrue(e.getMessage().contains(message.trim()), e.getMessage());
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "{ X@0 = 0; Y@1:short = 0; } P0 { put(Y, X); } P1 { }           | differ in type or size",
        "{ X@0:double = 0; Y@1:double = 0; } P0 { acc(Y, X, band); } P1 { } | not defined on double",
        "{ X@0:double = 0; Y@1:double = 0; } P0 { X = cas(Y, X, X); } P1 { } | integer types",
        "{ X@0:long[2] = 0; Y@1:long[2] = 0; } P0 { acc(Y, X); } P1 { } | one element",
        "{ X@0:short = 40000; } P0 { } P1 { }                           | does not fit a short",
        "{ X@0:float = 0; } P0 { } P1 { }                               | unknown type",
        "{ X@0 = 0; Y@1 = 0; } P0 { put_notify(Y, X, 1); } P1 { s = wait(any, any); wait(0, 1); } | mixes a wait on any",
        "{ X@0 = 0; Y@1 = 0; } P0 { put_notify(Y, X, 1); put_notify(Y, X, 1); } P1 { s = wait(any, 1, 2); } | waits for one",
        "{ X@0 = 0; Y@1 = 0; } P0 { put_notify(Y, X, 1); } P1 { s = wait(any, any); Y = s; } | status",
        "{ X@0 = 0; Y@1 = 0; } P0 { put_notify(Y, X, 2); } P1 { s = wait(any, 1); } | pattern",
        "{ X@0 = 0; } P0 { X = 1; } P1 { accumulate_ordering = 1; }     | expected",})
    void shouldRejectIllTypedOrUnmatchedStatements(final String body, final String message) {
        final LitmusException e = error("RMA t\n" + body);
        assertTrue(e.getMessage().contains(message.trim()), e.getMessage());
    }

    @Test
    void shouldRejectAnUnknownAccumulateOrdering() {
        assertTrue(error("RMA t\naccumulate_ordering = \"rar,wow\"\n{ X@0 = 0; }\nP0 { }").getMessage()
            .contains("accumulate_ordering"));
    }
}
