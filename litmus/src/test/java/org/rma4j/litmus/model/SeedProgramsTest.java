package org.rma4j.litmus.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.rma4j.litmus.Seeds;
import org.rma4j.litmus.syntax.Atomicity;
import org.rma4j.litmus.syntax.Loc;
import org.rma4j.litmus.syntax.Program;

/**
 * The allowed outputs of the seed papers' litmus programs. coreRMA (OOPSLA 2016) lists outputs
 * over registers; T is written '?'. Where the paper's set holds T, the program is evaluated with
 * non-atomic accesses (the paper's "0 v 1 v T" sets are those of non-atomic actions); where it
 * distinguishes in-order routing, with and without IR.
 */
class SeedProgramsTest {
    /** The allowed register states of a shipped program, as "0:a=1; 1:b=0;" lines. */
    static Set<String> registers(final String name, final boolean ir, final Atomicity atomicity) {
        Program p = Seeds.load(name);
        if (atomicity != Atomicity.DEFAULT) {
            p = p.withDefaultAtomicity(atomicity);
        }
        final ModelResult r = Model.allowedFull(p, ModelOptions.stock().withIr(ir));
        final List<Loc> regs = r.locations().stream().filter(Loc::isRegister).toList();
        return new TreeSet<>(r.project(regs).format());
    }

    static Set<String> registers(final String name, final boolean ir) {
        return registers(name, ir, Atomicity.DEFAULT);
    }

    /** @return states over {@code locations} ("0:a 1:b") from value tuples ("0 1", "? 2"). */
    static Set<String> states(final String locations, final String... tuples) {
        final String[] locs = locations.split(" ");
        final Set<String> out = new TreeSet<>();
        for (final String t : tuples) {
            final String[] values = t.split(" ");
            final StringBuilder s = new StringBuilder();
            for (int i = 0; i < locs.length; i++) {
                s.append(i > 0 ? " " : "").append(locs[i]).append('=').append(values[i]).append(';');
            }
            out.add(s.toString());
        }
        return out;
    }

    @Test
    void figure1AllowsTheThreeScOutcomesAndTheRmaOnlyOne() {
        final Set<String> expected = states("0:a 1:b", "0 0", "1 1", "1 0", "0 1");
        assertEquals(expected, registers("core-fig1", true));
        assertEquals(expected, registers("core-fig1", false));
    }

    @Test
    void figure3aGetOutOfOrder() {
        assertEquals(states("0:a", "0", "1"), registers("core-fig3a", true));
        assertEquals(states("0:a", "0", "1", "?"), registers("core-fig3a", true, Atomicity.NONATOMIC));
    }

    @Test
    void figure3bPutOutOfOrder() {
        assertEquals(states("1:b", "0", "1"), registers("core-fig3b", true));
        assertEquals(states("1:b", "0", "1", "?"), registers("core-fig3b", true, Atomicity.NONATOMIC));
    }

    @Test
    void figure3cPutGetIsOrderedOnlyWithInOrderRouting() {
        assertEquals(states("0:c", "1"), registers("core-fig3c", true));
        assertEquals(states("0:c", "1"), registers("core-fig3c", true, Atomicity.NONATOMIC));
        assertEquals(states("0:c", "0", "1"), registers("core-fig3c", false));
        assertEquals(states("0:c", "0", "1", "?"), registers("core-fig3c", false, Atomicity.NONATOMIC));
    }

    @Test
    void figure3dGetPutMayReadOneEvenWithInOrderRouting() {
        assertEquals(states("0:d", "0", "1"), registers("core-fig3d", true));
        assertEquals(states("0:d", "0", "1", "?"), registers("core-fig3d", true, Atomicity.NONATOMIC));
        assertEquals(states("0:d", "0", "1"), registers("core-fig3d", false));
    }

    @Test
    void figure6WithAndWithoutInOrderRouting() {
        assertEquals(states("0:a 1:b", "0 0", "1 0"), registers("core-fig6", true));
        // DMAPP's unexpected outputs (0,1) and (1,1) are exactly what dropping IR adds.
        assertEquals(states("0:a 1:b", "0 0", "1 0", "0 1", "1 1"), registers("core-fig6", false));
    }

    @Test
    void figure7CasAndRgaHaveOneOutcome() {
        assertEquals(states("0:a 0:b", "0 0"), registers("core-fig7-cas", true));
        assertEquals(states("0:a 0:b 0:c", "1 1 1"), registers("core-fig7-rga", true));
    }

    @Test
    void figure8ExpectedOutputsAndTheVerbsOnesWithoutInOrderRouting() {
        final Set<String> withIr = states("0:a 0:b 1:c", "0 2 1", "1 1 1", "1 0 1", "1 2 2", "1 2 1", "1 0 2");
        assertEquals(withIr, registers("core-fig8", true));
        final Set<String> withoutIr = registers("core-fig8", false);
        assertTrue(withoutIr.containsAll(withIr));
        final Set<String> added = new TreeSet<>(withoutIr);
        added.removeAll(withIr);
        // The three outputs Verbs showed, all with c = 0, plus (0,2,2), which no network showed.
        assertEquals(states("0:a 0:b 1:c", "0 2 0", "1 0 0", "1 2 0", "0 2 2"), added);
    }

    @Test
    void figure9ExpectedOutputs() {
        assertEquals(states("0:a 1:b 1:c", "0 2 2", "1 0 0", "1 2 2", "0 0 0", "2 2 2"), registers("core-fig9", true));
    }

    @Test
    void mpiFigure7FencesAndPassiveSynchronizationDefineTheRead() {
        assertEquals(states("1:v", "0"), registers("mpi-fig7a", true));
        assertEquals(states("0:v", "0"), registers("mpi-fig7b", true));
        assertEquals(states("0:v", "0"), registers("mpi-fig7b", false));
    }

    @Test
    void mpiFigure9InconsistentReadIsUndefinedButFlushPlusBarrierIsNot() {
        assertTrue(registers("mpi-fig9a", true).contains("0:v=?;"));
        assertEquals(states("1:v", "1"), registers("mpi-fig9b", true));
        assertEquals(states("1:v", "1"), registers("mpi-fig9b", false));
    }

    @Test
    void mpiFigure10MissingHappensBeforeIsUndefined() {
        assertEquals(states("1:v", "?", "1", "2"), registers("mpi-fig10", true));
    }

    @Test
    void everySeedHasAnAllowedStateAndStaysWithinTheModelWithoutIr() {
        for (final String name : Seeds.names()) {
            final Program p = Seeds.load(name);
            final ModelResult with = Model.allowed(p, ModelOptions.stock());
            final ModelResult without = Model.allowed(p, ModelOptions.stock().withIr(false));
            assertFalse(with.states().isEmpty(), name);
            assertTrue(without.states().containsAll(with.states()), name + ": dropping IR only adds states");
            assertFalse(with.truncated(), name);
        }
    }

    @Test
    void conditionsOfTheSeedsAreValidatedAsThePapersSay() {
        // Conditions name the RMA-only or forbidden outcome of each figure.
        for (final String name : List.of("core-fig1", "core-fig3a", "core-fig3b", "core-fig3d", "core-fig9")) {
            assertTrue(
                Model.allowed(Seeds.load(name), ModelOptions.stock()).conditionHolds(Seeds.load(name).condition()),
                name);
        }
        for (final String name : Arrays.asList("core-fig3c", "core-fig6", "core-fig7-cas", "core-fig7-rga", "core-fig8",
            "mpi-lock-counter", "mpi-fence-mp", "na-message", "na-put-order", "core-rga-counter")) {
            assertFalse(
                Model.allowed(Seeds.load(name), ModelOptions.stock()).conditionHolds(Seeds.load(name).condition()),
                name);
        }
        for (final String name : List.of("mpi-fig7a", "mpi-fig7b", "mpi-fig9b")) {
            assertTrue(
                Model.allowed(Seeds.load(name), ModelOptions.stock()).conditionHolds(Seeds.load(name).condition()),
                name + ": forall holds");
        }
    }
}
