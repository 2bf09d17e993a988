package org.rma4j.litmus.syntax;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.rma4j.litmus.Seeds;

class ParserTest {
    private static final String FIG6 = """
        RMA fig6
        "doc string"
        { X@0 = 1; Y@1 = 0; }
         P0     | P1            ;
         a = X  | put(X@0, Y)   ;
                | Y = get(X@0)  ;
                | flush(0)      ;
                | b = Y         ;
        exists (0:a=0 /\\ 1:b=1)
        """;

    static List<String> seedNames() {
        return Seeds.names();
    }

    @Test
    void shouldParseColumnForm() {
        final Program p = Parser.parse("fig6.litmus", FIG6);
        assertEquals("fig6", p.name());
        assertEquals("doc string", p.doc());
        assertEquals(2, p.processCount());
        assertEquals(1, p.processes().get(0).size());
        assertEquals(4, p.processes().get(1).size());
        assertEquals(new Stmt.Put("X", "Y", Atomicity.DEFAULT, new SourcePos("fig6.litmus", 5, 11)),
            p.processes().get(1).get(0));
        assertInstanceOf(Stmt.Get.class, p.processes().get(1).get(1));
        assertEquals(new Stmt.Sync(Stmt.SyncKind.FLUSH, 0, true, new SourcePos("fig6.litmus", 7, 11)),
            p.processes().get(1).get(2));
        assertEquals(Condition.Quantifier.EXISTS, p.condition().quantifier());
        assertEquals("exists (0:a=0 /\\ 1:b=1)", p.condition().toString());
        assertEquals(List.of(Loc.register(0, "a"), Loc.register(1, "b"), Loc.memory("X"), Loc.memory("Y")),
            p.stateLocations());
        assertEquals(Atomicity.ATOMIC, p.defaultAtomicity());
    }

    @Test
    void shouldParseBlockFormLikeColumnForm() {
        final Program blocks = Parser.parse("b.litmus", """
            RMA fig6 "doc string"
            { X@0 = 1; Y@1 = 0; }
            P0 { a = X; }
            P1: { put(X, Y); Y = get(X^P0); flush(P0); b = Y }
            exists (0:a=0 /\\ 1:b=1)
            """);
        assertEquals(Printer.print(Parser.parse("fig6.litmus", FIG6)), Printer.print(blocks));
    }

    @Test
    void shouldParseEveryStatementKind() {
        final Program p = Parser.parse("all.litmus", """
            RMA all-kinds
            atomicity = nonatomic
            { X@0 = 0; A@0 = 1; B@0 = 2; Y@1 = 5; }
            P0 {
              lock_all; r = X; X = r + 2 - 1; at put(Y@1, A); na A = get(Y); X = rga(Y, A); B = rga(Y, A, max);
              X = cas(Y, A, B); flush(1); flush_all; flush_local(1); flush_local_all(); win_sync;
              put_notify(Y, A, 3); barrier; unlock_all;
            }
            P1 { wait(0, 3); lock_all; unlock_all; barrier; lock(0, shared); unlock(0); lock(0); unlock(0) }
            forall (~(0:r=1) \\/ X=2 /\\ true)
            """);
        final List<Stmt> s = p.processes().get(0);
        assertEquals(Atomicity.NONATOMIC, p.defaultAtomicity());
        assertEquals(
            new Expr.Binary(new Expr.Binary(new Expr.Reg("r"), true, new Expr.Const(2)), false, new Expr.Const(1)),
            ((Stmt.LocalWrite)s.get(2)).value());
        assertEquals(Atomicity.ATOMIC, ((Stmt.Put)s.get(3)).atomicity());
        assertEquals(Atomicity.NONATOMIC, ((Stmt.Get)s.get(4)).atomicity());
        assertEquals(AccOp.SUM, ((Stmt.Rga)s.get(5)).op());
        assertEquals(AccOp.MAX, ((Stmt.Rga)s.get(6)).op());
        assertEquals(new Stmt.Cas("X", "Y", "A", "B", Atomicity.DEFAULT, s.get(7).pos()), s.get(7));
        assertEquals(3, ((Stmt.PutNotify)s.get(13)).tag());
        assertEquals(new Stmt.Wait(0, 3, 1, p.processes().get(1).get(0).pos()), p.processes().get(1).get(0));
        assertEquals(false, ((Stmt.Sync)p.processes().get(1).get(4)).exclusive());
        assertEquals(true, ((Stmt.Sync)p.processes().get(1).get(6)).exclusive());
        assertEquals(Condition.Quantifier.FORALL, p.condition().quantifier());
        assertTrue(p.hasExplicitEpochs());
    }

    @Test
    void shouldAcceptCommentsLocationsAndNoCondition() {
        final Program p = Parser.parse("c.litmus", """
            RMA c (* a (* nested *) comment *)
            { X@0 = 0; } // line comment
            P0 ;
            r = X ;
            locations [X; 0:r;]
            """);
        assertNull(p.condition());
        assertEquals(List.of(Loc.memory("X"), Loc.register(0, "r")), p.stateLocations());
    }

    @ParameterizedTest
    @MethodSource("seedNames")
    void shouldPrintEverySeedSoThatItParsesBack(final String name) {
        final Program p = Seeds.load(name);
        final String printed = Printer.print(p);
        assertEquals(printed, Printer.print(Parser.parse("printed.litmus", printed)), printed);
    }

    /** Each malformed input with the line, column and a fragment of the message it must report. */
    @ParameterizedTest
    @CsvSource(delimiter = '#', quoteCharacter = '"', textBlock = """
        RMA t\\n{ X@0 = 0; }\\nP0 ;\\nr = X\\n                       # 5 # 1  # after the statement, found end of file
        RMA t\\n{ X@0 = 0; }\\nP0 ;\\nr = Y ;\\n                     # 4 # 5  # unknown variable Y
        RMA t\\n{ X@0 = 0; Y@1 = 0; }\\nP0 | P1 ;\\nr = Y | ;\\n     # 4 # 5  # must use a variable of process 0
        RMA t\\n{ X@0 = 0; }\\nP0 ;\\nput(X@1, X) ;\\n               # 4 # 7  # process 1 does not exist
        RMA t\\n{ X@0 = 0; }\\nP0 ;\\nfoo(1) ;\\n                    # 4 # 1  # unknown statement 'foo'
        RMA t\\n{ X@0 = 0; }\\nP0 ;\\nr = X ;\\nexists (0:q=1)\\n    # 5 # 11 # process 0 has no register q
        RMA t\\n{ X@0 = 0; }\\nP0 ;\\nr = X ;\\nexists (0:r=1 /\\\\)\\n # 5 # 17 # expected a register
        RMA t\\n{ X@0 = 0; }\\nP0 ;\\nr = X ;\\nexists 0:r=1 )\\n    # 5 # 14 # expected end of file
        RMA t\\n{ X@0 = 0; X@0 = 1; }\\nP0 ;\\n                      # 2 # 12 # declared twice
        RMA t\\n{ X@0 = 0; }\\nP1 ;\\n                               # 3 # 1  # expected process P0
        RMA t\\n{ X@0 = 0; }\\nP0 ;\\nX = 1 | X = 2 ;\\n             # 4 # 7  # more columns
        RMA t\\n{ X@0 = 0; }\\nP0 ;\\nX = 1 $ ;\\n                   # 4 # 7  # unexpected character '$'
        RMA t\\n{ X@0 = 0; }\\nP0 ;\\nlock(0, weird) ;\\n            # 4 # 9  # 'shared' or 'exclusive'
        RMA t\\n{ X@0 = 0; }\\nP0 ;\\nX = rga(X, X, avg) ;\\n        # 4 # 15 # unknown accumulate op
        RMA t\\n(* open comment\\n{ X@0 = 0; }\\n                     # 2 # 1  # unterminated comment
        { X@0 = 0; }\\n                                              # 1 # 1  # expected 'RMA'
        RMA t\\n{ X@0 = 0 Y@0 = 1; }\\n                               # 2 # 11 # expected ';' or '}' in the init block
        """)
    void shouldReportErrorsWithFileLineAndColumn(final String text, final int line, final int column,
        final String message) {
        final LitmusException e = assertThrows(LitmusException.class,
            () -> Parser.parse("bad.litmus", text.replace("\\n", "\n").replace("\\\\", "\\")));
        assertEquals(new SourcePos("bad.litmus", line, column), e.pos(), e.getMessage());
        assertTrue(e.getMessage().startsWith("bad.litmus:" + line + ":" + column + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
