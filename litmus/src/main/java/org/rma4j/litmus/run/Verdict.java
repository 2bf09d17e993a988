package org.rma4j.litmus.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.rma4j.litmus.model.ModelResult;
import org.rma4j.litmus.model.State;
import org.rma4j.litmus.model.Value;
import org.rma4j.litmus.syntax.Condition;
import org.rma4j.litmus.syntax.Program;

/**
 * The comparison of observed with allowed states (coreRMA section 6): a forbidden state observed is
 * a violation (the run fails); an allowed state never observed is reported, not a failure.
 *
 * @param program   the test.
 * @param allowed   the model's allowed states over {@link Program#stateLocations()}.
 * @param histogram the observed states.
 */
public record Verdict(Program program, ModelResult allowed, Histogram histogram) {
    /** litmus7's summary of how often the condition's proposition held. */
    public enum Observation {
        NEVER("Never"), SOMETIMES("Sometimes"), ALWAYS("Always");

        private final String text;

        Observation(final String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    /** @return observed states no allowed state covers. */
    public List<State> forbiddenObserved() {
        final List<State> out = new ArrayList<>();
        for (final State s : histogram.counts().keySet()) {
            if (!allowed.allows(s)) {
                out.add(s);
            }
        }
        return out;
    }

    /** @return allowed states that cover no observed state. */
    public List<State> allowedUnseen() {
        final List<State> out = new ArrayList<>();
        for (final State a : allowed.states()) {
            if (histogram.counts().keySet().stream().noneMatch(a::covers)) {
                out.add(a);
            }
        }
        return out;
    }

    /** @return whether no forbidden state was observed. */
    public boolean passed() {
        return forbiddenObserved().isEmpty();
    }

    /** @return the proposition of the condition ({@code true} if the test has none). */
    public Condition.Prop proposition() {
        return program.condition() == null ? new Condition.Const(true) : program.condition().prop();
    }

    /** @return whether the observed state satisfies the condition's proposition. */
    public boolean satisfies(final State s) {
        return Boolean.TRUE.equals(proposition().evaluate(loc -> s.get(histogram.locations().indexOf(loc)), Value.TOP));
    }

    /** @return runs whose final state satisfies the proposition (litmus7's Positive). */
    public long positive() {
        long p = 0;
        for (final Map.Entry<State, Long> e : histogram.counts().entrySet()) {
            if (satisfies(e.getKey())) {
                p += e.getValue();
            }
        }
        return p;
    }

    /** @return runs whose final state does not satisfy the proposition (litmus7's Negative). */
    public long negative() {
        return histogram.total() - positive();
    }

    public Observation observation() {
        final long p = positive();
        return p == 0 ? Observation.NEVER : p == histogram.total() ? Observation.ALWAYS : Observation.SOMETIMES;
    }

    /** @return whether the condition is validated by the observations (exists: seen; ~exists: not seen; forall: always). */
    public boolean conditionValidated() {
        final Condition.Quantifier q = program.condition() == null
            ? Condition.Quantifier.EXISTS
            : program.condition().quantifier();
        return switch (q) {
            case EXISTS -> positive() > 0;
            case NOT_EXISTS -> positive() == 0;
            case FORALL -> negative() == 0;
        };
    }

    /** @return number of allowed states that were observed. */
    public int allowedObservedCount() {
        return allowed.states().size() - allowedUnseen().size();
    }
}
