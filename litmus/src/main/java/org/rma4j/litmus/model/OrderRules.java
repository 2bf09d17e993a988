package org.rma4j.litmus.model;

import org.rma4j.litmus.syntax.Stmt;

/**
 * The hb edges between two statements a, b of one process with a before b in program order: LO,
 * IR, F1-F3 (coreRMA Figure 4), the MPI-3 synchronization rules SY, FE, BAR, LK, UL, FL, WSY, NA, the
 * accumulate ordering AO (MPI-3 eq. (26)) and rma4j's DS (see {@link Rule} for each rule's source). Notified puts form their own epoch: flush, unlock
 * and fence complete them at the origin only; IR orders them with the origin's other operations to the
 * same target, as rma4j performs them at the call.
 */
final class OrderRules {
    private final ActionGraph g;

    OrderRules(final ActionGraph g) {
        this.g = g;
    }

    /**
     * Two statements of one process, a before b in program order, with what the rules look at:
     * their synchronization kinds and targets (null, -1 for other statements), their Remote actions
     * (null for statements without one), and whether each is one local action.
     */
    private record Pair(ActionGraph.Entry a, ActionGraph.Entry b, Stmt.SyncKind sa, Stmt.SyncKind sb, int ta, int tb,
        Action ra, Action rb, boolean aLocal, boolean bLocal) {
        /** @return a's first action (its only one for a synchronization call). */
        int a0() {
            return a.actions()[0];
        }

        /** @return b's first action (its only one for a synchronization call). */
        int b0() {
            return b.actions()[0];
        }

        /** @return whether a is one of the two kinds. */
        boolean aIs(final Stmt.SyncKind one, final Stmt.SyncKind other) {
            return sa == one || sa == other;
        }

        /** @return whether b is one of the two kinds. */
        boolean bIs(final Stmt.SyncKind one, final Stmt.SyncKind other) {
            return sb == one || sb == other;
        }
    }

    /** Adds the edges between a and b, statements of process {@code p} with a po b, rule by rule. */
    void pair(final int p, final ActionGraph.Entry a, final ActionGraph.Entry b) {
        final Pair x = pairOf(a, b);
        localOrder(x);
        // AO, MPI-3 eq. (26) and MPI-3.1 sec. 11.7.2: accumulates of this process to one location stay in program
        // order for the kinds accumulate_ordering names (default rar, raw, war, waw), to its own window as well.
        accumulateOrder(a, b);
        // IR: Remote actions to one other process keep program order, notified puts included: rma4j writes a
        // notified put's data at the call, like every other operation (an rma4j guarantee; --no-ir drops it).
        if (x.ra() != null && x.rb() != null && x.ra().dst == x.rb().dst && x.ra().dst != p) {
            g.edge(x.ra().id, x.rb().id, Rule.IR);
        }
        // SY: synchronization calls of one process are ordered (blocking calls issued in program order).
        if (isSync(a) && isSync(b)) {
            g.edge(x.a0(), x.b0(), Rule.SY);
        }
        flush(x);
        flushLocal(x);
        fenceBarrierWait(x);
        lock(x);
        unlock(x);
        winSync(x);
    }

    private Pair pairOf(final ActionGraph.Entry a, final ActionGraph.Entry b) {
        final Stmt.Sync sa = a.stmt() instanceof Stmt.Sync s ? s : null;
        final Stmt.Sync sb = b.stmt() instanceof Stmt.Sync s ? s : null;
        return new Pair(a, b, sa == null ? null : sa.kind(), sb == null ? null : sb.kind(),
            sa == null ? -1 : sa.target(), sb == null ? -1 : sb.target(), remoteAction(a), remoteAction(b), isLocal(a),
            isLocal(b));
    }

    /**
     * LO: a local action precedes every later action of its process. DS: where a direct load or store through
     * shared_query is one of the two, that is rma4j's volatile access order, not an MPI rule (MPI-3 sec. 3.6).
     * LB: where the later one is a barrier, that is rma4j's full-fence barrier, not MPI (Examples 11.7, 11.9).
     */
    private void localOrder(final Pair x) {
        forEach(x.a(), Action.Kind::local,
            l -> forEach(x.b(), k -> true,
                y -> g.edge(l, y,
                    g.actions.get(l).direct() || g.actions.get(y).direct()
                        ? Rule.DS
                        : x.sb() == Stmt.SyncKind.BARRIER ? Rule.LB : Rule.LO)));
    }

    /**
     * F2: the actions of a remote statement to dst are hb-before a later flush(dst) (flush_all: every dst).
     * F1: a flush is hb-before later local actions; F3: and before the actions of later remote statements to dst.
     */
    private void flush(final Pair x) {
        if (x.bIs(Stmt.SyncKind.FLUSH, Stmt.SyncKind.FLUSH_ALL)) {
            completes(x.a(), x.ra(), x.sb() == Stmt.SyncKind.FLUSH_ALL ? -1 : x.tb(), x.b0(), Rule.F2);
        }
        if (x.aIs(Stmt.SyncKind.FLUSH, Stmt.SyncKind.FLUSH_ALL)) {
            if (x.bLocal()) {
                g.edge(x.a0(), x.b0(), Rule.F1);
            }
            if (x.rb() != null && !x.rb().notified && (x.sa() == Stmt.SyncKind.FLUSH_ALL || x.rb().dst == x.ta())) {
                forEach(x.b(), k -> true, y -> g.edge(x.a0(), y, Rule.F3));
            }
        }
    }

    /**
     * FL, MPI-3 eq. (16), (17): flush_local completes the origin-side actions (a put's read of its source,
     * a get's write of its result, which PG puts after the remote read), and precedes later local actions.
     */
    private void flushLocal(final Pair x) {
        if (x.bIs(Stmt.SyncKind.FLUSH_LOCAL, Stmt.SyncKind.FLUSH_LOCAL_ALL) && x.ra() != null
            && (x.sb() == Stmt.SyncKind.FLUSH_LOCAL_ALL || x.ra().dst == x.tb())) {
            forEach(x.a(), k -> true, y -> {
                if (g.actions.get(y).originSide()) {
                    g.edge(y, x.b0(), Rule.FL);
                }
            });
        }
        if (x.aIs(Stmt.SyncKind.FLUSH_LOCAL, Stmt.SyncKind.FLUSH_LOCAL_ALL) && x.bLocal()) {
            g.edge(x.a0(), x.b0(), Rule.FL);
        }
    }

    /**
     * FE, eq. (9): everything before a fence completes at it (a notified put only locally), and a fence
     * precedes every later action of every process. BAR: so does a barrier (ses, process synchronization;
     * it completes nothing). NA: a wait returns after its notified puts, so it precedes later actions.
     */
    private void fenceBarrierWait(final Pair x) {
        if (x.sb() == Stmt.SyncKind.FENCE) {
            forEach(x.a(), k -> true, y -> {
                if (!g.actions.get(y).notified || g.actions.get(y).originSide()) {
                    g.edge(y, x.b0(), Rule.FE);
                }
            });
        }
        if (x.aIs(Stmt.SyncKind.FENCE, Stmt.SyncKind.BARRIER) || x.a().stmt() instanceof Stmt.Wait) {
            final Rule rule = x.sa() == Stmt.SyncKind.FENCE
                ? Rule.FE
                : x.sa() == Stmt.SyncKind.BARRIER ? Rule.BAR : Rule.NA;
            // LB: a barrier orders the later local loads and stores only as rma4j's full fence (not MPI).
            forEach(x.b(), k -> true,
                y -> g.edge(x.a0(), y, rule == Rule.BAR && g.actions.get(y).kind.local() ? Rule.LB : rule));
        }
    }

    /**
     * LK, eq. (10): a lock precedes later local actions and the actions of the epoch's remote statements to its
     * target (lock_all: to every target); the lock may return early, so other targets are not ordered.
     */
    private void lock(final Pair x) {
        if (x.aIs(Stmt.SyncKind.LOCK, Stmt.SyncKind.LOCK_ALL)) {
            if (x.bLocal()) {
                g.edge(x.a0(), x.b0(), Rule.LK);
            }
            if (x.rb() != null && !x.rb().notified && (x.sa() == Stmt.SyncKind.LOCK_ALL || x.rb().dst == x.ta())) {
                forEach(x.b(), k -> true, y -> g.edge(x.a0(), y, Rule.LK));
            }
        }
    }

    /**
     * UL, eq. (12)-(15) and MPI C4: unlock completes remote statements to its target at origin and target and,
     * eq. (13), precedes later local actions.
     */
    private void unlock(final Pair x) {
        if (x.bIs(Stmt.SyncKind.UNLOCK, Stmt.SyncKind.UNLOCK_ALL)) {
            completes(x.a(), x.ra(), x.sb() == Stmt.SyncKind.UNLOCK_ALL ? -1 : x.tb(), x.b0(), Rule.UL);
        }
        if (x.aIs(Stmt.SyncKind.UNLOCK, Stmt.SyncKind.UNLOCK_ALL) && x.bLocal()) {
            g.edge(x.a0(), x.b0(), Rule.UL);
        }
    }

    /**
     * WSY, eq. (18): win_sync precedes later local actions and follows earlier ones, direct loads and stores
     * of other processes' parts included (that is how MPI orders them: MPI-3.1 sec. 11.7, Example 11.21).
     */
    private void winSync(final Pair x) {
        if (x.sa() == Stmt.SyncKind.WIN_SYNC && x.bLocal()) {
            g.edge(x.a0(), x.b0(), Rule.WSY);
        }
        if (x.sb() == Stmt.SyncKind.WIN_SYNC && x.aLocal()) {
            g.edge(x.a0(), x.b0(), Rule.WSY);
        }
    }

    /** @return whether the statement is one local action. */
    private boolean isLocal(final ActionGraph.Entry e) {
        return e.actions().length == 1 && g.actions.get(e.actions()[0]).kind.local();
    }

    /**
     * AO: the target actions of two accumulates of one process to one variable, a before b, are ordered
     * if the window's accumulate_ordering names the pair's kind: rar (b reads after a read), raw (b
     * reads after a write), war, waw. acc writes, rga with no_op reads, rga and cas read and write.
     */
    private void accumulateOrder(final ActionGraph.Entry a, final ActionGraph.Entry b) {
        final boolean[] ka = accessKinds(a.stmt());
        final boolean[] kb = accessKinds(b.stmt());
        if (ka == null || kb == null || !target(a.stmt()).equals(target(b.stmt()))) {
            return;
        }
        final java.util.Set<String> orders = g.program.accumulateOrdering();
        final boolean ordered = (ka[0] && kb[0] && orders.contains("rar")) || (ka[1] && kb[0] && orders.contains("raw"))
            || (ka[0] && kb[1] && orders.contains("war")) || (ka[1] && kb[1] && orders.contains("waw"));
        if (ordered) {
            g.edge(remoteAction(a).id, remoteAction(b).id, Rule.AO);
        }
    }

    /** @return {reads, writes} of an accumulate at its target, or null for other statements. */
    private static boolean[] accessKinds(final Stmt s) {
        return switch (s) {
            case Stmt.Acc acc -> new boolean[] {false, true};
            case Stmt.Rga rga -> new boolean[] {true, rga.op() != org.rma4j.litmus.syntax.AccOp.NO_OP};
            case Stmt.Cas cas -> new boolean[] {true, true};
            default -> null;
        };
    }

    private static String target(final Stmt s) {
        return org.rma4j.litmus.syntax.Checker.remoteTarget((Stmt.Memory)s);
    }

    /**
     * F2 / UL: the actions of remote statement {@code a} to {@code target} (-1: any) are hb-before
     * {@code node}; a notified put completes only at the origin (rule NA).
     */
    private void completes(final ActionGraph.Entry a, final Action ra, final int target, final int node,
        final Rule rule) {
        if (ra == null || (target >= 0 && ra.dst != target)) {
            return;
        }
        forEach(a, k -> true, x -> {
            if (!ra.notified) {
                g.edge(x, node, rule);
            } else if (g.actions.get(x).originSide()) {
                g.edge(x, node, Rule.NA);
            }
        });
    }

    private static boolean isSync(final ActionGraph.Entry e) {
        return e.stmt() instanceof Stmt.Sync || e.stmt() instanceof Stmt.Wait || e.stmt() instanceof Stmt.Pscw;
    }

    private Action remoteAction(final ActionGraph.Entry e) {
        for (final int id : e.actions()) {
            if (g.actions.get(id).remote) {
                return g.actions.get(id);
            }
        }
        return null;
    }

    private void forEach(final ActionGraph.Entry e, final java.util.function.Predicate<Action.Kind> kind,
        final java.util.function.IntConsumer body) {
        for (final int id : e.actions()) {
            if (kind.test(g.actions.get(id).kind)) {
                body.accept(id);
            }
        }
    }
}
