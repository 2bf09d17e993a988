package org.rma4j.litmus.syntax;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes a program back in the litmus format (column form), so that {@code Parser.parse(print(p))}
 * gives back {@code p} up to source positions.
 */
public final class Printer {
    private Printer() {
    }

    /** @return the litmus text of {@code program}. */
    public static String print(final Program program) {
        final StringBuilder out = new StringBuilder();
        header(program, out);
        init(program, out);
        processes(program, out);
        if (program.locations() != null) {
            out.append("locations [");
            for (final Loc loc : program.locations()) {
                out.append(loc).append("; ");
            }
            out.append("]\n");
        }
        if (program.condition() != null) {
            out.append(program.condition()).append('\n');
        }
        return out.toString();
    }

    /** The RMA line, the doc string and the info keys. */
    private static void header(final Program program, final StringBuilder out) {
        out.append("RMA ").append(program.name()).append('\n');
        if (!program.doc().isEmpty()) {
            out.append('"').append(program.doc().replace('"', '\'')).append("\"\n");
        }
        for (final Map.Entry<String, String> e : program.info().entrySet()) {
            final boolean word = e.getValue().matches("[A-Za-z_][A-Za-z0-9_.]*|[0-9]+");
            out.append(e.getKey()).append(" = ")
                .append(word ? e.getValue() : '"' + e.getValue().replace('"', '\'') + '"').append('\n');
        }
    }

    /** The init block: every variable with its owner, shape (unless a plain long) and initial value. */
    private static void init(final Program program, final StringBuilder out) {
        out.append('{');
        for (final Program.Variable v : program.variables()) {
            out.append(' ').append(v.name()).append('@').append(v.owner());
            if (!v.plain()) {
                out.append(':').append(v.type().litmusName()).append(v.count() == 1 ? "" : "[" + v.count() + "]");
            }
            out.append('=').append(v.init()).append(';');
        }
        out.append(" }\n");
    }

    /** The processes in column form: a row of names, then one row per statement, each column padded. */
    private static void processes(final Program program, final StringBuilder out) {
        final int n = program.processCount();
        final List<List<String>> columns = new ArrayList<>();
        int rows = 1;
        for (int p = 0; p < n; p++) {
            final List<String> column = new ArrayList<>();
            column.add("P" + p);
            for (final Stmt s : program.processes().get(p)) {
                column.add(statement(s, program));
            }
            columns.add(column);
            rows = Math.max(rows, column.size());
        }
        final int[] widths = new int[n];
        for (int p = 0; p < n; p++) {
            for (final String cell : columns.get(p)) {
                widths[p] = Math.max(widths[p], cell.length());
            }
        }
        for (int row = 0; row < rows; row++) {
            final StringBuilder line = new StringBuilder(" ");
            for (int p = 0; p < n; p++) {
                final List<String> column = columns.get(p);
                final String cell = row < column.size() ? column.get(row) : "";
                line.append(cell).append(" ".repeat(widths[p] - cell.length()));
                line.append(p + 1 < n ? " | " : " ;");
            }
            out.append(line).append('\n');
        }
    }

    /** @return one statement as written in a litmus file. */
    public static String statement(final Stmt s, final Program program) {
        final String prefix = s instanceof Stmt.Memory m ? switch (m.atomicity()) {
            case DEFAULT -> "";
            case ATOMIC -> "at ";
            case NONATOMIC -> "na ";
        } : "";
        return prefix + switch (s) {
            case Stmt.LocalRead r -> r.register() + " = " + r.variable();
            case Stmt.LocalWrite w -> w.variable() + " = " + w.value();
            case Stmt.Put put -> "put(" + remote(put.target(), program) + ", " + put.source() + ")";
            case Stmt.Get get -> get.dest() + " = get(" + remote(get.target(), program) + ")";
            case Stmt.Rga rga -> rga.dest() + " = rga(" + remote(rga.target(), program) + ", " + rga.operand()
                + (rga.op() == AccOp.SUM ? "" : ", " + rga.op().litmusName()) + ")";
            case Stmt.Cas cas ->
                cas.dest() + " = cas(" + remote(cas.target(), program) + ", " + cas.compare() + ", " + cas.swap() + ")";
            case Stmt.PutNotify pn ->
                "put_notify(" + remote(pn.target(), program) + ", " + pn.source() + ", " + pn.tag() + ")";
            case Stmt.Wait w -> (w.sourceRegister() == null
                ? ""
                : w.sourceRegister() + (w.tagRegister() == null ? "" : ", " + w.tagRegister()) + " = ") + "wait("
                + any(w.source()) + ", " + any(w.tag()) + (w.count() == 1 ? "" : ", " + w.count()) + ")";
            case Stmt.Load l -> l.register() + " = load(" + remote(l.variable(), program) + ")";
            case Stmt.Store st -> "store(" + remote(st.variable(), program) + ", " + st.value() + ")";
            case Stmt.Poll poll -> poll.register() + " = poll(" + remote(poll.variable(), program) + ", " + poll.value()
                + (poll.bound() == Stmt.Poll.DEFAULT_BOUND ? "" : ", " + poll.bound()) + ")";
            case Stmt.Acc acc -> "acc(" + remote(acc.target(), program) + ", " + acc.operand()
                + (acc.op() == AccOp.SUM ? "" : ", " + acc.op().litmusName()) + ")";
            case Stmt.GetNotify gn ->
                gn.dest() + " = get_notify(" + remote(gn.target(), program) + ", " + gn.tag() + ")";
            case Stmt.Pscw pscw -> pscw.kind().litmusName() + (pscw.kind().hasGroup()
                ? "(" + String.join(", ", pscw.group().stream().map(String::valueOf).toList()) + ")"
                : "");
            case Stmt.Sync sync -> sync(sync);
        };
    }

    private static String any(final int value) {
        return value == Stmt.ANY ? "any" : Integer.toString(value);
    }

    private static String sync(final Stmt.Sync sync) {
        if (!sync.kind().hasTarget()) {
            return sync.kind().litmusName();
        }
        final String shared = sync.kind() == Stmt.SyncKind.LOCK && !sync.exclusive() ? ", shared" : "";
        return sync.kind().litmusName() + "(" + sync.target() + shared + ")";
    }

    private static String remote(final String variable, final Program program) {
        final Program.Variable v = program.variable(variable);
        return v == null ? variable : variable + "@" + v.owner();
    }
}
