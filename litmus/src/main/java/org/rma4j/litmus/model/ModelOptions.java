package org.rma4j.litmus.model;

import java.util.EnumSet;
import java.util.Set;

/**
 * Which rules the model applies. {@link #stock()} is every rule, in-order routing included (the
 * coreRMA stock model; rma4j performs operations at the call, so IR holds for it). Dropping IR gives
 * the MPI view ("put and get within an epoch are unordered"); dropping any other rule is for
 * finding which rules a test exercises.
 *
 * <p>{@link #mpi()} is the MPI standard's view: no IR (MPI-3.1 section 11.7.2: "put and get within an
 * epoch are unordered"), no R1 (coreRMA's rule; no equation of the MPI-3 paper orders a read before
 * the writes that follow the one it read), no DS (rma4j's volatile direct accesses), and MPI's
 * atomicity: accumulates (acc, rga, cas) are element-wise atomic (section 11.7.1), every other access
 * is not, so a race with it is undefined (T).
 *
 * @param disabled      rules left out.
 * @param maxExecutions stop after this many consistent executions (0: no limit); a result that hit
 *                      the limit says so.
 * @param mpiAtomicity  whether only accumulates are atomic, whatever the file says (the MPI view).
 */
public record ModelOptions(Set<Rule> disabled, long maxExecutions, boolean mpiAtomicity) {
    /** The rules {@link #mpi()} drops: coreRMA's and rma4j's guarantees that MPI does not make. */
    public static final Set<Rule> NOT_MPI = Set.of(Rule.IR, Rule.R1, Rule.DS, Rule.LB);

    public ModelOptions {
        disabled = disabled.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(disabled));
    }

    public ModelOptions(final Set<Rule> disabled, final long maxExecutions) {
        this(disabled, maxExecutions, false);
    }

    /** @return every rule. */
    public static ModelOptions stock() {
        return new ModelOptions(Set.of(), 0);
    }

    /** @return the MPI standard's allowed set: without {@link #NOT_MPI}, with MPI's atomicity. */
    public static ModelOptions mpi() {
        return new ModelOptions(NOT_MPI, 0, true);
    }

    /** @return these options with MPI's view added. */
    public ModelOptions withMpi() {
        final EnumSet<Rule> set = disabled.isEmpty() ? EnumSet.noneOf(Rule.class) : EnumSet.copyOf(disabled);
        set.addAll(NOT_MPI);
        return new ModelOptions(set, maxExecutions, true);
    }

    /** @return these options without rule {@code rule}. */
    public ModelOptions without(final Rule rule) {
        final EnumSet<Rule> set = disabled.isEmpty() ? EnumSet.noneOf(Rule.class) : EnumSet.copyOf(disabled);
        set.add(rule);
        return new ModelOptions(set, maxExecutions, mpiAtomicity);
    }

    /** @return these options with or without in-order routing. */
    public ModelOptions withIr(final boolean ir) {
        if (ir) {
            final EnumSet<Rule> set = disabled.isEmpty() ? EnumSet.noneOf(Rule.class) : EnumSet.copyOf(disabled);
            set.remove(Rule.IR);
            return new ModelOptions(set, maxExecutions, mpiAtomicity);
        }
        return without(Rule.IR);
    }

    /** @return whether {@code rule} applies. */
    public boolean enabled(final Rule rule) {
        return !disabled.contains(rule);
    }
}
