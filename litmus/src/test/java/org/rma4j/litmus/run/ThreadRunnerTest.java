package org.rma4j.litmus.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rma4j.litmus.Seeds;
import org.rma4j.litmus.model.Model;
import org.rma4j.litmus.model.ModelOptions;
import org.rma4j.litmus.model.ModelResult;
import org.rma4j.litmus.model.State;
import org.rma4j.litmus.syntax.Loc;
import org.rma4j.litmus.syntax.Program;

/**
 * Every shipped program on rma4j in thread mode: no forbidden state may appear.
 */
class ThreadRunnerTest {
    static final RunConfig QUICK = new RunConfig(300, 7, 50, RunConfig.Mode.THREADS, null);

    static List<String> seedNames() {
        return Seeds.names();
    }

    @ParameterizedTest
    @MethodSource("seedNames")
    void shouldObserveOnlyAllowedStates(final String name) {
        final Program p = Seeds.load(name);
        final Histogram h = new ThreadRunner().run(p, QUICK, null);
        assertEquals(QUICK.iterations(), h.total());
        final Verdict v = new Verdict(p, Model.allowed(p, ModelOptions.stock()), h);
        assertTrue(v.passed(), () -> report(v));
    }

    @Test
    @Timeout(value = 600, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void shouldSeeBothOutcomesOfTheLockCounterAndNeverALostUpdate() {
        // The two outcomes are the two orders of the epochs: P0 first (a = 0, b = 1) or P1 first (a = 1, b = 0).
        // Batches run, each with its own seed for the start delays, until both orders were seen; every
        // state of every batch must be one of the two (X = 2: no epoch overlapped another).
        final Program p = Seeds.load("mpi-lock-counter");
        final State p0First = new State(new long[] {0, 1, 2});
        final State p1First = new State(new long[] {1, 0, 2});
        final Set<State> seen = new HashSet<>();
        for (long seed = 1; !seen.containsAll(Set.of(p0First, p1First)); seed++) {
            final RunConfig batch = new RunConfig(500, seed, QUICK.maxDelaySpins(), RunConfig.Mode.THREADS, null);
            final Histogram h = new ThreadRunner().run(p, batch, null);
            final int a = h.locations().indexOf(Loc.register(0, "a"));
            final int b = h.locations().indexOf(Loc.register(1, "b"));
            final int x = h.locations().indexOf(Loc.memory("X"));
            for (final State s : h.counts().keySet()) {
                final State outcome = new State(new long[] {s.get(a), s.get(b), s.get(x)});
                assertEquals(2, outcome.get(2), "an exclusive lock epoch overlapped another: a, b, X = " + outcome);
                assertTrue(outcome.equals(p0First) || outcome.equals(p1First), "not a serialization: " + outcome);
                seen.add(outcome);
            }
        }
    }

    @Test
    void shouldFailTheVerdictWhenAForbiddenStateIsObserved() {
        final Program p = Seeds.load("core-fig6");
        final ModelResult full = Model.allowed(p, ModelOptions.stock());
        // A model that allows only the first state makes every other observed state forbidden.
        final ModelResult narrow = new ModelResult(full.locations(), List.of(new State(new long[] {1, 0, 0, 0})), 1,
            false);
        final Histogram h = new Histogram(full.locations(),
            Map.of(new State(new long[] {0, 0, 0, 0}), 5L, new State(new long[] {1, 0, 0, 0}), 7L));
        final Verdict v = new Verdict(p, narrow, h);
        assertFalse(v.passed());
        assertEquals(List.of(new State(new long[] {0, 0, 0, 0})), v.forbiddenObserved());
        assertEquals(Verdict.Observation.NEVER, v.observation());
        assertEquals(12, v.negative());
        final String text = report(v);
        assertTrue(text.contains("5 :>0:a=0; 1:b=0; X=0; Y=0;  FORBIDDEN"), text);
        assertTrue(text.contains("Observation core-fig6 Never 0 12"), text);
        assertTrue(text.contains("Verdict core-fig6 FAIL: 1 forbidden state(s) observed in 5 run(s)"), text);
    }

    @Test
    void shouldReportAllowedStatesNeverSeenWithoutFailing() {
        final Program p = Seeds.load("core-fig3b");
        final ModelResult allowed = Model.allowed(p, ModelOptions.stock());
        final Histogram h = new ThreadRunner().run(p, QUICK.withIterations(50), null);
        final Verdict v = new Verdict(p, allowed, h);
        assertTrue(v.passed());
        // rma4j reads the put's origin at the call, so b = 1 (the put reading X after X = 1) never happens.
        assertFalse(v.allowedUnseen().isEmpty());
        assertTrue(report(v).contains("Allowed states never observed (" + v.allowedUnseen().size() + " of "));
    }

    static String report(final Verdict v) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Report.print(v, QUICK, 0.1, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
