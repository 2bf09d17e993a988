package org.rma4j.litmus.syntax;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;

/**
 * The epoch rules of one process, checked statement by statement in program order (MPI-3 RMA paper,
 * section 3.1, conditions (2), (4), (6), (8); MPI-3.1 section 11.5.2 for post / start / complete /
 * wait): the state is the open lock epochs, the open lock_all, whether a fence or a lock was seen, and
 * the open access (start) and exposure (post) epochs. See {@link Checker} for the rules in words.
 */
final class EpochChecker {
    private final Program program;
    private final int proc;
    /** Whether the program has explicit epochs (otherwise it runs in one implicit lock_all epoch). */
    private final boolean explicit;
    /** The open lock epochs, by target. */
    private final Map<Integer, Stmt.Sync> locks = new HashMap<>();
    private Stmt.Sync lockAll;
    private boolean fenced;
    private boolean passiveUsed;
    private boolean pscwUsed;
    private Stmt.Pscw started;
    private Stmt.Pscw posted;

    EpochChecker(final Program program, final int proc, final boolean explicit) {
        this.program = program;
        this.proc = proc;
        this.explicit = explicit;
    }

    /**
     * @throws LitmusException at the first statement of the process that breaks an epoch rule, or at an
     *                         epoch left open at the end.
     */
    void check() {
        for (final Stmt s : program.processes().get(proc)) {
            switch (s) {
                case Stmt.Pscw pscw -> pscw(pscw);
                case Stmt.Sync sync -> sync(sync);
                case Stmt.Memory m -> memory(m);
                default -> {
                }
            }
        }
        allClosed();
    }

    /** post / start / complete / win_wait / win_test: they pair up and are not mixed with fence or lock epochs. */
    private void pscw(final Stmt.Pscw pscw) {
        pscwUsed = true;
        if (pscw.group().contains(proc) || pscw.group().size() != new HashSet<>(pscw.group()).size()) {
            throw Checker.error(pscw,
                "the group of " + pscw.kind().litmusName() + " names process " + proc + " itself or a process twice");
        }
        switch (pscw.kind()) {
            case START -> {
                if (started != null) {
                    throw Checker.error(pscw,
                        "start while the access epoch of the start at " + started.pos() + " is open");
                }
                started = pscw;
            }
            case COMPLETE -> {
                if (started == null) {
                    throw Checker.error(pscw, "complete without a matching start");
                }
                started = null;
            }
            case POST -> {
                if (posted != null) {
                    throw Checker.error(pscw,
                        "post while the exposure epoch of the post at " + posted.pos() + " is open");
                }
                posted = pscw;
            }
            case WAIT, TEST -> {
                if (posted == null) {
                    throw Checker.error(pscw, pscw.kind().litmusName() + " without a matching post");
                }
                posted = null;
            }
        }
        if (fenced || passiveUsed) {
            throw Checker.error(pscw, "process " + proc + " mixes post/start/complete/wait with fence or lock epochs");
        }
    }

    /** A synchronization call: its own rule, then the rules against mixing epoch kinds. */
    private void sync(final Stmt.Sync sync) {
        switch (sync.kind()) {
            case LOCK -> lock(sync);
            case UNLOCK -> unlock(sync);
            case LOCK_ALL -> lockAll(sync);
            case UNLOCK_ALL -> unlockAll(sync);
            case FENCE -> fence(sync);
            case FLUSH, FLUSH_LOCAL -> flush(sync);
            case FLUSH_ALL, FLUSH_LOCAL_ALL -> flushAll(sync);
            case WIN_SYNC, BARRIER -> {
            }
        }
        if (fenced && passiveUsed) {
            throw Checker.error(sync, "process " + proc + " mixes fence epochs with lock epochs");
        }
        if (pscwUsed && (sync.kind() == Stmt.SyncKind.FENCE || sync.kind() == Stmt.SyncKind.LOCK
            || sync.kind() == Stmt.SyncKind.LOCK_ALL)) {
            throw Checker.error(sync, "process " + proc + " mixes post/start/complete/wait with fence or lock epochs");
        }
    }

    /** lock(t): not inside lock_all, not of a target already locked (eq. (4), (5)). */
    private void lock(final Stmt.Sync sync) {
        if (lockAll != null) {
            throw Checker.error(sync, "lock inside the lock_all epoch opened at " + lockAll.pos());
        }
        if (locks.containsKey(sync.target())) {
            throw Checker.error(sync,
                "process " + sync.target() + " is already locked (at " + locks.get(sync.target()).pos() + ")");
        }
        locks.put(sync.target(), sync);
        passiveUsed = true;
    }

    private void unlock(final Stmt.Sync sync) {
        if (locks.remove(sync.target()) == null) {
            throw Checker.error(sync, "unlock(" + sync.target() + ") without a matching lock");
        }
    }

    private void lockAll(final Stmt.Sync sync) {
        if (lockAll != null || !locks.isEmpty()) {
            throw Checker.error(sync, "lock_all while an epoch of lock" + (lockAll != null ? "_all" : "") + " is open");
        }
        lockAll = sync;
        passiveUsed = true;
    }

    private void unlockAll(final Stmt.Sync sync) {
        if (lockAll == null) {
            throw Checker.error(sync, "unlock_all without a matching lock_all");
        }
        lockAll = null;
    }

    /** fence: not inside a lock epoch (condition (4)). */
    private void fence(final Stmt.Sync sync) {
        if (lockAll != null || !locks.isEmpty()) {
            throw Checker.error(sync,
                "fence inside a lock epoch (a window may not be locked and exposed" + " at once)");
        }
        fenced = true;
    }

    /** flush(t), flush_local(t): inside a passive-target epoch to t (condition (6)). */
    private void flush(final Stmt.Sync sync) {
        if (explicit && lockAll == null && !locks.containsKey(sync.target())) {
            throw Checker.error(sync, sync.kind().litmusName() + "(" + sync.target() + ") outside a passive-target"
                + " epoch to process " + sync.target());
        }
    }

    /** flush_all, flush_local_all: inside some passive-target epoch (condition (6)). */
    private void flushAll(final Stmt.Sync sync) {
        if (explicit && lockAll == null && locks.isEmpty()) {
            throw Checker.error(sync, sync.kind().litmusName() + " outside a passive-target epoch");
        }
    }

    /**
     * An RMA call (not a notified one, which needs no epoch) inside an access epoch to its target:
     * a fence, lock_all, a lock of it or a start naming it (condition (8)).
     */
    private void memory(final Stmt.Memory m) {
        if (!explicit || m instanceof Stmt.PutNotify || m instanceof Stmt.GetNotify) {
            return;
        }
        final String target = Checker.remoteTarget(m);
        if (target == null) {
            return;
        }
        final int owner = program.variable(target).owner();
        if (!fenced && lockAll == null && !locks.containsKey(owner)
            && (started == null || !started.group().contains(owner))) {
            throw Checker.error(m, "remote access to " + target + " (process " + owner + ") outside an access"
                + " epoch: lock(" + owner + "), lock_all, start(" + owner + ") or a fence must come first");
        }
    }

    /** Every epoch is closed by the end of the process. */
    private void allClosed() {
        if (started != null) {
            throw Checker.error(started, "start is never closed by complete");
        }
        if (posted != null) {
            throw Checker.error(posted, "post is never closed by win_wait or win_test");
        }
        if (lockAll != null) {
            throw Checker.error(lockAll, "lock_all is never closed by unlock_all");
        }
        for (final Stmt.Sync open : locks.values()) {
            throw Checker.error(open, "lock(" + open.target() + ") is never closed by unlock(" + open.target() + ")");
        }
    }
}
