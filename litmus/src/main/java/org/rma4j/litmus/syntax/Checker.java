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
 *   <li>flush, flush_all, flush_local, flush_local_all and win_sync only in a passive-target epoch
 *   (condition (6), eq. (8));</li>
 *   <li>put, get, rga and cas only inside an access epoch to their target: a lock of it, lock_all, or
 *   after a fence (condition (8));</li>
 *   <li>fences and barriers are collective: every process calls the same sequence of them (condition (3));</li>
 *   <li>every wait(source, tag, n) is matched by exactly n notified puts with that tag from source, in
 *   total per (source, target, tag).</li>
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
            checkEpochs(program, p, explicit);
        }
        checkCollectives(program);
        checkNotifications(program);
    }

    private static void checkEpochs(final Program program, final int proc, final boolean explicit) {
        final Map<Integer, Stmt.Sync> locks = new HashMap<>();
        Stmt.Sync lockAll = null;
        boolean fenced = false;
        boolean passiveUsed = false;
        for (final Stmt s : program.processes().get(proc)) {
            if (s instanceof Stmt.Sync sync) {
                switch (sync.kind()) {
                    case LOCK -> {
                        if (lockAll != null) {
                            throw error(sync, "lock inside the lock_all epoch opened at " + lockAll.pos());
                        }
                        if (locks.containsKey(sync.target())) {
                            throw error(sync, "process " + sync.target() + " is already locked (at "
                                + locks.get(sync.target()).pos() + ")");
                        }
                        locks.put(sync.target(), sync);
                        passiveUsed = true;
                    }
                    case UNLOCK -> {
                        if (locks.remove(sync.target()) == null) {
                            throw error(sync, "unlock(" + sync.target() + ") without a matching lock");
                        }
                    }
                    case LOCK_ALL -> {
                        if (lockAll != null || !locks.isEmpty()) {
                            throw error(sync, "lock_all while an epoch of lock" + (lockAll != null ? "_all" : "")
                                + " is open");
                        }
                        lockAll = sync;
                        passiveUsed = true;
                    }
                    case UNLOCK_ALL -> {
                        if (lockAll == null) {
                            throw error(sync, "unlock_all without a matching lock_all");
                        }
                        lockAll = null;
                    }
                    case FENCE -> {
                        if (lockAll != null || !locks.isEmpty()) {
                            throw error(sync, "fence inside a lock epoch (a window may not be locked and exposed"
                                + " at once)");
                        }
                        fenced = true;
                    }
                    case FLUSH, FLUSH_LOCAL -> {
                        if (explicit && lockAll == null && !locks.containsKey(sync.target())) {
                            throw error(sync, sync.kind().litmusName() + "(" + sync.target() + ") outside a passive-target"
                                + " epoch to process " + sync.target());
                        }
                    }
                    case FLUSH_ALL, FLUSH_LOCAL_ALL, WIN_SYNC -> {
                        if (explicit && lockAll == null && locks.isEmpty()) {
                            throw error(sync, sync.kind().litmusName() + " outside a passive-target epoch");
                        }
                    }
                    case BARRIER -> {
                    }
                }
                if (fenced && passiveUsed) {
                    throw error(sync, "process " + proc + " mixes fence epochs with lock epochs");
                }
            } else if (explicit && s instanceof Stmt.Memory m && !(s instanceof Stmt.PutNotify)) {
                final String target = remoteTarget(m);
                if (target != null) {
                    final int owner = program.variable(target).owner();
                    if (!fenced && lockAll == null && !locks.containsKey(owner)) {
                        throw error(s, "remote access to " + target + " (process " + owner + ") outside an access"
                            + " epoch: lock(" + owner + "), lock_all or a fence must come first");
                    }
                }
            }
        }
        if (lockAll != null) {
            throw error(lockAll, "lock_all is never closed by unlock_all");
        }
        for (final Stmt.Sync open : locks.values()) {
            throw error(open, "lock(" + open.target() + ") is never closed by unlock(" + open.target() + ")");
        }
    }

    /** @return the remote variable of a put / get / rga / cas, or null for local statements. */
    static String remoteTarget(final Stmt.Memory m) {
        return switch (m) {
            case Stmt.Put put -> put.target();
            case Stmt.Get get -> get.target();
            case Stmt.Rga rga -> rga.target();
            case Stmt.Cas cas -> cas.target();
            case Stmt.PutNotify pn -> pn.target();
            case Stmt.LocalRead r -> null;
            case Stmt.LocalWrite w -> null;
        };
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
                    throw error(other.get(k), "process " + p + " calls " + other.get(k).kind().litmusName()
                        + " as collective #" + (k + 1) + " but process 0 makes only " + first.size()
                        + " collective call(s) (fence and barrier are collective)");
                }
                if (k >= other.size()) {
                    throw error(first.get(k), "process 0 calls " + first.get(k).kind().litmusName() + " as collective #"
                        + (k + 1) + " but process " + p + " makes only " + other.size() + " collective call(s)");
                }
                if (first.get(k).kind() != other.get(k).kind()) {
                    throw error(other.get(k), "collective #" + (k + 1) + " of process " + p + " is "
                        + other.get(k).kind().litmusName() + " but that of process 0 is " + first.get(k).kind().litmusName());
                }
            }
        }
    }

    private static void checkNotifications(final Program program) {
        final Map<List<Integer>, Integer> sent = new HashMap<>();
        final Map<List<Integer>, Integer> awaited = new HashMap<>();
        final Map<List<Integer>, Stmt> where = new HashMap<>();
        for (int p = 0; p < program.processCount(); p++) {
            for (final Stmt s : program.processes().get(p)) {
                if (s instanceof Stmt.PutNotify pn) {
                    final List<Integer> key = List.of(p, program.variable(pn.target()).owner(), pn.tag());
                    sent.merge(key, 1, Integer::sum);
                    where.putIfAbsent(key, s);
                } else if (s instanceof Stmt.Wait w) {
                    final List<Integer> key = List.of(w.source(), p, w.tag());
                    awaited.merge(key, w.count(), Integer::sum);
                    where.putIfAbsent(key, s);
                }
            }
        }
        final java.util.Set<List<Integer>> keys = new java.util.HashSet<>(sent.keySet());
        keys.addAll(awaited.keySet());
        for (final List<Integer> key : keys) {
            final int s = sent.getOrDefault(key, 0);
            final int a = awaited.getOrDefault(key, 0);
            if (s != a) {
                throw error(where.get(key), "process " + key.get(0) + " sends " + s + " notified put(s) with tag "
                    + key.get(2) + " to process " + key.get(1) + ", which waits for " + a);
            }
        }
    }

    private static LitmusException error(final Stmt at, final String message) {
        return new LitmusException(at.pos(), message);
    }
}
