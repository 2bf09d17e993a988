package org.rma4j.litmus.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.rma4j.litmus.Seeds;
import org.rma4j.litmus.syntax.Loc;
import org.rma4j.litmus.syntax.Parser;
import org.rma4j.litmus.syntax.Program;

/**
 * The MPI-3 synchronization rules and the decisions of this model, one behaviour each.
 */
class MpiRulesTest {
    private static Set<String> allowed(final Program p, final ModelOptions options, final String... locations) {
        final ModelResult r = Model.allowedFull(p, options);
        final List<Loc> locs = r.locations().stream().filter(l -> List.of(locations).contains(l.toString())).toList();
        return new TreeSet<>(r.project(locs).format());
    }

    private static Program parse(final String text) {
        return Parser.parse("t.litmus", text);
    }

    @Test
    void lockExclusionSerializesReadModifyWriteEpochs() {
        final Program p = Seeds.load("mpi-lock-counter");
        assertEquals(Set.of("X=2;"), allowed(p, ModelOptions.stock(), "X"));
        assertEquals(Set.of("X=1;", "X=2;"), allowed(p, ModelOptions.stock().without(Rule.LX), "X"));
    }

    @Test
    void sharedLocksDoNotExcludeEachOther() {
        final Program p = parse("""
            RMA shared
            { X@0 = 0; A@0 = 0; B@1 = 0; }
            P0 { lock(0, shared); A = get(X); flush(0); a = A; A = a + 1; put(X, A); unlock(0); }
            P1 { lock(0, shared); B = get(X); flush(0); b = B; B = b + 1; put(X, B); unlock(0); }
            """);
        assertEquals(Set.of("X=1;", "X=2;"), allowed(p, ModelOptions.stock(), "X"));
    }

    @Test
    void notifiedPutIsVisibleAfterTheWaitAndOrdersEarlierPutsOnlyUnderIr() {
        final Program p = Seeds.load("na-message");
        assertEquals(Set.of("1:x=1; 1:y=1;"), allowed(p, ModelOptions.stock(), "1:x", "1:y"));
        assertEquals(Set.of("1:x=1; 1:y=0;", "1:x=1; 1:y=1;"),
            allowed(p, ModelOptions.stock().withIr(false), "1:x", "1:y"));
        assertEquals(Set.of("1:x=0;", "1:x=1;"), allowed(p, ModelOptions.stock().without(Rule.NA), "1:x"));
    }

    @Test
    void shortNotifiedPutIsOrderedBeforeALaterPutToTheSameTargetUnderIr() {
        final Program p = Seeds.load("na-put-order");
        assertEquals(Set.of("1:x=2;"), allowed(p, ModelOptions.stock(), "1:x"));
        assertEquals(Set.of("1:x=1;", "1:x=2;"), allowed(p, ModelOptions.stock().withIr(false), "1:x"));
    }

    @Test
    void fenceCompletesPutsAndBarrierDoesNot() {
        assertEquals(Set.of("1:x=1;"), allowed(Seeds.load("mpi-fence-mp"), ModelOptions.stock(), "1:x"));
        final Program barrier = parse("""
            RMA barrier-mp
            { A@0 = 1; X@1 = 0; }
            P0 { lock_all; put(X, A); barrier; unlock_all; }
            P1 { barrier; x = X; }
            """);
        assertEquals(Set.of("1:x=0;", "1:x=1;"), allowed(barrier, ModelOptions.stock(), "1:x"));
        final Program flushed = parse("""
            RMA flush-barrier-mp
            { A@0 = 1; X@1 = 0; }
            P0 { lock_all; put(X, A); flush(1); barrier; unlock_all; }
            P1 { barrier; x = X; }
            """);
        assertEquals(Set.of("1:x=1;"), allowed(flushed, ModelOptions.stock(), "1:x"));
    }

    @Test
    void flushLocalCompletesAGetButNotAPutAtItsTarget() {
        final Program get = parse("""
            RMA fl-get
            { X@0 = 0; Y@1 = 5; }
            P0 { X = get(Y); flush_local(1); x = X; }
            P1 { }
            """);
        assertEquals(Set.of("0:x=5;"), allowed(get, ModelOptions.stock(), "0:x"));
        final Program put = parse("""
            RMA fl-put
            { A@0 = 1; X@1 = 0; }
            P0 { put(X, A); flush_local(1); barrier; }
            P1 { barrier; x = X; }
            """);
        assertEquals(Set.of("1:x=0;", "1:x=1;"), allowed(put, ModelOptions.stock(), "1:x"));
    }

    @Test
    void unlockCompletesAtTheTarget() {
        final Program p = parse("""
            RMA unlock-mp
            { A@0 = 1; X@1 = 0; }
            P0 { lock(1); put(X, A); unlock(1); barrier; }
            P1 { barrier; x = X; }
            """);
        assertEquals(Set.of("1:x=1;"), allowed(p, ModelOptions.stock(), "1:x"));
    }

    @Test
    void coherenceForbidsReadingAnOverwrittenValue() {
        final Program p = parse("""
            RMA coh
            atomicity = nonatomic
            { X@0 = 0; }
            P0 { X = 1; X = 2; x = X; }
            """);
        assertEquals(Set.of("0:x=2;"), allowed(p, ModelOptions.stock(), "0:x"));
        assertEquals(Set.of("0:x=0;", "0:x=1;", "0:x=2;"), allowed(p, ModelOptions.stock().without(Rule.COH), "0:x"));
    }

    @Test
    void undefinedValuesPropagateThroughGetsAndRegisters() {
        final Program p = parse("""
            RMA top
            atomicity = nonatomic
            { X@0 = 0; Y@1 = 0; }
            P0 { X = 1; }
            P1 { Y = get(X); flush(0); r = Y; }
            """);
        final ModelResult r = Model.allowedFull(p, ModelOptions.stock());
        assertTrue(r.hasTop());
        assertEquals(Set.of("1:r=0;", "1:r=1;", "1:r=?;"), allowed(p, ModelOptions.stock(), "1:r"));
        // Atomic accesses never conflict.
        assertEquals(Set.of("1:r=0;", "1:r=1;"),
            allowed(p.withDefaultAtomicity(org.rma4j.litmus.syntax.Atomicity.ATOMIC), ModelOptions.stock(), "1:r"));
    }

    @Test
    void casSwapsOnlyOnEqualityAndRgaAppliesItsOp() {
        final Program p = parse("""
            RMA cas
            { C@0 = 7; S@0 = 9; R@0 = 0; Z@0 = 7; M@0 = 0; V@0 = 3; }
            P0 { R = cas(Z, C, S); flush(0); r = R; M = rga(Z, V, max); flush(0); m = M; }
            """);
        assertEquals(Set.of("0:m=9; 0:r=7; Z=9;"), allowed(p, ModelOptions.stock(), "0:r", "0:m", "Z"));
    }

    @Test
    void aDeadlockingProgramHasNoExecution() {
        final Program p = parse("""
            RMA deadlock
            { X@0 = 0; Y@1 = 0; }
            P0 { wait(1, 1); put_notify(Y, X, 1); }
            P1 { wait(0, 1); put_notify(X, Y, 1); }
            """);
        assertTrue(Model.allowed(p, ModelOptions.stock()).states().isEmpty());
    }

    @Test
    void ruleAnalysisFindsThePivotOfFigure6() {
        final RuleAnalysis a = RuleAnalysis.of(Seeds.load("core-fig6"), ModelOptions.stock());
        assertEquals(List.of(Rule.IR), a.exercised());
        assertFalse(a.allowed().allows(a.witnesses().getFirst()));
        assertTrue(Model.allowedFull(Seeds.load("core-fig6"), ModelOptions.stock().withIr(false))
            .allows(a.witnesses().getFirst()));
        assertTrue(RuleAnalysis.of(Seeds.load("mpi-fig10"), ModelOptions.stock()).labels().contains("C"));
    }

    @Test
    void testSizeCountsActionsAndInitialWritesAsThePaperDoes() {
        assertEquals(9, ActionGraph.of(Seeds.load("core-fig6")).testSize(), "coreRMA: 'The size of the test is 9'");
    }

    @Test
    void maxExecutionsTruncates() {
        final ModelResult r = Model.allowed(Seeds.load("core-fig1"), new ModelOptions(Set.of(), 1));
        assertTrue(r.truncated());
        assertEquals(1, r.executions());
    }
}
