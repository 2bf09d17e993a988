package org.rma4j.litmus.model;

import org.rma4j.litmus.syntax.AccOp;
import org.rma4j.litmus.syntax.Expr;
import org.rma4j.litmus.syntax.Stmt;

/**
 * An action of an execution (coreRMA section 4, Table 3): a local read or write, an external read,
 * write or read-write of a remote statement, a synchronization, or one of the model's own initial
 * writes and final reads. Fields are filled by {@link ActionGraph}.
 */
public final class Action {
    /** Action types: coreRMA's r, w, er, ew, erw and flush (here every synchronization), plus init and final. */
    public enum Kind {
        INIT, LOCAL_READ, LOCAL_WRITE, EXT_READ, EXT_WRITE, EXT_RW, SYNC, FINAL;

        public boolean reads() {
            return this == LOCAL_READ || this == EXT_READ || this == EXT_RW || this == FINAL;
        }

        public boolean writes() {
            return this == INIT || this == LOCAL_WRITE || this == EXT_WRITE || this == EXT_RW;
        }

        /** @return whether this is a Local action (coreRMA: r, w). */
        public boolean local() {
            return this == LOCAL_READ || this == LOCAL_WRITE;
        }
    }

    final int id;
    final Kind kind;
    /** Process in whose program order the action is; -1 for init, final and collective nodes. */
    final int proc;
    /** Location (variable index) read and / or written, or -1. */
    final int loc;
    final boolean atomic;
    /** Process whose memory the action touches (memory actions) or that a flush / lock names (-1: all). */
    final int dst;
    /** The statement the action belongs to, or null. */
    final Stmt stmt;
    /** Statement instance number (actions of one statement share it), or -1. */
    final int group;
    /** coreRMA's Remote: the action of a remote statement that touches the target (ew of put, er of get, erw). */
    final boolean remote;
    /** Whether the action belongs to a notified put (its own epoch: no IR, flush / unlock complete it locally only). */
    final boolean notified;

    // value recipe
    /** EXT_WRITE: the action whose read value is written; EXT_RW: the operand (rga) or compare value (cas). */
    int source = -1;
    /** EXT_RW of a cas: the action that read the swap value. */
    int swap = -1;
    /** EXT_RW of an rga. */
    AccOp op;
    /** EXT_RW of a cas. */
    boolean cas;
    /** LOCAL_WRITE: the value. */
    Expr expr;
    /** LOCAL_WRITE: for each register the expression uses, the last local read assigning it (or -1). */
    java.util.Map<String, Integer> registerSources = java.util.Map.of();
    /** LOCAL_READ: the register it assigns. */
    String register;
    /** INIT: the initial value. */
    long initValue;

    Action(final int id, final Kind kind, final int proc, final int loc, final boolean atomic, final int dst,
        final Stmt stmt, final int group, final boolean remote, final boolean notified) {
        this.id = id;
        this.kind = kind;
        this.proc = proc;
        this.loc = loc;
        this.atomic = atomic;
        this.dst = dst;
        this.stmt = stmt;
        this.group = group;
        this.remote = remote;
        this.notified = notified;
    }

    /** @return whether the action is a direct load or store of another process's part (shared_query). */
    boolean direct() {
        return kind.local() && dst != proc;
    }

    /** @return whether the action runs at its own process (not at a remote target). */
    boolean originSide() {
        return dst == proc;
    }

    @Override
    public String toString() {
        return "#" + id + " " + kind + (proc >= 0 ? " P" + proc : "") + (loc >= 0 ? " loc" + loc : "")
            + (stmt != null ? " [" + stmt.getClass().getSimpleName() + "]" : "");
    }
}
