package org.rma4j.litmus.model;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.rma4j.litmus.syntax.Loc;

/**
 * Enumerates the consistent executions of an {@link ActionGraph} and collects their final states.
 *
 * <p>An execution is a reads-from choice for every read plus an hb relation satisfying the rules.
 * The search:
 * <ol>
 *   <li>chooses rf for every read among the writes of its location (not one hb-after the read),
 *   reads in program order, and after each choice saturates hb: program-order edges, R2 (atomic rf
 *   in hb), R1 to a fixpoint; it rejects cycles in hb, in hb + rf + data dependencies ("valid
 *   reads-from relations must not induce cycles", coreRMA 5.1) and COH violations at once;</li>
 *   <li>branches on each unordered pair of atomic writes to one location (WS) and each pair of
 *   lock epochs that must exclude each other (LX);</li>
 *   <li>branches on each unordered conflicting pair (same location, a write, a non-atomic action):
 *   ordered one way, the other, or left unordered. hb is any relation that satisfies the rules, so
 *   an execution may order what the rules leave open; left unordered, rule C makes the read T;</li>
 *   <li>computes read and written values in a topological order (no-C, C, PG, GA, CAS-F, CAS-T).</li>
 * </ol>
 */
final class Enumerator {
    private final ActionGraph g;
    private final ModelOptions options;
    private final List<Action> actions;
    private final int n;
    private final List<Integer> readers;
    private final List<int[]> conflictPairs = new ArrayList<>();
    private final List<ActionGraph.Epoch[]> exclusionPairs = new ArrayList<>();
    private final List<Loc> locations;
    private final Set<State> states = new HashSet<>();
    private BitRelation base;
    private long executions;
    private boolean truncated;
    /** When set, the search stops at the first execution whose full final state satisfies it ({@link #find}). */
    private java.util.function.Predicate<State> wanted;
    private Witness witness;

    /** An execution: its reads-from (rf[read] = write, -1 for non-reads), its hb (closed) and its final state. */
    record Witness(ActionGraph graph, int[] rf, BitRelation hb, State state, long[] read, long[] written) {
    }

    /** @return the first consistent execution of {@code g} whose full final state satisfies {@code wanted}, or null. */
    static Witness find(final ActionGraph g, final ModelOptions options,
        final java.util.function.Predicate<State> wanted) {
        final Enumerator e = new Enumerator(g, options);
        e.wanted = wanted;
        e.run();
        return e.witness;
    }

    Enumerator(final ActionGraph g, final ModelOptions options) {
        this.g = g;
        this.options = options;
        this.actions = g.actions;
        this.n = actions.size();
        this.readers = new ArrayList<>(g.readers);
        this.locations = List.copyOf(g.stateSources.keySet());
    }

    /** @return the union of the allowed states of several graphs of one program (its notification matchings). */
    static ModelResult runAll(final List<ActionGraph> graphs, final ModelOptions options) {
        final List<State> states = new ArrayList<>();
        long executions = 0;
        boolean truncated = false;
        List<Loc> locations = List.of();
        for (final ActionGraph graph : graphs) {
            final ModelResult r = new Enumerator(graph, options).run();
            states.addAll(r.states());
            executions += r.executions();
            truncated |= r.truncated();
            locations = r.locations();
        }
        return new ModelResult(locations, states, executions, truncated);
    }

    ModelResult run() {
        base = new BitRelation(n);
        for (final ActionGraph.Edge e : g.edges) {
            if (options.enabled(e.rule())) {
                base.add(e.from(), e.to());
            }
        }
        base.close();
        if (!base.reflexive()) {
            findPairs();
            // Reads in a topological order of program-order hb, so that choices constrain the next ones early.
            final int[] position = new int[n];
            final int[] order = base.topologicalOrder();
            for (int i = 0; i < n; i++) {
                position[order[i]] = i;
            }
            readers.sort((a, b) -> Integer.compare(position[a], position[b]));
            final int[] rf = new int[n];
            java.util.Arrays.fill(rf, -1);
            chooseReadsFrom(0, base, rf);
        }
        return new ModelResult(locations, new ArrayList<>(states), executions, truncated);
    }

    private void findPairs() {
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                final Action x = actions.get(a);
                final Action y = actions.get(b);
                if (x.loc >= 0 && x.loc == y.loc && (x.kind.writes() || y.kind.writes()) && (!x.atomic || !y.atomic)
                    && !base.ordered(a, b)) {
                    conflictPairs.add(new int[] {a, b});
                }
            }
        }
        for (int i = 0; i < g.epochs.size(); i++) {
            for (int j = i + 1; j < g.epochs.size(); j++) {
                final ActionGraph.Epoch e1 = g.epochs.get(i);
                final ActionGraph.Epoch e2 = g.epochs.get(j);
                final boolean sameTarget = e1.target() == e2.target() || e1.target() < 0 || e2.target() < 0;
                if (e1.proc() != e2.proc() && sameTarget && (e1.exclusive() || e2.exclusive())) {
                    exclusionPairs.add(new ActionGraph.Epoch[] {e1, e2});
                }
            }
        }
    }

    private boolean stop() {
        if (witness != null) {
            return true;
        }
        if (options.maxExecutions() > 0 && executions >= options.maxExecutions()) {
            truncated = true;
            return true;
        }
        return false;
    }

    /**
     * Chooses rf for reads i.. (reads before i are chosen in rf); hb is saturated for the chosen
     * ones, so every choice is checked at once (R2, R1, COH, acyclicity) and prunes the rest.
     */
    private void chooseReadsFrom(final int i, final BitRelation hb, final int[] rf) {
        if (stop()) {
            return;
        }
        if (i == readers.size()) {
            branch(hb, rf, 0);
            return;
        }
        final int r = readers.get(i);
        final Action read = actions.get(r);
        for (final int w : g.writers.get(read.loc)) {
            if (w == r || hb.has(r, w)) {
                continue;
            }
            rf[r] = w;
            final BitRelation next = hb.copy();
            if (read.atomic && actions.get(w).atomic && options.enabled(Rule.R2)) {
                next.addClosed(w, r);
            }
            if (saturate(next, rf)) {
                chooseReadsFrom(i + 1, next, rf);
            }
        }
        rf[r] = -1;
    }

    /**
     * Closes hb (kept transitively closed by {@link BitRelation#addClosed}) under R1 to a fixpoint
     * and checks acyclicity and COH for the reads whose rf is chosen; false if inconsistent.
     */
    private boolean saturate(final BitRelation hb, final int[] rf) {
        boolean changed = true;
        while (changed) {
            if (hb.reflexive()) {
                return false;
            }
            changed = false;
            if (options.enabled(Rule.R1)) {
                for (final int r : readers) {
                    final Action read = actions.get(r);
                    final int w1 = rf[r];
                    if (w1 < 0 || !read.atomic || !actions.get(w1).atomic) {
                        continue;
                    }
                    for (final int w2 : g.writers.get(read.loc)) {
                        if (w2 != w1 && w2 != r && actions.get(w2).atomic && hb.has(w1, w2) && !hb.has(r, w2)) {
                            hb.addClosed(r, w2);
                            changed = true;
                        }
                    }
                }
            }
        }
        for (final int r : readers) {
            final int w1 = rf[r];
            if (w1 < 0) {
                continue;
            }
            if (hb.has(r, w1)) {
                return false;
            }
            if (options.enabled(Rule.COH)) {
                for (final int w2 : g.writers.get(actions.get(r).loc)) {
                    if (w2 != w1 && w2 != r && hb.has(w1, w2) && hb.has(w2, r)) {
                        return false;
                    }
                }
            }
        }
        return !dataflow(hb, rf).reflexive();
    }

    /**
     * hb + rf + data dependencies, closed: values are computed along it, so it must be acyclic. When
     * every rf and dependency edge is already in hb (atomic reads, PG / GA / CAS on), that is hb itself.
     */
    private BitRelation dataflow(final BitRelation hb, final int[] rf) {
        BitRelation all = null;
        for (final int r : readers) {
            if (rf[r] >= 0 && !hb.has(rf[r], r)) {
                all = all == null ? hb.copy() : all;
                all.add(rf[r], r);
            }
        }
        for (final int[] d : g.dependencies) {
            if (!hb.has(d[0], d[1])) {
                all = all == null ? hb.copy() : all;
                all.add(d[0], d[1]);
            }
        }
        if (all == null) {
            return hb;
        }
        all.close();
        return all;
    }

    private void branch(final BitRelation hb, final int[] rf, final int conflictFrom) {
        if (stop()) {
            return;
        }
        if (options.enabled(Rule.WS)) {
            for (final List<Integer> ws : g.writers) {
                for (int i = 0; i < ws.size(); i++) {
                    for (int j = i + 1; j < ws.size(); j++) {
                        final int a = ws.get(i);
                        final int b = ws.get(j);
                        if (actions.get(a).atomic && actions.get(b).atomic && !hb.ordered(a, b)) {
                            extend(hb, rf, a, b, conflictFrom);
                            extend(hb, rf, b, a, conflictFrom);
                            return;
                        }
                    }
                }
            }
        }
        if (options.enabled(Rule.LX)) {
            for (final ActionGraph.Epoch[] pair : exclusionPairs) {
                final ActionGraph.Epoch e1 = pair[0];
                final ActionGraph.Epoch e2 = pair[1];
                if (!hb.has(e1.unlock(), e2.lock()) && !hb.has(e2.unlock(), e1.lock())) {
                    extend(hb, rf, e1.unlock(), e2.lock(), conflictFrom);
                    extend(hb, rf, e2.unlock(), e1.lock(), conflictFrom);
                    return;
                }
            }
        }
        for (int k = conflictFrom; k < conflictPairs.size(); k++) {
            final int a = conflictPairs.get(k)[0];
            final int b = conflictPairs.get(k)[1];
            if (!hb.ordered(a, b)) {
                extend(hb, rf, a, b, k + 1);
                extend(hb, rf, b, a, k + 1);
                branch(hb, rf, k + 1);
                return;
            }
        }
        leaf(hb, rf);
    }

    private void extend(final BitRelation hb, final int[] rf, final int from, final int to, final int conflictFrom) {
        final BitRelation next = hb.copy();
        next.addClosed(from, to);
        if (saturate(next, rf)) {
            branch(next, rf, conflictFrom);
        }
    }

    // ------------------------------------------------------------------ values

    private void leaf(final BitRelation hb, final int[] rf) {
        executions++;
        final long[] read = new long[n];
        final long[] written = new long[n];
        for (final int id : dataflow(hb, rf).topologicalOrder()) {
            final Action a = actions.get(id);
            if (a.kind.reads()) {
                read[id] = conflict(hb, a) || writeConflict(hb, actions.get(rf[id])) ? Value.TOP : written[rf[id]];
            }
            final long value = switch (a.kind) {
                case INIT -> a.initValue;
                case LOCAL_WRITE -> a.expr.evaluate(reg -> {
                    final int src = a.registerSources.getOrDefault(reg, -1);
                    return src < 0 ? 0 : read[src];
                }, Value.TOP);
                case EXT_WRITE -> read[a.source];
                case EXT_RW -> readWrite(a, read);
                default -> 0;
            };
            // A write keeps what the variable's type holds (a short sum wraps as on the machine).
            written[id] = a.kind.writes() && value != Value.TOP
                ? g.program.variables().get(a.loc).type().narrow(value)
                : value;
        }
        final long[] state = new long[locations.size()];
        int i = 0;
        for (final Map.Entry<Loc, Integer> e : g.stateSources.entrySet()) {
            state[i++] = e.getValue() == ActionGraph.STATUS
                ? g.constants.get(e.getKey())
                : e.getValue() < 0 ? 0 : read[e.getValue()];
        }
        final State result = new State(state);
        states.add(result);
        if (wanted != null && wanted.test(result)) {
            witness = new Witness(g, rf.clone(), hb.copy(), result, read, written);
        }
    }

    /** GA: target := op(old, operand). CAS-T: swap when old equals compare; CAS-F: the old value stays. */
    private static long readWrite(final Action a, final long[] read) {
        final long old = read[a.id];
        final long operand = read[a.source];
        if (old == Value.TOP || operand == Value.TOP) {
            return Value.TOP;
        }
        if (a.cas) {
            return old == operand ? read[a.swap] : old;
        }
        return a.op.apply(old, operand);
    }

    /** coreRMA 5.2: r conflicts if some write to its location is hb-unordered with it and one of the two is non-atomic. */
    private boolean conflict(final BitRelation hb, final Action r) {
        for (final int w : g.writers.get(r.loc)) {
            if (w != r.id && !hb.ordered(w, r.id) && (!r.atomic || !actions.get(w).atomic)) {
                return true;
            }
        }
        return false;
    }

    /** wconflict(w): another write to the location is hb-unordered with w and one of the two is non-atomic. */
    private boolean writeConflict(final BitRelation hb, final Action w) {
        for (final int other : g.writers.get(w.loc)) {
            if (other != w.id && !hb.ordered(other, w.id) && (!w.atomic || !actions.get(other).atomic)) {
                return true;
            }
        }
        return false;
    }
}
