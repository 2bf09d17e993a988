package org.rma4j.litmus.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.rma4j.litmus.syntax.Loc;
import org.rma4j.litmus.syntax.Program;
import org.rma4j.litmus.syntax.Stmt;

/**
 * The actions of a program (coreRMA section 4, Table 3, extended with one action per
 * synchronization call) and the hb edges that follow from program order alone, each tagged with the
 * rule that adds it. Edges that depend on reads-from (R1, R2, COH), on a choice (WS, LX) or on
 * conflicts are the {@link Enumerator}'s.
 *
 * <p>A fence or barrier is a single node shared by all processes (the k-th collective call of every
 * process): MPI-3 section 3.2.4 splits a fence into start and end with sfe_s^i -> sfe_e^j for all i,
 * j, which orders exactly what one shared node orders.
 */
public final class ActionGraph {
    /** An hb edge and the rule behind it. */
    public record Edge(int from, int to, Rule rule) {
    }

    /** A lock epoch: lock and unlock nodes, the process, the target (-1: lock_all) and the lock type. */
    record Epoch(int lock, int unlock, int proc, int target, boolean exclusive) {
    }

    /** A statement in a process's program order with its actions (a collective's is the shared node). */
    record Entry(Stmt stmt, int[] actions) {
    }

    final Program program;
    final List<Action> actions = new ArrayList<>();
    final List<Edge> edges = new ArrayList<>();
    /** Data dependencies inside statements and from local reads to the writes that use their register. */
    final List<int[]> dependencies = new ArrayList<>();
    final List<Epoch> epochs = new ArrayList<>();
    final List<List<Entry>> order = new ArrayList<>();
    /** For each variable index, the writers (init write first). */
    final List<List<Integer>> writers = new ArrayList<>();
    final List<Integer> readers = new ArrayList<>();
    /**
     * Where each location of a full final state comes from: a local read or a final read (-1: register
     * never read, 0; {@link #STATUS}: a wait's status, in {@link #constants}).
     */
    final Map<Loc, Integer> stateSources = new LinkedHashMap<>();
    /** Values of the status registers under this graph's matching of notifications to waits. */
    final Map<Loc, Long> constants = new HashMap<>();
    /** The matching of notifications to waits this graph is built for. */
    private final NotifyMatching.Matching matching;
    private final Map<String, Integer> variableIndex = new HashMap<>();
    private final List<Integer> collectiveNodes = new ArrayList<>();
    private int groups;

    /** stateSources value of a status register. */
    static final int STATUS = -2;

    private ActionGraph(final Program program, final NotifyMatching.Matching matching) {
        this.program = program;
        this.matching = matching;
    }

    /**
     * Translates {@code program} (which must have passed {@link org.rma4j.litmus.syntax.Checker})
     * under its first matching of notifications to waits (the only one without waits on any source or tag).
     */
    public static ActionGraph of(final Program program) {
        return all(program).getFirst();
    }

    /**
     * @return one graph per way the notifications can match the waits (waits on any source or tag
     *         take them in any interleaving of the (source, tag) streams; each stream in order).
     */
    public static List<ActionGraph> all(final Program program) {
        final List<ActionGraph> graphs = new ArrayList<>();
        for (final NotifyMatching.Matching m : NotifyMatching.of(program)) {
            final ActionGraph g = new ActionGraph(program, m);
            g.build();
            graphs.add(g);
        }
        return graphs;
    }

    private void build() {
        final List<Program.Variable> vars = program.variables();
        for (int v = 0; v < vars.size(); v++) {
            variableIndex.put(vars.get(v).name(), v);
            writers.add(new ArrayList<>());
            final Action init = add(Action.Kind.INIT, -1, v, true, vars.get(v).owner(), null, -1, false, false);
            init.initValue = vars.get(v).init();
        }
        final int firstProgramAction = actions.size();
        for (int p = 0; p < program.processCount(); p++) {
            order.add(entries(p));
        }
        final int lastProgramAction = actions.size();
        for (int p = 0; p < program.processCount(); p++) {
            registers(p);
            programOrder(p);
            epochs(p);
        }
        notifications();
        new PscwRules(this).apply();
        for (int v = 0; v < vars.size(); v++) {
            final Action fin = add(Action.Kind.FINAL, -1, v, true, vars.get(v).owner(), null, -1, false, false);
            stateSources.put(Loc.memory(vars.get(v).name()), fin.id);
        }
        initAndFinal(firstProgramAction, lastProgramAction);
    }

    /** The statements of process {@code p} with their actions; the k-th collective call is the k-th shared node. */
    private List<Entry> entries(final int p) {
        final List<Entry> entries = new ArrayList<>();
        int collective = 0;
        for (final Stmt s : program.processes().get(p)) {
            if (s instanceof Stmt.Sync sync && sync.kind().collective()) {
                if (collective == collectiveNodes.size()) {
                    collectiveNodes.add(add(Action.Kind.SYNC, -1, -1, true, -1, s, -1, false, false).id);
                }
                entries.add(new Entry(s, new int[] {collectiveNodes.get(collective++)}));
            } else {
                entries.add(new Entry(s, translate(p, s)));
            }
        }
        return entries;
    }

    /** The edges of {@link OrderRules} between every two statements of process {@code p}, in program order. */
    private void programOrder(final int p) {
        final List<Entry> entries = order.get(p);
        final OrderRules rules = new OrderRules(this);
        for (int i = 0; i < entries.size(); i++) {
            for (int j = i + 1; j < entries.size(); j++) {
                rules.pair(p, entries.get(i), entries.get(j));
            }
        }
    }

    /** INIT: initial writes before every action of the program; FIN: final reads after every statement's action. */
    private void initAndFinal(final int firstProgramAction, final int lastProgramAction) {
        for (final Action a : actions) {
            if (a.kind == Action.Kind.INIT) {
                for (int b = firstProgramAction; b < actions.size(); b++) {
                    edge(a.id, b, Rule.INIT);
                }
            } else if (a.kind == Action.Kind.FINAL) {
                for (int b = firstProgramAction; b < lastProgramAction; b++) {
                    edge(b, a.id, Rule.FIN);
                }
            }
        }
    }

    private Action add(final Action.Kind kind, final int proc, final int loc, final boolean atomic, final int dst,
        final Stmt stmt, final int group, final boolean remote, final boolean notified) {
        final Action a = new Action(actions.size(), kind, proc, loc, atomic, dst, stmt, group, remote, notified);
        actions.add(a);
        if (kind.writes()) {
            writers.get(loc).add(a.id);
        }
        if (kind.reads()) {
            readers.add(a.id);
        }
        return a;
    }

    private int var(final String name) {
        return variableIndex.get(name);
    }

    private int owner(final String name) {
        return program.variable(name).owner();
    }

    /** coreRMA Table 3: the actions of one statement, with the intra-statement rules PG, GA, CAS. */
    private int[] translate(final int p, final Stmt s) {
        final int g = groups++;
        return switch (s) {
            case Stmt.LocalRead r -> read(p, s, g, r.variable(), p, r.register());
            case Stmt.LocalWrite w -> write(p, s, g, w.variable(), p, w.value());
            case Stmt.Load l -> read(p, s, g, l.variable(), owner(l.variable()), l.register());
            case Stmt.Poll poll -> read(p, s, g, poll.variable(), owner(poll.variable()), poll.register());
            case Stmt.Store st -> write(p, s, g, st.variable(), owner(st.variable()), st.value());
            case Stmt.GetNotify gn ->
                transfer(p, s, g, var(gn.target()), owner(gn.target()), var(gn.dest()), p, false, true);
            case Stmt.Acc acc -> accumulate(p, acc, g);
            case Stmt.Rga rga when rga.op() == org.rma4j.litmus.syntax.AccOp.NO_OP -> fetchNoOp(p, rga, g);
            case Stmt.Put put ->
                transfer(p, s, g, var(put.source()), p, var(put.target()), owner(put.target()), true, false);
            case Stmt.PutNotify pn ->
                transfer(p, s, g, var(pn.source()), p, var(pn.target()), owner(pn.target()), true, true);
            case Stmt.Get get ->
                transfer(p, s, g, var(get.target()), owner(get.target()), var(get.dest()), p, false, false);
            case Stmt.Rga rga -> getAccumulate(p, rga, g);
            case Stmt.Cas cas -> compareAndSwap(p, cas, g);
            case Stmt.Wait w -> new int[] {add(Action.Kind.SYNC, p, -1, true, w.source(), s, g, false, false).id};
            case Stmt.Sync sync -> new int[] {add(Action.Kind.SYNC, p, -1, true, sync.target(), s, g, false, false).id};
            case Stmt.Pscw pscw -> new int[] {add(Action.Kind.SYNC, p, -1, true, -1, s, g, false, false).id};
        };
    }

    /** A local read, or a direct load or poll of another process's variable ({@code dst} its owner). */
    private int[] read(final int p, final Stmt s, final int g, final String variable, final int dst,
        final String register) {
        final Action a = add(Action.Kind.LOCAL_READ, p, var(variable), atomic((Stmt.Memory)s), dst, s, g, false, false);
        a.register = register;
        return new int[] {a.id};
    }

    /** A local write, or a direct store into another process's variable ({@code dst} its owner). */
    private int[] write(final int p, final Stmt s, final int g, final String variable, final int dst,
        final org.rma4j.litmus.syntax.Expr value) {
        final Action a = add(Action.Kind.LOCAL_WRITE, p, var(variable), atomic((Stmt.Memory)s), dst, s, g, false,
            false);
        a.expr = value;
        return new int[] {a.id};
    }

    /** acc: a read of the operand, then a read-write of the target (GA). */
    private int[] accumulate(final int p, final Stmt.Acc acc, final int g) {
        final boolean at = atomic(acc);
        final Action er = add(Action.Kind.EXT_READ, p, var(acc.operand()), at, p, acc, g, false, false);
        final Action erw = add(Action.Kind.EXT_RW, p, var(acc.target()), at, owner(acc.target()), acc, g, true, false);
        erw.source = er.id;
        erw.op = acc.op();
        edge(er.id, erw.id, Rule.GA);
        dependency(er.id, erw.id);
        return new int[] {er.id, erw.id};
    }

    /** MPI_NO_OP only reads the target (MPI-3.1 section 11.3.4): an atomic external read, then the result. */
    private int[] fetchNoOp(final int p, final Stmt.Rga rga, final int g) {
        final boolean at = atomic(rga);
        final Action er = add(Action.Kind.EXT_READ, p, var(rga.target()), at, owner(rga.target()), rga, g, true, false);
        final Action ew = add(Action.Kind.EXT_WRITE, p, var(rga.dest()), at, p, rga, g, false, false);
        ew.source = er.id;
        edge(er.id, ew.id, Rule.GA);
        dependency(er.id, ew.id);
        return new int[] {er.id, ew.id};
    }

    /** rga: a read of the operand, a read-write of the target, a write of the result (GA). */
    private int[] getAccumulate(final int p, final Stmt.Rga rga, final int g) {
        final boolean at = atomic(rga);
        final Action er = add(Action.Kind.EXT_READ, p, var(rga.operand()), at, p, rga, g, false, false);
        final Action erw = add(Action.Kind.EXT_RW, p, var(rga.target()), at, owner(rga.target()), rga, g, true, false);
        final Action ew = add(Action.Kind.EXT_WRITE, p, var(rga.dest()), at, p, rga, g, false, false);
        erw.source = er.id;
        erw.op = rga.op();
        ew.source = erw.id;
        edge(er.id, erw.id, Rule.GA);
        edge(erw.id, ew.id, Rule.GA);
        dependency(er.id, erw.id);
        dependency(erw.id, ew.id);
        return new int[] {er.id, erw.id, ew.id};
    }

    /** cas: reads of compare and swap, a read-write of the target, a write of the result (CAS-F, CAS-T). */
    private int[] compareAndSwap(final int p, final Stmt.Cas cas, final int g) {
        final boolean at = atomic(cas);
        final Action er1 = add(Action.Kind.EXT_READ, p, var(cas.compare()), at, p, cas, g, false, false);
        final Action er2 = add(Action.Kind.EXT_READ, p, var(cas.swap()), at, p, cas, g, false, false);
        final Action erw = add(Action.Kind.EXT_RW, p, var(cas.target()), at, owner(cas.target()), cas, g, true, false);
        final Action ew = add(Action.Kind.EXT_WRITE, p, var(cas.dest()), at, p, cas, g, false, false);
        erw.source = er1.id;
        erw.swap = er2.id;
        erw.cas = true;
        ew.source = erw.id;
        edge(er1.id, erw.id, Rule.CAS);
        edge(er2.id, erw.id, Rule.CAS);
        edge(erw.id, ew.id, Rule.CAS);
        dependency(er1.id, erw.id);
        dependency(er2.id, erw.id);
        dependency(erw.id, ew.id);
        return new int[] {er1.id, er2.id, erw.id, ew.id};
    }

    /** put (read local, write remote; Remote = the write) or get (read remote = Remote, write local): rule PG. */
    private int[] transfer(final int p, final Stmt s, final int g, final int readLoc, final int readDst,
        final int writeLoc, final int writeDst, final boolean put, final boolean notified) {
        final boolean at = atomic((Stmt.Memory)s);
        final Action er = add(Action.Kind.EXT_READ, p, readLoc, at, readDst, s, g, !put, notified);
        final Action ew = add(Action.Kind.EXT_WRITE, p, writeLoc, at, writeDst, s, g, put, notified);
        ew.source = er.id;
        edge(er.id, ew.id, Rule.PG);
        dependency(er.id, ew.id);
        return new int[] {er.id, ew.id};
    }

    /** A statement's atomicity; an access to a variable of more than one element is never atomic (MPI-3.1 11.7.1). */
    private boolean atomic(final Stmt.Memory m) {
        final Program.Variable v = program.variable(org.rma4j.litmus.syntax.Checker.accessed(m));
        return m.atomicity().resolve(program.defaultAtomicity()) == org.rma4j.litmus.syntax.Atomicity.ATOMIC
            && (v == null || v.count() == 1);
    }

    void edge(final int from, final int to, final Rule rule) {
        if (from != to) {
            edges.add(new Edge(from, to, rule));
        }
    }

    private void dependency(final int from, final int to) {
        dependencies.add(new int[] {from, to});
    }

    /** Local writes depend on the local reads that last assigned their registers; the final registers too. */
    private void registers(final int p) {
        final Map<String, Integer> last = new HashMap<>();
        for (int index = 0; index < order.get(p).size(); index++) {
            final Entry e = order.get(p).get(index);
            for (final int id : e.actions()) {
                final Action a = actions.get(id);
                if (a.kind == Action.Kind.LOCAL_WRITE) {
                    final Map<String, Integer> sources = new HashMap<>();
                    a.expr.registers(r -> sources.put(r, last.getOrDefault(r, -1)));
                    a.registerSources = sources;
                    sources.values().stream().filter(src -> src >= 0).forEach(src -> dependency(src, a.id));
                } else if (a.kind == Action.Kind.LOCAL_READ && a.proc == p) {
                    last.put(a.register, a.id);
                }
            }
            if (e.stmt() instanceof Stmt.Wait w) {
                final List<NotifyMatching.Notification> matched = matching.matched(p, index);
                final NotifyMatching.Notification n = matched.getLast();
                if (w.sourceRegister() != null) {
                    last.put(w.sourceRegister(), STATUS);
                    constants.put(Loc.register(p, w.sourceRegister()), (long)n.source());
                }
                if (w.tagRegister() != null) {
                    last.put(w.tagRegister(), STATUS);
                    constants.put(Loc.register(p, w.tagRegister()), (long)n.tag());
                }
            }
        }
        for (final String r : program.registersOf(p)) {
            stateSources.put(Loc.register(p, r), last.getOrDefault(r, -1));
        }
    }

    private void epochs(final int p) {
        final Map<Integer, Integer> open = new HashMap<>();
        final Map<Integer, Boolean> exclusive = new HashMap<>();
        int openAll = -1;
        for (final Entry e : order.get(p)) {
            if (e.stmt() instanceof Stmt.Sync s) {
                switch (s.kind()) {
                    case LOCK -> {
                        open.put(s.target(), e.actions()[0]);
                        exclusive.put(s.target(), s.exclusive());
                    }
                    case UNLOCK -> epochs.add(
                        new Epoch(open.remove(s.target()), e.actions()[0], p, s.target(), exclusive.get(s.target())));
                    case LOCK_ALL -> openAll = e.actions()[0];
                    case UNLOCK_ALL -> epochs.add(new Epoch(openAll, e.actions()[0], p, -1, false));
                    default -> {
                    }
                }
            }
        }
    }

    /**
     * NA: each wait is preceded by the target actions of the notified accesses the matching gives it
     * (a notified put's write, a notified get's read: Notified Access section III).
     */
    private void notifications() {
        for (int p = 0; p < order.size(); p++) {
            for (int i = 0; i < order.get(p).size(); i++) {
                final Entry e = order.get(p).get(i);
                if (e.stmt() instanceof Stmt.Wait) {
                    for (final NotifyMatching.Notification n : matching.matched(p, i)) {
                        final Entry origin = order.get(n.source()).get(n.index());
                        for (final int id : origin.actions()) {
                            if (actions.get(id).remote) {
                                edge(id, e.actions()[0], Rule.NA);
                            }
                        }
                    }
                }
            }
        }
    }

    /**
     * @return coreRMA's test size: the actions the statements generate plus the initial writes
     *         (Figure 6 has size 9); final reads and collective nodes are not counted.
     */
    public int testSize() {
        int count = 0;
        for (final Action a : actions) {
            if (a.kind == Action.Kind.INIT || (a.kind != Action.Kind.FINAL && a.proc >= 0)) {
                count++;
            }
        }
        return count;
    }

    /** @return the number of actions. */
    public int size() {
        return actions.size();
    }

    /** @return the hb edges program order gives, with their rules. */
    public List<Edge> edges() {
        return List.copyOf(edges);
    }

    /** @return the actions, for printing. */
    public List<Action> actions() {
        return List.copyOf(actions);
    }
}
