package org.rma4j.litmus.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import org.rma4j.litmus.syntax.Condition;
import org.rma4j.litmus.syntax.Loc;
import org.rma4j.litmus.syntax.Program;

/**
 * An execution of a litmus program drawn as a Graphviz graph, as herd7 draws its executions: the
 * actions of each process in a cluster in program order (po), the initial writes on top, reads-from
 * edges (rf), and the hb edges of the synchronization and ordering rules, each labelled with its rule.
 * For an allowed outcome the graph is one execution that produces it. For a forbidden outcome it is
 * an execution that produces it once one rule is dropped, with that rule's edges and the hb cycle
 * they close drawn in bold red: the reason the model rules the outcome out.
 */
public final class ExecutionGraph {
    /**
     * @param dot         the Graphviz source.
     * @param allowed     whether the outcome is allowed.
     * @param rule        for a forbidden outcome, the rule that rules it out (null if no single rule does,
     *                    or the outcome is allowed).
     * @param explanation one line: the outcome and why.
     */
    public record Picture(String dot, boolean allowed, Rule rule, String explanation) {
    }

    private ExecutionGraph() {
    }

    /**
     * @param outcome a proposition over the program's locations (e.g. its condition's); the picture
     *                shows an execution whose final state satisfies it.
     */
    public static Picture of(final Program program, final ModelOptions options, final Condition.Prop outcome) {
        final List<ActionGraph> graphs = ActionGraph.all(Model.view(program, options));
        for (final ActionGraph g : graphs) {
            final Enumerator.Witness w = Enumerator.find(g, options, satisfies(g, outcome));
            if (w != null) {
                final String why = "allowed: an execution with " + outcome;
                return new Picture(ExecutionDot.of(program, w, null, List.of(), why), true, null, why);
            }
        }
        for (final Rule rule : RuleAnalysis.ANALYZED) {
            if (!options.enabled(rule)) {
                continue;
            }
            for (final ActionGraph g : graphs) {
                final Enumerator.Witness w = Enumerator.find(g, options.without(rule), satisfies(g, outcome));
                if (w != null) {
                    final Violation v = violation(w, options.without(rule), ruleEdges(w, rule));
                    final String why = "forbidden by " + rule.label() + " (" + rule.source() + "): " + v.why();
                    return new Picture(ExecutionDot.of(program, w, rule, v.edges(), why), false, rule, why);
                }
            }
        }
        final String why = "forbidden: no execution gives " + outcome + ", even without any one rule";
        return new Picture("digraph G {\n  label=\"" + ExecutionDot.escape(program.name() + ": " + why) + "\";\n}\n",
            false, null, why);
    }

    private static Predicate<State> satisfies(final ActionGraph g, final Condition.Prop outcome) {
        final List<Loc> locations = List.copyOf(g.stateSources.keySet());
        return state -> Boolean.TRUE.equals(outcome.evaluate(loc -> state.get(locations.indexOf(loc)), Value.TOP));
    }

    /** The edges rule {@code rule} would add to the witness execution. */
    static List<int[]> ruleEdges(final Enumerator.Witness w, final Rule rule) {
        final ActionGraph g = w.graph();
        final List<int[]> out = new ArrayList<>();
        for (final ActionGraph.Edge e : g.edges) {
            if (e.rule() == rule) {
                out.add(new int[] {e.from(), e.to()});
            }
        }
        for (final int r : g.readers) {
            final int w1 = w.rf()[r];
            if (w1 < 0 || !g.actions.get(r).atomic || !g.actions.get(w1).atomic) {
                continue;
            }
            if (rule == Rule.R2) {
                out.add(new int[] {w1, r});
            }
            if (rule == Rule.R1 || rule == Rule.COH) {
                for (final int w2 : g.writers.get(g.actions.get(r).loc)) {
                    if (w2 != w1 && w2 != r && w.hb().has(w1, w2)) {
                        out.add(rule == Rule.R1 ? new int[] {r, w2} : new int[] {w2, r});
                    }
                }
            }
        }
        return out;
    }

    /** What the rule's edges break in the witness: an hb cycle, or a read of an hb-overwritten write (COH). */
    private record Violation(List<int[]> edges, String why) {
    }

    private static Violation violation(final Enumerator.Witness w, final ModelOptions without,
        final List<int[]> ruleEdges) {
        final BitRelation hb = w.hb().copy();
        for (final int[] e : ruleEdges) {
            hb.addClosed(e[0], e[1]);
        }
        final Map<Integer, List<Integer>> next = immediateEdges(w, without, ruleEdges);
        if (hb.reflexive()) {
            for (final int[] edge : ruleEdges) {
                if (hb.has(edge[1], edge[0])) {
                    final List<int[]> cycle = new ArrayList<>();
                    cycle.add(edge);
                    cycle.addAll(path(next, hb, edge[1], edge[0]));
                    return new Violation(cycle, "its edge closes an hb cycle of " + cycle.size() + " edges");
                }
            }
            return new Violation(ruleEdges, "its edges close an hb cycle");
        }
        final Violation coherence = coherence(w, hb, next);
        return coherence != null ? coherence : new Violation(ruleEdges, "its edges make this execution inconsistent");
    }

    /**
     * @return the immediate edges a cycle may be drawn with: the enabled rules' edges, the rule's own, rf
     *         edges inside hb, and fr edges (a read before a write of its location that hb-follows it).
     */
    private static Map<Integer, List<Integer>> immediateEdges(final Enumerator.Witness w, final ModelOptions without,
        final List<int[]> ruleEdges) {
        final ActionGraph g = w.graph();
        final Map<Integer, List<Integer>> next = new HashMap<>();
        for (final ActionGraph.Edge e : g.edges) {
            if (without.enabled(e.rule())) {
                next.computeIfAbsent(e.from(), k -> new ArrayList<>()).add(e.to());
            }
        }
        for (final int[] e : ruleEdges) {
            next.computeIfAbsent(e[0], k -> new ArrayList<>()).add(e[1]);
        }
        for (final int r : g.readers) {
            final int w1 = w.rf()[r];
            if (w1 < 0) {
                continue;
            }
            if (w.hb().has(w1, r)) {
                next.computeIfAbsent(w1, k -> new ArrayList<>()).add(r);
            }
            for (final int w2 : g.writers.get(g.actions.get(r).loc)) {
                if (w2 != w1 && w2 != r && w.hb().has(r, w2)) {
                    next.computeIfAbsent(r, k -> new ArrayList<>()).add(w2);
                }
            }
        }
        return next;
    }

    /** @return a read of a write that another one overwrote before it under {@code hb} (COH), or null. */
    private static Violation coherence(final Enumerator.Witness w, final BitRelation hb,
        final Map<Integer, List<Integer>> next) {
        final ActionGraph g = w.graph();
        for (final int r : g.readers) {
            final int w1 = w.rf()[r];
            if (w1 < 0) {
                continue;
            }
            for (final int w2 : g.writers.get(g.actions.get(r).loc)) {
                if (w2 != w1 && w2 != r && hb.has(w1, w2) && hb.has(w2, r)) {
                    final List<int[]> edges = new ArrayList<>();
                    edges.add(new int[] {w1, r});
                    edges.addAll(path(next, hb, w1, w2));
                    edges.addAll(path(next, hb, w2, r));
                    return new Violation(edges,
                        "with its edges the read a" + r + " of "
                            + g.program.variables().get(g.actions.get(r).loc).name()
                            + " would read a write that another one" + " overwrote before it (COH)");
                }
            }
        }
        return null;
    }

    /** Shortest path from {@code from} to {@code to} over immediate edges inside hb; the hb edge itself if none. */
    private static List<int[]> path(final Map<Integer, List<Integer>> next, final BitRelation hb, final int from,
        final int to) {
        final Map<Integer, Integer> parent = new HashMap<>();
        final ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(from));
        parent.put(from, from);
        while (!queue.isEmpty()) {
            final int x = queue.poll();
            if (x == to) {
                final List<int[]> path = new ArrayList<>();
                for (int y = to; y != from; y = parent.get(y)) {
                    path.addFirst(new int[] {parent.get(y), y});
                }
                return path;
            }
            for (final int y : next.getOrDefault(x, List.of())) {
                if (!parent.containsKey(y) && (y == to || hb.has(y, to))) {
                    parent.put(y, x);
                    queue.add(y);
                }
            }
        }
        return List.of(new int[] {from, to});
    }
}
