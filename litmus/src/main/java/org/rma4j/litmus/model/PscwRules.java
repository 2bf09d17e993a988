package org.rma4j.litmus.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.rma4j.litmus.syntax.Stmt;

/**
 * Rule PSCW, general active-target synchronization (MPI-3.1 section 11.5.2, Figures 11.2 and 11.3;
 * MPI-3 paper section 2.3). The k-th start of origin O naming target T matches the k-th post of T
 * naming O. For each match:
 * <ul>
 *   <li>the post is hb-before every action of O's RMA calls to T between the start and its complete
 *   ("the access to the target window is delayed until the window is exposed, after the post"; start
 *   itself may return earlier, so it orders nothing);</li>
 *   <li>the origin-side actions of those calls are hb-before the complete (it completes them at the
 *   origin), every action of them is hb-before T's win_wait / win_test that closes the post (the
 *   target's epoch ends after they are complete at the target), and the complete is hb-before that
 *   win_wait (it returns only after every origin has completed);</li>
 * </ul>
 * the post is hb-before the start too: MPI lets start block until the post and rma4j's does, so a
 * program that would deadlock then has no execution. For every process, win_wait / win_test is
 * hb-before all its later actions, complete before its later local actions. Notified accesses are their own epoch and are not ordered here.
 */
final class PscwRules {
    /** One access or exposure epoch: its opening and closing statements' positions, and the group. */
    private record Epoch(int open, int close, List<Integer> group) {
    }

    private final ActionGraph g;

    PscwRules(final ActionGraph g) {
        this.g = g;
    }

    void apply() {
        final Map<List<Integer>, List<Epoch>> accessByPair = new HashMap<>();
        final Map<List<Integer>, List<Epoch>> exposureByPair = new HashMap<>();
        for (int p = 0; p < g.order.size(); p++) {
            final List<ActionGraph.Entry> entries = g.order.get(p);
            int open = -1;
            int post = -1;
            for (int i = 0; i < entries.size(); i++) {
                if (!(entries.get(i).stmt() instanceof Stmt.Pscw pscw)) {
                    continue;
                }
                switch (pscw.kind()) {
                    case START -> open = i;
                    case POST -> post = i;
                    case COMPLETE -> {
                        final Stmt.Pscw start = (Stmt.Pscw)entries.get(open).stmt();
                        final Epoch e = new Epoch(open, i, start.group());
                        for (final int t : start.group()) {
                            accessByPair.computeIfAbsent(List.of(p, t), k -> new ArrayList<>()).add(e);
                        }
                        laterLocal(p, i);
                    }
                    case WAIT, TEST -> {
                        final Stmt.Pscw posted = (Stmt.Pscw)entries.get(post).stmt();
                        final Epoch e = new Epoch(post, i, posted.group());
                        for (final int o : posted.group()) {
                            exposureByPair.computeIfAbsent(List.of(o, p), k -> new ArrayList<>()).add(e);
                        }
                        laterAll(p, i);
                    }
                }
            }
        }
        for (final Map.Entry<List<Integer>, List<Epoch>> pair : accessByPair.entrySet()) {
            final int origin = pair.getKey().get(0);
            final int target = pair.getKey().get(1);
            final List<Epoch> exposures = exposureByPair.getOrDefault(pair.getKey(), List.of());
            for (int k = 0; k < pair.getValue().size() && k < exposures.size(); k++) {
                match(origin, target, pair.getValue().get(k), exposures.get(k));
            }
        }
    }

    private void match(final int origin, final int target, final Epoch access, final Epoch exposure) {
        final List<ActionGraph.Entry> o = g.order.get(origin);
        final List<ActionGraph.Entry> t = g.order.get(target);
        final int post = t.get(exposure.open()).actions()[0];
        final int complete = o.get(access.close()).actions()[0];
        final int wait = t.get(exposure.close()).actions()[0];
        g.edge(complete, wait, Rule.PSCW);
        // start may block until the matching post (MPI-3.1 11.5.2; rma4j's does), so a correct program survives it.
        g.edge(post, o.get(access.open()).actions()[0], Rule.PSCW);
        for (int i = access.open() + 1; i < access.close(); i++) {
            final ActionGraph.Entry e = o.get(i);
            if (!toTarget(e, target)) {
                continue;
            }
            for (final int id : e.actions()) {
                g.edge(post, id, Rule.PSCW);
                g.edge(id, wait, Rule.PSCW);
                if (g.actions.get(id).originSide()) {
                    g.edge(id, complete, Rule.PSCW);
                }
            }
        }
    }

    /** @return whether the entry is an RMA call (not notified) whose remote action is at {@code target}. */
    private boolean toTarget(final ActionGraph.Entry e, final int target) {
        for (final int id : e.actions()) {
            final Action a = g.actions.get(id);
            if (a.remote && !a.notified && a.dst == target) {
                return true;
            }
        }
        return false;
    }

    private void laterLocal(final int p, final int at) {
        final List<ActionGraph.Entry> entries = g.order.get(p);
        for (int j = at + 1; j < entries.size(); j++) {
            for (final int id : entries.get(j).actions()) {
                if (g.actions.get(id).kind.local()) {
                    g.edge(entries.get(at).actions()[0], id, Rule.PSCW);
                }
            }
        }
    }

    private void laterAll(final int p, final int at) {
        final List<ActionGraph.Entry> entries = g.order.get(p);
        for (int j = at + 1; j < entries.size(); j++) {
            for (final int id : entries.get(j).actions()) {
                g.edge(entries.get(at).actions()[0], id, Rule.PSCW);
            }
        }
    }
}
