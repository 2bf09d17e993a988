package org.rma4j.litmus.model;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.rma4j.litmus.syntax.Program;

/**
 * Which rules a test exercises, in the sense of the coreRMA paper's pivots (section 6.1, Table 6):
 * rule R is exercised when dropping R from the model lets more final states through. For every such
 * rule the analysis keeps one witness: a state allowed without R and forbidden with it.
 *
 * @param allowed   the allowed states under the base options.
 * @param exercised the rules whose removal changes the allowed set, in {@link Rule} order.
 * @param witnesses for each exercised rule, in the same order, a state only its removal allows.
 * @param undefined whether rule C applies (some allowed state has an undefined value).
 */
public record RuleAnalysis(ModelResult allowed, List<Rule> exercised, List<State> witnesses, boolean undefined) {
    /** Rules the analysis tries to drop: every hb rule (INIT and FIN are scaffolding). */
    public static final Set<Rule> ANALYZED = EnumSet.complementOf(EnumSet.of(Rule.INIT, Rule.FIN));

    public RuleAnalysis {
        exercised = List.copyOf(exercised);
        witnesses = List.copyOf(witnesses);
    }

    /**
     * Analyses {@code program} over all registers and variables.
     *
     * @param base the options the test is judged by (IR dropped there is not analysed again).
     */
    public static RuleAnalysis of(final Program program, final ModelOptions base) {
        final List<ActionGraph> graphs = ActionGraph.all(Model.view(program, base));
        final ModelResult allowed = Enumerator.runAll(graphs, base);
        final Set<Rule> present = EnumSet.noneOf(Rule.class);
        graphs.forEach(graph -> present.addAll(present(graph)));
        final List<Rule> exercised = new ArrayList<>();
        final List<State> witnesses = new ArrayList<>();
        for (final Rule rule : ANALYZED) {
            if (!base.enabled(rule) || !present.contains(rule)) {
                continue;
            }
            final ModelResult without = Enumerator.runAll(graphs, base.without(rule));
            for (final State s : without.states()) {
                if (!allowed.states().contains(s)) {
                    exercised.add(rule);
                    witnesses.add(s);
                    break;
                }
            }
        }
        return new RuleAnalysis(allowed, exercised, witnesses, allowed.hasTop());
    }

    /** Rules that can matter for the graph: those with a program-order edge, and the rf / choice rules if there are reads. */
    private static Set<Rule> present(final ActionGraph graph) {
        final EnumSet<Rule> present = EnumSet.noneOf(Rule.class);
        for (final ActionGraph.Edge e : graph.edges) {
            present.add(e.rule());
        }
        boolean atomicRead = false;
        for (final Action a : graph.actions) {
            atomicRead |= a.kind.reads() && a.atomic && a.kind != Action.Kind.FINAL;
        }
        if (atomicRead) {
            present.add(Rule.R1);
            present.add(Rule.R2);
        }
        present.add(Rule.WS);
        present.add(Rule.COH);
        if (graph.epochs.size() > 1) {
            present.add(Rule.LX);
        }
        return present;
    }

    /** @return the labels of the exercised rules, plus C if rule C applies. */
    public List<String> labels() {
        final List<String> labels = new ArrayList<>();
        exercised.forEach(r -> labels.add(r.label()));
        if (undefined) {
            labels.add("C");
        }
        return labels;
    }
}
