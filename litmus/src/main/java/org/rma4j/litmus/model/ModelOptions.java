package org.rma4j.litmus.model;

import java.util.EnumSet;
import java.util.Set;

/**
 * Which rules the model applies. {@link #stock()} is every rule, in-order routing included (the
 * coreRMA stock model; rma4j performs operations at the call, so IR holds for it). Dropping IR gives
 * the MPI view ("put and get within an epoch are unordered"); dropping any other rule is for
 * finding which rules a test exercises.
 *
 * @param disabled      rules left out.
 * @param maxExecutions stop after this many consistent executions (0: no limit); a result that hit
 *                      the limit says so.
 */
public record ModelOptions(Set<Rule> disabled, long maxExecutions) {
    public ModelOptions {
        disabled = disabled.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(disabled));
    }

    /** @return every rule. */
    public static ModelOptions stock() {
        return new ModelOptions(Set.of(), 0);
    }

    /** @return these options without rule {@code rule}. */
    public ModelOptions without(final Rule rule) {
        final EnumSet<Rule> set = disabled.isEmpty() ? EnumSet.noneOf(Rule.class) : EnumSet.copyOf(disabled);
        set.add(rule);
        return new ModelOptions(set, maxExecutions);
    }

    /** @return these options with or without in-order routing. */
    public ModelOptions withIr(final boolean ir) {
        if (ir) {
            final EnumSet<Rule> set = disabled.isEmpty() ? EnumSet.noneOf(Rule.class) : EnumSet.copyOf(disabled);
            set.remove(Rule.IR);
            return new ModelOptions(set, maxExecutions);
        }
        return without(Rule.IR);
    }

    /** @return whether {@code rule} applies. */
    public boolean enabled(final Rule rule) {
        return !disabled.contains(rule);
    }
}
