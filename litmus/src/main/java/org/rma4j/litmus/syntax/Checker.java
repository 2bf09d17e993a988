package org.rma4j.litmus.syntax;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Static rules a litmus program must follow so that it is a valid MPI-3 program (MPI-3 RMA paper,
 * section 3.1, conditions (2)-(8)) and cannot deadlock by construction:
 *
 * <ul>
 *   <li>lock / unlock pair per target and lock_all / unlock_all pair, no lock inside lock_all and no
 *   second lock of a locked target (conditions (2), eq. (4), (5)); every epoch is closed by the end;</li>
 *   <li>a process does not mix fence epochs with lock epochs (condition (4): a window is not locked
 *   and exposed at once);</li>
 *   <li>flush, flush_all, flush_local and flush_local_all only in a passive-target epoch (condition (6),
 *   eq. (8)); win_sync anywhere (MPI-3.1 section 11.5.4 puts no epoch condition on MPI_WIN_SYNC, the
 *   paper's condition (6) names the flushes only, and rma4j's {@code Window.sync()} accepts it in any
 *   epoch);</li>
 *   <li>post / win_wait (or win_test) and start / complete pair up, a process uses PSCW without fence or
 *   lock epochs, and the k-th start of O naming T has a k-th post of T naming O (MPI-3.1 section 11.5.2);</li>
 *   <li>put, get, put_notify and get_notify move variables of one type and size; accumulates use
 *   one-element variables of one type, with an op defined on it (no bitwise op, no cas on double);</li>
 *   <li>put, get, acc, rga and cas only inside an access epoch to their target: a lock of it, lock_all,
 *   a start naming it, or after a fence (condition (8)); load, store and poll of another process's
 *   variable are direct accesses to shared memory and need no epoch;</li>
 *   <li>fences and barriers are collective: every process calls the same sequence of them (condition (3));</li>
 *   <li>every wait(source, tag, n) is matched by exactly n notified accesses with that tag from source,
 *   in total per (source, target, tag); a process with a wait on any source or any tag waits only with
 *   that one pattern, for every notification it receives, so that no matching order can starve a wait;
 *   status registers go with a count of 1 and are not used in expressions.</li>
 * </ul>
 *
 * A program with no fence, lock or lock_all at all is a coreRMA program: it runs inside an implicit
 * lock_all epoch, so the epoch rules hold trivially for it.
 */
public final class Checker {
    private Checker() {
    }

    /**
     * @throws LitmusException at the first statement that breaks a rule.
     */
    public static void check(final Program program) {
        final boolean explicit = program.hasExplicitEpochs();
        for (int p = 0; p < program.processCount(); p++) {
            new EpochChecker(program, p, explicit).check();
        }
        checkCollectives(program);
        checkNotifications(program);
        checkPscwMatching(program);
        checkTypes(program);
    }

    /**
     * @return the remote variable of an RMA call (put, get, acc, rga, cas, put_notify, get_notify), or
     *         null for local statements and direct accesses (load, store, poll).
     */
    public static String remoteTarget(final Stmt.Memory m) {
        return switch (m) {
            case Stmt.Put put -> put.target();
            case Stmt.Get get -> get.target();
            case Stmt.Rga rga -> rga.target();
            case Stmt.Cas cas -> cas.target();
            case Stmt.Acc acc -> acc.target();
            case Stmt.PutNotify pn -> pn.target();
            case Stmt.GetNotify gn -> gn.target();
            case Stmt.LocalRead r -> null;
            case Stmt.LocalWrite w -> null;
            case Stmt.Load l -> null;
            case Stmt.Store st -> null;
            case Stmt.Poll poll -> null;
        };
    }

    /** @return the variable a memory statement accesses in memory (for direct accesses: the one they touch). */
    public static String accessed(final Stmt.Memory m) {
        return switch (m) {
            case Stmt.LocalRead r -> r.variable();
            case Stmt.LocalWrite w -> w.variable();
            case Stmt.Load l -> l.variable();
            case Stmt.Store st -> st.variable();
            case Stmt.Poll poll -> poll.variable();
            default -> remoteTarget(m);
        };
    }

    private static void checkPscwMatching(final Program program) {
        final Map<List<Integer>, Integer> starts = new HashMap<>();
        final Map<List<Integer>, Integer> posts = new HashMap<>();
        final Map<List<Integer>, Stmt> where = new HashMap<>();
        for (int p = 0; p < program.processCount(); p++) {
            for (final Stmt s : program.processes().get(p)) {
                if (s instanceof Stmt.Pscw pscw && pscw.kind().hasGroup()) {
                    for (final int other : pscw.group()) {
                        final boolean start = pscw.kind() == Stmt.PscwKind.START;
                        final List<Integer> key = start ? List.of(p, other) : List.of(other, p);
                        (start ? starts : posts).merge(key, 1, Integer::sum);
                        where.putIfAbsent(key, s);
                    }
                }
            }
        }
        final java.util.Set<List<Integer>> keys = new java.util.HashSet<>(starts.keySet());
        keys.addAll(posts.keySet());
        for (final List<Integer> key : keys) {
            final int s = starts.getOrDefault(key, 0);
            final int t = posts.getOrDefault(key, 0);
            if (s != t) {
                throw error(where.get(key), "process " + key.get(0) + " starts " + s + " access epoch(s) to process "
                    + key.get(1) + ", which posts " + t + " exposure epoch(s) to it");
            }
        }
    }

    private static void checkTypes(final Program program) {
        for (int p = 0; p < program.processCount(); p++) {
            final java.util.Set<String> status = new java.util.HashSet<>();
            for (final Stmt s : program.processes().get(p)) {
                if (s instanceof Stmt.Wait w) {
                    status.addAll(w.assignedRegisters());
                }
            }
            for (final Stmt s : program.processes().get(p)) {
                switch (s) {
                    case Stmt.Put put -> sameShape(program, s, put.target(), put.source());
                    case Stmt.Get get -> sameShape(program, s, get.target(), get.dest());
                    case Stmt.PutNotify pn -> sameShape(program, s, pn.target(), pn.source());
                    case Stmt.GetNotify gn -> sameShape(program, s, gn.target(), gn.dest());
                    case Stmt.Acc acc -> accumulate(program, s, acc.op(), acc.target(), acc.operand());
                    case Stmt.Rga rga -> accumulate(program, s, rga.op(), rga.target(), rga.operand(), rga.dest());
                    case Stmt.Cas cas -> {
                        accumulate(program, s, AccOp.REPLACE, cas.target(), cas.compare(), cas.swap(), cas.dest());
                        if (program.variable(cas.target()).type() == VarType.DOUBLE) {
                            throw error(s, "compare_and_swap is defined on integer types, not on double");
                        }
                    }
                    case Stmt.LocalWrite w -> noStatus(s, w.value(), status);
                    case Stmt.Store st -> noStatus(s, st.value(), status);
                    case Stmt.Wait w -> {
                        if (!w.assignedRegisters().isEmpty() && w.count() != 1) {
                            throw error(s, "a wait with status registers waits for one notification");
                        }
                    }
                    default -> {
                    }
                }
            }
        }
    }

    private static void noStatus(final Stmt at, final Expr value, final java.util.Set<String> status) {
        value.registers(r -> {
            if (status.contains(r)) {
                throw error(at, "register " + r + " holds a wait's status and cannot be used in an expression");
            }
        });
    }

    private static void sameShape(final Program program, final Stmt at, final String a, final String b) {
        final Program.Variable x = program.variable(a);
        final Program.Variable y = program.variable(b);
        if (x.type() != y.type() || x.count() != y.count()) {
            throw error(at, a + " (" + shape(x) + ") and " + b + " (" + shape(y) + ") differ in type or size");
        }
    }

    private static void accumulate(final Program program, final Stmt at, final AccOp op, final String... names) {
        final Program.Variable first = program.variable(names[0]);
        for (final String name : names) {
            final Program.Variable v = program.variable(name);
            if (v.count() != 1) {
                throw error(at, "accumulates here are on one element; " + name + " is " + shape(v));
            }
            if (v.type() != first.type()) {
                throw error(at,
                    names[0] + " (" + shape(first) + ") and " + name + " (" + shape(v) + ") differ in type");
            }
        }
        if (!first.type().allows(op)) {
            throw error(at, "op " + op.litmusName() + " is not defined on " + first.type().litmusName());
        }
    }

    private static String shape(final Program.Variable v) {
        return v.type().litmusName() + (v.count() == 1 ? "" : "[" + v.count() + "]");
    }

    private static void checkCollectives(final Program program) {
        final List<List<Stmt.Sync>> sequences = new ArrayList<>();
        for (final List<Stmt> stmts : program.processes()) {
            final List<Stmt.Sync> collectives = new ArrayList<>();
            for (final Stmt s : stmts) {
                if (s instanceof Stmt.Sync sync && sync.kind().collective()) {
                    collectives.add(sync);
                }
            }
            sequences.add(collectives);
        }
        final List<Stmt.Sync> first = sequences.getFirst();
        for (int p = 1; p < sequences.size(); p++) {
            final List<Stmt.Sync> other = sequences.get(p);
            for (int k = 0; k < Math.max(first.size(), other.size()); k++) {
                if (k >= first.size()) {
                    throw error(other.get(k),
                        "process " + p + " calls " + other.get(k).kind().litmusName() + " as collective #" + (k + 1)
                            + " but process 0 makes only " + first.size()
                            + " collective call(s) (fence and barrier are collective)");
                }
                if (k >= other.size()) {
                    throw error(first.get(k), "process 0 calls " + first.get(k).kind().litmusName() + " as collective #"
                        + (k + 1) + " but process " + p + " makes only " + other.size() + " collective call(s)");
                }
                if (first.get(k).kind() != other.get(k).kind()) {
                    throw error(other.get(k),
                        "collective #" + (k + 1) + " of process " + p + " is " + other.get(k).kind().litmusName()
                            + " but that of process 0 is " + first.get(k).kind().litmusName());
                }
            }
        }
    }

    /** The notified accesses and waits of a program, keyed by (source, target, tag). */
    private record Notifications(Map<List<Integer>, Integer> sent, Map<List<Integer>, Integer> awaited,
        Map<List<Integer>, Stmt> where, Map<Integer, List<Stmt.Wait>> wildcards) {
        static Notifications of(final Program program) {
            final Notifications n = new Notifications(new HashMap<>(), new HashMap<>(), new HashMap<>(),
                new HashMap<>());
            for (int p = 0; p < program.processCount(); p++) {
                for (final Stmt s : program.processes().get(p)) {
                    n.add(program, p, s);
                }
            }
            return n;
        }

        private void add(final Program program, final int p, final Stmt s) {
            final String notifiedTarget = s instanceof Stmt.PutNotify pn
                ? pn.target()
                : s instanceof Stmt.GetNotify gn ? gn.target() : null;
            final int notifiedTag = s instanceof Stmt.PutNotify pn
                ? pn.tag()
                : s instanceof Stmt.GetNotify gn ? gn.tag() : -1;
            if (notifiedTarget != null) {
                final List<Integer> key = List.of(p, program.variable(notifiedTarget).owner(), notifiedTag);
                sent.merge(key, 1, Integer::sum);
                where.putIfAbsent(key, s);
            } else if (s instanceof Stmt.Wait w && w.wildcard()) {
                wildcards.computeIfAbsent(p, k -> new ArrayList<>()).add(w);
            } else if (s instanceof Stmt.Wait w) {
                final List<Integer> key = List.of(w.source(), p, w.tag());
                awaited.merge(key, w.count(), Integer::sum);
                where.putIfAbsent(key, s);
            }
        }
    }

    private static void checkNotifications(final Program program) {
        final Notifications n = Notifications.of(program);
        for (final Map.Entry<Integer, List<Stmt.Wait>> e : n.wildcards().entrySet()) {
            checkWildcardWaits(n, e.getKey(), e.getValue());
        }
        final java.util.Set<List<Integer>> keys = new java.util.HashSet<>(n.sent().keySet());
        keys.addAll(n.awaited().keySet());
        for (final List<Integer> key : keys) {
            if (n.wildcards().containsKey(key.get(1))) {
                continue;
            }
            final int s = n.sent().getOrDefault(key, 0);
            final int a = n.awaited().getOrDefault(key, 0);
            if (s != a) {
                throw error(n.where().get(key), "process " + key.get(0) + " sends " + s + " notified put(s) with tag "
                    + key.get(2) + " to process " + key.get(1) + ", which waits for " + a);
            }
        }
    }

    /**
     * The waits of a process that waits on any source or tag: one pattern for all of them, no specific
     * waits beside them, and as many notifications, all matching the pattern, as they wait for.
     */
    private static void checkWildcardWaits(final Notifications n, final int proc, final List<Stmt.Wait> waits) {
        final Stmt.Wait first = waits.getFirst();
        int total = 0;
        for (final Stmt.Wait w : waits) {
            if (w.source() != first.source() || w.tag() != first.tag()) {
                throw error(w, "process " + proc + " waits on any source or tag: all its waits must use the"
                    + " one pattern of " + first.pos());
            }
            total += w.count();
        }
        for (final List<Integer> key : n.awaited().keySet()) {
            if (key.get(1).equals(proc)) {
                throw error(n.where().get(key),
                    "process " + proc + " mixes a wait on any source or tag with" + " specific waits");
            }
        }
        final int matching = received(n, proc, first);
        if (matching != total) {
            throw error(first, "process " + proc + " receives " + matching + " notification(s) and waits for " + total);
        }
    }

    /** @return how many notifications process {@code proc} receives, each one matching {@code pattern}. */
    private static int received(final Notifications n, final int proc, final Stmt.Wait pattern) {
        int matching = 0;
        for (final Map.Entry<List<Integer>, Integer> s : n.sent().entrySet()) {
            if (s.getKey().get(1).equals(proc)) {
                if (!pattern.matches(s.getKey().get(0), s.getKey().get(2))) {
                    throw error(n.where().get(s.getKey()),
                        "process " + proc + " waits only for pattern ("
                            + (pattern.source() == Stmt.ANY ? "any" : pattern.source()) + ", "
                            + (pattern.tag() == Stmt.ANY ? "any" : pattern.tag()) + ") but receives this notification");
                }
                matching += s.getValue();
            }
        }
        return matching;
    }

    static LitmusException error(final Stmt at, final String message) {
        return new LitmusException(at.pos(), message);
    }
}
