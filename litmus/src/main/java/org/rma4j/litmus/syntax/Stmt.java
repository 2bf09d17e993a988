package org.rma4j.litmus.syntax;

/**
 * A statement of a litmus process. Memory statements are those of coreRMA (Table 1: local read,
 * local write, put, get, rga, cas) plus the notified put of Notified Access; {@link Sync} covers the
 * MPI-3 synchronization calls; {@link Wait} waits for notified puts.
 *
 * <p>Variables are named by their unique name; a remote operand's owner is the variable's owner.
 */
public sealed interface Stmt {
    /** @return where the statement is in its file. */
    SourcePos pos();

    /** A statement that touches memory, with its atomicity. */
    sealed interface Memory extends Stmt {
        Atomicity atomicity();

        /** @return a copy with another atomicity. */
        Memory withAtomicity(Atomicity atomicity);
    }

    /** {@code reg = var}: local read of a variable the process owns. */
    record LocalRead(String register, String variable, Atomicity atomicity, SourcePos pos) implements Memory {
        @Override
        public Memory withAtomicity(final Atomicity a) {
            return new LocalRead(register, variable, a, pos);
        }
    }

    /** {@code var = expr}: local write of a variable the process owns. */
    record LocalWrite(String variable, Expr value, Atomicity atomicity, SourcePos pos) implements Memory {
        @Override
        public Memory withAtomicity(final Atomicity a) {
            return new LocalWrite(variable, value, a, pos);
        }
    }

    /** {@code put(target, source)}: the owner of target receives the value of local variable source. */
    record Put(String target, String source, Atomicity atomicity, SourcePos pos) implements Memory {
        @Override
        public Memory withAtomicity(final Atomicity a) {
            return new Put(target, source, a, pos);
        }
    }

    /** {@code dest = get(target)}: local variable dest receives the value of target. */
    record Get(String dest, String target, Atomicity atomicity, SourcePos pos) implements Memory {
        @Override
        public Memory withAtomicity(final Atomicity a) {
            return new Get(dest, target, a, pos);
        }
    }

    /** {@code dest = rga(target, operand, op)}: get-accumulate; dest receives target's old value. */
    record Rga(String dest, String target, String operand, AccOp op, Atomicity atomicity, SourcePos pos)
        implements Memory {
        @Override
        public Memory withAtomicity(final Atomicity a) {
            return new Rga(dest, target, operand, op, a, pos);
        }
    }

    /** {@code dest = cas(target, compare, swap)}: if target equals compare it becomes swap; dest gets the old value. */
    record Cas(String dest, String target, String compare, String swap, Atomicity atomicity, SourcePos pos)
        implements Memory {
        @Override
        public Memory withAtomicity(final Atomicity a) {
            return new Cas(dest, target, compare, swap, a, pos);
        }
    }

    /** {@code put_notify(target, source, tag)}: a put that also notifies the target with tag. */
    record PutNotify(String target, String source, int tag, Atomicity atomicity, SourcePos pos) implements Memory {
        @Override
        public Memory withAtomicity(final Atomicity a) {
            return new PutNotify(target, source, tag, a, pos);
        }
    }

    /** {@code wait(source, tag[, count])}: waits for count notified puts from source with tag. */
    record Wait(int source, int tag, int count, SourcePos pos) implements Stmt {
    }

    /**
     * A synchronization call.
     *
     * @param kind      which call.
     * @param target    the target process of flush, flush_local, lock and unlock; -1 otherwise.
     * @param exclusive for lock: exclusive (true) or shared.
     */
    record Sync(SyncKind kind, int target, boolean exclusive, SourcePos pos) implements Stmt {
    }

    /** The synchronization calls, with their litmus names. */
    enum SyncKind {
        FLUSH("flush", true), FLUSH_ALL("flush_all", false), FLUSH_LOCAL("flush_local", true),
        FLUSH_LOCAL_ALL("flush_local_all", false), WIN_SYNC("win_sync", false), BARRIER("barrier", false),
        FENCE("fence", false), LOCK("lock", true), UNLOCK("unlock", true), LOCK_ALL("lock_all", false),
        UNLOCK_ALL("unlock_all", false);

        private final String litmusName;
        private final boolean hasTarget;

        SyncKind(final String litmusName, final boolean hasTarget) {
            this.litmusName = litmusName;
            this.hasTarget = hasTarget;
        }

        public String litmusName() {
            return litmusName;
        }

        /** @return whether the call names a target process. */
        public boolean hasTarget() {
            return hasTarget;
        }

        /** @return whether the call is collective (every process calls it, matched by order). */
        public boolean collective() {
            return this == FENCE || this == BARRIER;
        }

        /** @return the kind named {@code name} in a litmus file, or null. */
        public static SyncKind byName(final String name) {
            for (final SyncKind kind : values()) {
                if (kind.litmusName.equals(name)) {
                    return kind;
                }
            }
            return null;
        }
    }
}
