package org.rma4j.litmus.model;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import org.rma4j.litmus.syntax.Condition;
import org.rma4j.litmus.syntax.Loc;

/**
 * The allowed final states of a program under some {@link ModelOptions}.
 *
 * @param locations  what each state's values are.
 * @param states     the allowed states, sorted, T included where rule C applies.
 * @param executions consistent executions enumerated.
 * @param truncated  whether the enumeration stopped at {@link ModelOptions#maxExecutions()}.
 */
public record ModelResult(List<Loc> locations, List<State> states, long executions, boolean truncated) {
    public ModelResult {
        locations = List.copyOf(locations);
        states = List.copyOf(new TreeSet<>(states));
    }

    /** @return the result restricted to {@code subset} (a sub-list of {@link #locations()}), duplicates merged. */
    public ModelResult project(final List<Loc> subset) {
        final int[] indices = new int[subset.size()];
        for (int i = 0; i < subset.size(); i++) {
            indices[i] = locations.indexOf(subset.get(i));
            if (indices[i] < 0) {
                throw new IllegalArgumentException("no location " + subset.get(i) + " in " + locations);
            }
        }
        final List<State> projected = new ArrayList<>();
        for (final State s : states) {
            projected.add(s.project(indices));
        }
        return new ModelResult(subset, projected, executions, truncated);
    }

    /** @return whether some allowed state covers the concrete {@code observed} state. */
    public boolean allows(final State observed) {
        for (final State s : states) {
            if (s.covers(observed)) {
                return true;
            }
        }
        return false;
    }

    /** @return whether some allowed state has an undefined value (rule C applied). */
    public boolean hasTop() {
        return states.stream().anyMatch(State::hasTop);
    }

    /**
     * herd7-style validation of the condition over the allowed states: exists holds if some state may
     * satisfy the proposition, ~exists if none may, forall if every state must.
     */
    public boolean conditionHolds(final Condition condition) {
        boolean some = false;
        boolean all = true;
        for (final State s : states) {
            final Boolean b = condition.prop().evaluate(loc -> s.get(locations.indexOf(loc)), Value.TOP);
            some |= !Boolean.FALSE.equals(b);
            all &= Boolean.TRUE.equals(b);
        }
        return switch (condition.quantifier()) {
            case EXISTS -> some;
            case NOT_EXISTS -> !some;
            case FORALL -> all;
        };
    }

    /** @return the states as lines {@code 0:a=1; X=2;}. */
    public List<String> format() {
        final List<String> lines = new ArrayList<>();
        for (final State s : states) {
            lines.add(s.format(locations));
        }
        return lines;
    }
}
