package org.rma4j.litmus.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import org.rma4j.litmus.syntax.Condition;
import org.rma4j.litmus.syntax.Loc;
import org.rma4j.litmus.syntax.Printer;
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
    /** Rules drawn as labelled edges (LO, SY, DS and the statements' own PG / GA / CAS follow po; INIT, FIN are scaffolding). */
    private static final Set<Rule> DRAWN = EnumSet.of(Rule.IR, Rule.F1, Rule.F2, Rule.F3, Rule.FE, Rule.BAR, Rule.LK,
        Rule.UL, Rule.LX, Rule.FL, Rule.WSY, Rule.NA, Rule.AO, Rule.PSCW, Rule.LB);

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
                return new Picture(dot(program, w, null, List.of(), why), true, null, why);
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
                    return new Picture(dot(program, w, rule, v.edges(), why), false, rule, why);
                }
            }
        }
        final String why = "forbidden: no execution gives " + outcome + ", even without any one rule";
        return new Picture("digraph G {\n  label=\"" + escape(program.name() + ": " + why) + "\";\n}\n", false, null,
            why);
    }

    private static Predicate<State> satisfies(final ActionGraph g, final Condition.Prop outcome) {
        final List<Loc> locations = List.copyOf(g.stateSources.keySet());
        return state -> Boolean.TRUE.equals(outcome.evaluate(loc -> state.get(locations.indexOf(loc)), Value.TOP));
    }

    /** The edges rule {@code rule} would add to the witness execution. */
    private static List<int[]> ruleEdges(final Enumerator.Witness w, final Rule rule) {
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
        final ActionGraph g = w.graph();
        final BitRelation hb = w.hb().copy();
        for (final int[] e : ruleEdges) {
            hb.addClosed(e[0], e[1]);
        }
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
        return new Violation(ruleEdges, "its edges make this execution inconsistent");
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

    private static String dot(final Program program, final Enumerator.Witness w, final Rule rule,
        final List<int[]> highlighted, final String why) {
        final ActionGraph g = w.graph();
        final StringBuilder out = new StringBuilder();
        out.append("digraph \"").append(escape(program.name())).append("\" {\n");
        out.append("  labelloc=t; fontname=\"Helvetica\"; node [shape=box, fontname=\"Helvetica\", fontsize=11];\n");
        out.append("  edge [fontname=\"Helvetica\", fontsize=9];\n");
        out.append("  label=\"")
            .append(
                escape(program.name() + "  " + w.state().format(List.copyOf(g.stateSources.keySet())) + "\\n" + why))
            .append("\";\n");
        final Set<Integer> drawn = new HashSet<>();
        out.append("  subgraph cluster_init { label=\"init\"; style=dotted;\n");
        for (final Action a : g.actions) {
            if (a.kind == Action.Kind.INIT && usedAsSource(w, a.id)) {
                out.append("    a").append(a.id).append(" [label=\"")
                    .append(escape(g.program.variables().get(a.loc).name() + " = " + Value.format(a.initValue)))
                    .append("\", style=rounded];\n");
                drawn.add(a.id);
            }
        }
        out.append("  }\n");
        for (int p = 0; p < g.order.size(); p++) {
            out.append("  subgraph cluster_p").append(p).append(" { label=\"P").append(p).append("\";\n");
            Integer previous = null;
            for (final ActionGraph.Entry e : g.order.get(p)) {
                for (final int id : e.actions()) {
                    final Action a = g.actions.get(id);
                    if (a.proc != p) {
                        continue;
                    }
                    out.append("    a").append(id).append(" [label=\"").append(escape(label(g, w, a))).append("\"];\n");
                    drawn.add(id);
                    if (previous != null) {
                        out.append("    a").append(previous).append(" -> a").append(id)
                            .append(" [label=\"po\", color=gray50, style=dashed];\n");
                    }
                    previous = id;
                }
            }
            out.append("  }\n");
        }
        for (final Action a : g.actions) {
            if (a.kind == Action.Kind.SYNC && a.proc < 0) {
                out.append("  a").append(a.id).append(" [label=\"").append(escape(label(g, w, a)))
                    .append("\", shape=octagon];\n");
                drawn.add(a.id);
            }
        }
        final Set<String> hot = new HashSet<>();
        for (final int[] e : highlighted) {
            hot.add(e[0] + ">" + e[1]);
        }
        for (final int r : g.readers) {
            final int src = w.rf()[r];
            if (src >= 0 && drawn.contains(src) && drawn.contains(r) && g.actions.get(r).kind != Action.Kind.FINAL) {
                out.append("  a").append(src).append(" -> a").append(r)
                    .append(" [label=\"rf\", color=red, fontcolor=red")
                    .append(hot.remove(src + ">" + r) ? ", penwidth=3" : "").append("];\n");
            }
        }
        final Set<String> seen = new HashSet<>();
        for (final ActionGraph.Edge e : g.edges) {
            final String key = e.from() + ">" + e.to();
            if (DRAWN.contains(e.rule()) && drawn.contains(e.from()) && drawn.contains(e.to()) && seen.add(key)) {
                final boolean bold = hot.remove(key);
                out.append("  a").append(e.from()).append(" -> a").append(e.to()).append(" [label=\"")
                    .append(e.rule().label()).append("\", color=")
                    .append(bold ? "red, penwidth=3, fontcolor=red" : "blue, fontcolor=blue").append("];\n");
            }
        }
        for (final String key : hot) {
            final String[] ends = key.split(">");
            final int from = Integer.parseInt(ends[0]);
            final int to = Integer.parseInt(ends[1]);
            if (drawn.contains(from) && drawn.contains(to)) {
                out.append("  a").append(from).append(" -> a").append(to).append(" [label=\"")
                    .append(rule != null && isRuleEdge(w, rule, from, to) ? rule.label() : edgeName(w, from, to))
                    .append("\", color=red, penwidth=3, fontcolor=red];\n");
            }
        }
        out.append("}\n");
        return out.toString();
    }

    private static boolean isRuleEdge(final Enumerator.Witness w, final Rule rule, final int from, final int to) {
        for (final int[] e : ruleEdges(w, rule)) {
            if (e[0] == from && e[1] == to) {
                return true;
            }
        }
        return false;
    }

    /** rf, fr (a read before a write of its location that follows the write it read), or hb. */
    private static String edgeName(final Enumerator.Witness w, final int from, final int to) {
        final ActionGraph g = w.graph();
        if (w.rf()[to] == from && g.actions.get(to).kind.reads()) {
            return "rf";
        }
        if (g.actions.get(from).kind.reads() && g.actions.get(to).kind.writes()
            && g.actions.get(from).loc == g.actions.get(to).loc) {
            return "fr";
        }
        for (final ActionGraph.Edge e : g.edges) {
            if (e.from() == from && e.to() == to) {
                return e.rule().label();
            }
        }
        return "hb";
    }

    private static boolean usedAsSource(final Enumerator.Witness w, final int id) {
        for (final int r : w.graph().readers) {
            if (w.rf()[r] == id && w.graph().actions.get(r).kind != Action.Kind.FINAL) {
                return true;
            }
        }
        return false;
    }

    /** herd-style label: the statement, then the action, its location and value. */
    private static String label(final ActionGraph g, final Enumerator.Witness w, final Action a) {
        final String stmt = a.stmt == null ? "" : Printer.statement(a.stmt, g.program);
        if (a.kind == Action.Kind.SYNC) {
            return stmt;
        }
        final String var = g.program.variables().get(a.loc).name();
        final String kind = switch (a.kind) {
            case LOCAL_READ -> a.direct() ? "R (direct)" : "R";
            case LOCAL_WRITE -> a.direct() ? "W (direct)" : "W";
            case EXT_READ -> "eR";
            case EXT_WRITE -> "eW";
            case EXT_RW -> "eRW";
            default -> a.kind.name();
        };
        final long value = a.kind.writes() ? w.written()[a.id] : w.read()[a.id];
        return stmt + "\\n" + kind + " " + var + "=" + Value.format(value) + (a.atomic ? "" : " (na)");
    }

    private static String escape(final String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\\\\n", "\\n");
    }
}
