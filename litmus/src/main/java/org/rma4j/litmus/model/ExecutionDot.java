package org.rma4j.litmus.model;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.rma4j.litmus.syntax.Printer;
import org.rma4j.litmus.syntax.Program;

/**
 * The Graphviz source of one execution for {@link ExecutionGraph}: a title, the nodes (initial writes
 * that some read reads, one cluster per process in program order, the shared collective nodes), then
 * the edges (rf, the rules' hb edges, and the highlighted edges of a violation no other edge drew).
 */
final class ExecutionDot {
    /** Rules drawn as labelled edges (LO, SY, DS and the statements' own PG / GA / CAS follow po; INIT, FIN are scaffolding). */
    private static final Set<Rule> DRAWN = EnumSet.of(Rule.IR, Rule.F1, Rule.F2, Rule.F3, Rule.FE, Rule.BAR, Rule.LK,
        Rule.UL, Rule.LX, Rule.FL, Rule.WSY, Rule.NA, Rule.AO, Rule.PSCW, Rule.LB);

    private final Program program;
    private final Enumerator.Witness w;
    private final ActionGraph g;
    private final StringBuilder out = new StringBuilder();
    /** The actions drawn as nodes; edges are drawn between them only. */
    private final Set<Integer> drawn = new HashSet<>();

    private ExecutionDot(final Program program, final Enumerator.Witness w) {
        this.program = program;
        this.w = w;
        this.g = w.graph();
    }

    /**
     * @param rule        the rule whose edges are highlighted, or null.
     * @param highlighted the edges drawn in bold red (the violation), from and to.
     * @param why         the second line of the title.
     * @return the dot source of the witness execution.
     */
    static String of(final Program program, final Enumerator.Witness w, final Rule rule, final List<int[]> highlighted,
        final String why) {
        return new ExecutionDot(program, w).write(rule, highlighted, why);
    }

    private String write(final Rule rule, final List<int[]> highlighted, final String why) {
        out.append("digraph \"").append(escape(program.name())).append("\" {\n");
        out.append("  labelloc=t; fontname=\"Helvetica\"; node [shape=box, fontname=\"Helvetica\", fontsize=11];\n");
        out.append("  edge [fontname=\"Helvetica\", fontsize=9];\n");
        out.append("  label=\"")
            .append(
                escape(program.name() + "  " + w.state().format(List.copyOf(g.stateSources.keySet())) + "\\n" + why))
            .append("\";\n");
        initNodes();
        processClusters();
        collectiveNodes();
        final Set<String> hot = new HashSet<>();
        for (final int[] e : highlighted) {
            hot.add(e[0] + ">" + e[1]);
        }
        rfEdges(hot);
        ruleEdges(hot);
        otherHighlightedEdges(rule, hot);
        out.append("}\n");
        return out.toString();
    }

    /** The initial writes that some read (not a final one) reads from. */
    private void initNodes() {
        out.append("  subgraph cluster_init { label=\"init\"; style=dotted;\n");
        for (final Action a : g.actions) {
            if (a.kind == Action.Kind.INIT && usedAsSource(a.id)) {
                out.append("    a").append(a.id).append(" [label=\"")
                    .append(escape(g.program.variables().get(a.loc).name() + " = " + Value.format(a.initValue)))
                    .append("\", style=rounded];\n");
                drawn.add(a.id);
            }
        }
        out.append("  }\n");
    }

    /** One cluster per process: its actions, joined by po edges. */
    private void processClusters() {
        for (int p = 0; p < g.order.size(); p++) {
            out.append("  subgraph cluster_p").append(p).append(" { label=\"P").append(p).append("\";\n");
            Integer previous = null;
            for (final ActionGraph.Entry e : g.order.get(p)) {
                for (final int id : e.actions()) {
                    final Action a = g.actions.get(id);
                    if (a.proc != p) {
                        continue;
                    }
                    out.append("    a").append(id).append(" [label=\"").append(escape(label(a))).append("\"];\n");
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
    }

    /** The shared nodes of fences and barriers, outside the clusters. */
    private void collectiveNodes() {
        for (final Action a : g.actions) {
            if (a.kind == Action.Kind.SYNC && a.proc < 0) {
                out.append("  a").append(a.id).append(" [label=\"").append(escape(label(a)))
                    .append("\", shape=octagon];\n");
                drawn.add(a.id);
            }
        }
    }

    /** The reads-from edges (bold where highlighted; drawn ones leave {@code hot}). */
    private void rfEdges(final Set<String> hot) {
        for (final int r : g.readers) {
            final int src = w.rf()[r];
            if (src >= 0 && drawn.contains(src) && drawn.contains(r) && g.actions.get(r).kind != Action.Kind.FINAL) {
                out.append("  a").append(src).append(" -> a").append(r)
                    .append(" [label=\"rf\", color=red, fontcolor=red")
                    .append(hot.remove(src + ">" + r) ? ", penwidth=3" : "").append("];\n");
            }
        }
    }

    /** The hb edges of the {@link #DRAWN} rules, one per pair of actions (bold where highlighted). */
    private void ruleEdges(final Set<String> hot) {
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
    }

    /** The highlighted edges neither rf nor a drawn rule edge: the rule's own edges, fr, or other hb edges. */
    private void otherHighlightedEdges(final Rule rule, final Set<String> hot) {
        for (final String key : hot) {
            final String[] ends = key.split(">");
            final int from = Integer.parseInt(ends[0]);
            final int to = Integer.parseInt(ends[1]);
            if (drawn.contains(from) && drawn.contains(to)) {
                out.append("  a").append(from).append(" -> a").append(to).append(" [label=\"")
                    .append(rule != null && isRuleEdge(rule, from, to) ? rule.label() : edgeName(from, to))
                    .append("\", color=red, penwidth=3, fontcolor=red];\n");
            }
        }
    }

    private boolean isRuleEdge(final Rule rule, final int from, final int to) {
        for (final int[] e : ExecutionGraph.ruleEdges(w, rule)) {
            if (e[0] == from && e[1] == to) {
                return true;
            }
        }
        return false;
    }

    /** rf, fr (a read before a write of its location that follows the write it read), or hb. */
    private String edgeName(final int from, final int to) {
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

    private boolean usedAsSource(final int id) {
        for (final int r : g.readers) {
            if (w.rf()[r] == id && g.actions.get(r).kind != Action.Kind.FINAL) {
                return true;
            }
        }
        return false;
    }

    /** herd-style label: the statement, then the action, its location and value. */
    private String label(final Action a) {
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

    /** @return the text as the inside of a dot string; a {@code \n} already in it stays a line break. */
    static String escape(final String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\\\\n", "\\n");
    }
}
