package org.rma4j.litmus.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rma4j.litmus.Seeds;
import org.rma4j.litmus.syntax.Loc;
import org.rma4j.litmus.syntax.Parser;
import org.rma4j.litmus.syntax.Program;

/**
 * Rule AO (MPI-3 eq. (26), MPI-3.1 section 11.7.2: accumulate_ordering) and the store-buffering case
 * through accumulate + flush + fetch_and_op NO_OP, which MPI allows.
 */
class AccumulateOrderingTest {
    private static Set<String> allowed(final Program p, final ModelOptions options, final String... locations) {
        final ModelResult r = Model.allowedFull(p, options);
        final List<Loc> locs = r.locations().stream().filter(l -> List.of(locations).contains(l.toString())).toList();
        return new TreeSet<>(r.project(locs).format());
    }

    /** Two accumulates of P0 to X (own window or P1's), then a flush and P0's read / P1's final value. */
    private static Program twoAccumulates(final String ordering, final String first, final String second,
        final boolean self) {
        final String owner = self ? "0" : "1";
        return Parser.parse("t.litmus", """
            RMA ao
            accumulate_ordering = "%s"
            { X@%s = 0; A@0 = 1; B@0 = 2; R@0 = 0; S@0 = 0; }
            P0 { %s; %s; flush(%s); }
            P1 { }
            """.formatted(ordering, owner, first, second, owner));
    }

    @ParameterizedTest(name = "{0} self={1}")
    @CsvSource({"waw, true", "waw, false", "none, true", "none, false"})
    void shouldKeepTwoWritesInOrderOnlyUnderWaw(final String ordering, final boolean self) {
        final Program p = twoAccumulates(ordering, "acc(X, A, replace)", "acc(X, B, replace)", self);
        final Set<String> expected = ordering.equals("waw") ? Set.of("X=2;") : Set.of("X=1;", "X=2;");
        // IR would order the remote pair by itself; the MPI view shows the accumulate ordering alone.
        assertEquals(expected, allowed(p, ModelOptions.mpi(), "X"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"raw, 1", "none, 0"})
    void shouldKeepAReadAfterAWriteInOrderOnlyUnderRaw(final String ordering, final int readsNewOnly) {
        final Program p = twoAccumulates(ordering, "acc(X, A, replace)", "R = rga(X, R, no_op)", true);
        final Set<String> expected = readsNewOnly == 1 ? Set.of("R=1;") : Set.of("R=0;", "R=1;");
        assertEquals(expected, allowed(p, ModelOptions.mpi(), "R"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"war, 1", "none, 0"})
    void shouldKeepAWriteAfterAReadInOrderOnlyUnderWar(final String ordering, final int readsOldOnly) {
        final Program p = twoAccumulates(ordering, "R = rga(X, R, no_op)", "acc(X, A, replace)", true);
        final Set<String> expected = readsOldOnly == 1 ? Set.of("R=0;") : Set.of("R=0;", "R=1;");
        assertEquals(expected, allowed(p, ModelOptions.mpi(), "R"));
    }

    @Test
    void shouldKeepTwoReadsInOrderOnlyUnderRar() {
        // P1 writes X twice (in order, waw); P0 reads it twice: rar forbids seeing the new value first.
        final String text = """
            RMA rar
            accumulate_ordering = "%s"
            { X@1 = 0; R@0 = 0; S@0 = 0; A@1 = 1; B@1 = 2; }
            P0 { R = rga(X, R, no_op); S = rga(X, S, no_op); }
            P1 { acc(X, A, replace); acc(X, B, replace); }
            """;
        final Program ordered = Parser.parse("t.litmus", text.formatted("rar,waw"));
        final Program unordered = Parser.parse("t.litmus", text.formatted("waw"));
        assertEquals(Set.of("R=0; S=0;", "R=0; S=1;", "R=0; S=2;", "R=1; S=1;", "R=1; S=2;", "R=2; S=2;"),
            allowed(ordered, ModelOptions.mpi(), "R", "S"));
        assertEquals(true, allowed(unordered, ModelOptions.mpi(), "R", "S").contains("R=2; S=1;"));
    }

    @Test
    void shouldKeepOwnAccumulatesInOrderWithoutIr() {
        // IR orders only dst != src (coreRMA Fig. 4); AO orders a process's accumulates to itself.
        final Program p = Seeds.load("acc-order-self");
        assertEquals(Set.of("0:r=2; X=2;"), allowed(p, ModelOptions.stock(), "0:r", "X"));
        assertEquals(Set.of("0:r=1; X=1;", "0:r=2; X=2;"),
            allowed(p, ModelOptions.stock().without(Rule.AO), "0:r", "X"));
    }

    @Test
    void shouldNeverSeeTwoThenOneFromOneOrigin() {
        final Program p = Seeds.load("acc-coherence");
        assertEquals(false, allowed(p, ModelOptions.mpi(), "RA", "RB").contains("RA=2; RB=1;"));
        assertEquals(true, allowed(p, ModelOptions.mpi().without(Rule.AO), "RA", "RB").contains("RA=2; RB=1;"));
    }

    @Test
    void shouldAllowStoreBufferingThroughAccumulateFlushAndFetchAndOpUnderMpi() {
        final Program p = Seeds.load("sb-acc-fop");
        // MPI orders nothing across the two locations: (0,0) is allowed.
        assertEquals(Set.of("A=0; B=0;", "A=0; B=1;", "A=1; B=0;", "A=1; B=1;"),
            allowed(p, ModelOptions.mpi(), "A", "B"));
        // So is it by coreRMA's rules without R1: NO_OP is a read and adds no write for WS to order.
        assertEquals(true, allowed(p, ModelOptions.stock().without(Rule.R1), "A", "B").contains("A=0; B=0;"));
        // rma4j's accumulates are sequentially consistent atomics: R1 forbids it.
        assertEquals(Set.of("A=0; B=1;", "A=1; B=0;", "A=1; B=1;"), allowed(p, ModelOptions.stock(), "A", "B"));
    }
}
