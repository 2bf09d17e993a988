package org.rma4j.litmus.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.rma4j.litmus.model.ModelOptions;
import org.rma4j.litmus.model.Model;
import org.rma4j.litmus.syntax.Condition;
import org.rma4j.litmus.syntax.Parser;
import org.rma4j.litmus.syntax.Printer;
import org.rma4j.litmus.syntax.Program;

class GeneratorTest {
    private static Generator.Config config(final int procs, final int stmts, final Set<Letter> alphabet,
        final boolean interesting) {
        return new Generator.Config(1, procs, stmts, alphabet, 1, interesting, 0, ModelOptions.stock(), "t");
    }

    private static List<Generator.Generated> generate(final Generator.Config config, final Generator.Stats[] stats) {
        final List<Generator.Generated> out = new ArrayList<>();
        stats[0] = new Generator(config).generate(out::add, null);
        return out;
    }

    @Test
    void shouldCountCandidatesAndDuplicatesUpToProcessRenaming() {
        final Generator.Stats[] stats = new Generator.Stats[1];
        final List<Generator.Generated> all = generate(config(2, 1, Letter.DEFAULT, false), stats);
        // 1 process: read, write, put, get, flush(0) = 5 programs. 2 processes: 8 instances each
        // (put and get to X or Y, flush(0|1)), 64 pairs, of which 8 are symmetric: (64 + 8) / 2 = 36 orbits.
        assertEquals(5 + 64, stats[0].candidates());
        assertEquals(64 - 36, stats[0].duplicates());
        assertEquals(5 + 36, stats[0].kept());
        assertEquals(41, all.size());
        assertEquals(41, all.stream().map(g -> Printer.print(g.program().withName("x"))).distinct().count());
    }

    @Test
    void shouldCountSequencesUpToTheStatementBound() {
        final Generator.Stats[] stats = new Generator.Stats[1];
        generate(
            new Generator.Config(1, 1, 3, Set.of(Letter.READ, Letter.WRITE), 1, false, 0, ModelOptions.stock(), "t"),
            stats);
        assertEquals(2 + 4 + 8, stats[0].candidates());
        assertEquals(14, stats[0].kept());
    }

    @Test
    void shouldKeepOneRepresentativePerOrbit() {
        final int[][] perms = Permutations.of(2);
        final List<List<Instr>> a = List.of(List.of(new Instr(Letter.PUT, 1, 0, 0, -1, -1)),
            List.of(new Instr(Letter.READ, -1, -1, 0, -1, -1)));
        final List<List<Instr>> swapped = List.of(List.of(new Instr(Letter.READ, -1, -1, 0, -1, -1)),
            List.of(new Instr(Letter.PUT, 0, 0, 0, -1, -1)));
        assertEquals(Generator.key(a, perms[1]), Generator.key(swapped, perms[0]));
        assertTrue(Generator.canonical(a, perms) ^ Generator.canonical(swapped, perms));
        assertEquals(6, Permutations.of(3).length);
        assertEquals(List.of(0, 1, 2), java.util.Arrays.stream(Permutations.of(3)[0]).boxed().toList());
    }

    @Test
    void shouldGenerateParsableTestsThatExerciseARuleAndWhoseConditionTheModelValidates() {
        final Generator.Stats[] stats = new Generator.Stats[1];
        final List<Generator.Generated> tests = generate(config(2, 2, Letter.DEFAULT, true), stats);
        assertEquals(stats[0].kept(), tests.size());
        assertTrue(tests.size() > 100, "tests: " + tests.size());
        final Set<String> names = new HashSet<>();
        for (final Generator.Generated g : tests) {
            assertFalse(g.analysis().exercised().isEmpty(), g.program().name());
            assertTrue(names.add(g.program().name()));
            final Program back = Parser.parse(g.program().name() + ".litmus", Printer.print(g.program()));
            assertEquals(Condition.Quantifier.NOT_EXISTS, back.condition().quantifier());
            assertTrue(Model.allowed(back, ModelOptions.stock()).conditionHolds(back.condition()), Printer.print(back));
            assertFalse(Model.allowed(back, ModelOptions.stock().without(g.analysis().exercised().getFirst()))
                .conditionHolds(back.condition()), Printer.print(back));
        }
    }

    @Test
    void shouldHonourMaxTestsAndRejectBadBounds() {
        final Generator.Stats[] stats = new Generator.Stats[1];
        final List<Generator.Generated> tests = generate(
            new Generator.Config(2, 2, 2, Letter.DEFAULT, 1, true, 5, ModelOptions.stock(), "t"), stats);
        assertEquals(5, tests.size());
        assertThrows(IllegalArgumentException.class, () -> config(0, 1, Letter.DEFAULT, true));
        assertThrows(IllegalArgumentException.class, () -> Letter.parse("read,teleport"));
        assertEquals(Set.of(Letter.values()), Letter.parse("all"));
    }

    @Test
    void shouldSkipProgramsTheCheckerRejects() {
        final Generator.Stats[] stats = new Generator.Stats[1];
        generate(
            new Generator.Config(2, 2, 1, Set.of(Letter.PUT, Letter.FENCE), 1, false, 0, ModelOptions.stock(), "t"),
            stats);
        // A put before any fence, in a program with fences, is outside every access epoch; so is a lone fence
        // against a put (collectives differ).
        assertTrue(stats[0].invalid() > 0);
    }
}
