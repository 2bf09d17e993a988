package org.rma4j.litmus.syntax;

/**
 * A statement of a litmus process. Memory statements are those of coreRMA (Table 1: local read,
 * local write, put, get, rga, cas) plus the notified put of Notified Access; {@link Sync} covers the
 * MPI-3 synchronization calls; {@link Wait} waits for notified puts.
 *
 * <p>Variables are named by their unique name; a remote operand's owner is the variable's owner.
 */
public sealed interface Stmt {
    /** Process number or tag of a wait that matches any source or any tag (MPI_ANY_SOURCE, MPI_ANY_TAG). */
    int ANY = -1;

    /** @return where the statement is in its file. */
    SourcePos pos();

    /** @return the registers the statement assigns. */
    default java.util.List<String> assignedRegisters() {
        return java.util.List.of();
    }

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

        @Override
        public java.util.List<String> assignedRegisters() {
            return java.util.List.of(register);
        }
    }

    /**
     * {@code reg = load(var)}: a load of a variable of another process straight from its part of the
     * shared-memory window ({@code shared_query}); MPI-3.1 section 11.2.3 and 11.7 (win_sync orders it).
     */
    record Load(String register, String variable, Atomicity atomicity, SourcePos pos) implements Memory {
        @Override
        public Memory withAtomicity(final Atomicity a) {
            return new Load(register, variable, a, pos);
        }

        @Override
        public java.util.List<String> assignedRegisters() {
            return java.util.List.of(register);
        }
    }

    /** {@code store(var, expr)}: a store into another process's part of the shared-memory window ({@code shared_query}). */
    record Store(String variable, Expr value, Atomicity atomicity, SourcePos pos) implements Memory {
        @Override
        public Memory withAtomicity(final Atomicity a) {
            return new Store(variable, value, a, pos);
        }
    }

    /**
     * {@code reg = poll(var, value[, bound])}: reads var (the own part, or another process's through
     * shared_query) until it equals value, at most bound times; reg keeps the last value read. A bounded
     * loop may give up, so the model treats it as one read of any value (the last one).
     */
    record Poll(String register, String variable, long value, long bound, Atomicity atomicity,
        SourcePos pos) implements Memory {
        /** Bound of a poll that names none. */
        public static final long DEFAULT_BOUND = 10_000_000L;

        @Override
        public Memory withAtomicity(final Atomicity a) {
            return new Poll(register, variable, value, bound, a, pos);
        }

        @Override
        public java.util.List<String> assignedRegisters() {
            return java.util.List.of(register);
        }
    }

    /** {@code acc(target, operand[, op])}: MPI_Accumulate of one element (op SUM by default), no result. */
    record Acc(String target, String operand, AccOp op, Atomicity atomicity, SourcePos pos) implements Memory {
        @Override
        public Memory withAtomicity(final Atomicity a) {
            return new Acc(target, operand, op, a, pos);
        }
    }

    /** {@code dest = get_notify(target, tag)}: a get that notifies the target with tag once the data is read. */
    record GetNotify(String dest, String target, int tag, Atomicity atomicity, SourcePos pos) implements Memory {
        @Override
        public Memory withAtomicity(final Atomicity a) {
            return new GetNotify(dest, target, tag, a, pos);
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
    record Rga(String dest, String target, String operand, AccOp op, Atomicity atomicity,
        SourcePos pos) implements Memory {
        @Override
        public Memory withAtomicity(final Atomicity a) {
            return new Rga(dest, target, operand, op, a, pos);
        }
    }

    /** {@code dest = cas(target, compare, swap)}: if target equals compare it becomes swap; dest gets the old value. */
    record Cas(String dest, String target, String compare, String swap, Atomicity atomicity,
        SourcePos pos) implements Memory {
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

    /**
     * {@code [src[, tag] =] wait(source, tag[, count])}: waits for count notified accesses from source
     * with tag ({@link #ANY}: any source, any tag); the optional registers receive the matched status
     * (the source and tag of the last notification matched).
     */
    record Wait(int source, int tag, int count, String sourceRegister, String tagRegister,
        SourcePos pos) implements Stmt {
        public Wait(final int source, final int tag, final int count, final SourcePos pos) {
            this(source, tag, count, null, null, pos);
        }

        /** @return whether the wait matches any source or any tag. */
        public boolean wildcard() {
            return source == ANY || tag == ANY;
        }

        /** @return whether a notification from {@code from} with {@code withTag} matches. */
        public boolean matches(final int from, final int withTag) {
            return (source == ANY || source == from) && (tag == ANY || tag == withTag);
        }

        @Override
        public java.util.List<String> assignedRegisters() {
            final java.util.List<String> regs = new java.util.ArrayList<>();
            if (sourceRegister != null) {
                regs.add(sourceRegister);
            }
            if (tagRegister != null) {
                regs.add(tagRegister);
            }
            return regs;
        }
    }

    /**
     * A general active-target call (MPI-3.1 section 11.5.2): {@code post(group)} and {@code win_wait}
     * / {@code win_test} at a target, {@code start(group)} and {@code complete} at an origin.
     *
     * @param group the processes of post and start (empty for complete, win_wait, win_test).
     */
    record Pscw(PscwKind kind, java.util.List<Integer> group, SourcePos pos) implements Stmt {
        public Pscw {
            group = java.util.List.copyOf(group);
        }
    }

    /** The PSCW calls with their litmus names; win_test polls MPI_Win_test until it returns true. */
    enum PscwKind {
        POST("post"), START("start"), COMPLETE("complete"), WAIT("win_wait"), TEST("win_test");

        private final String litmusName;

        PscwKind(final String litmusName) {
            this.litmusName = litmusName;
        }

        public String litmusName() {
            return litmusName;
        }

        /** @return whether the call takes a group. */
        public boolean hasGroup() {
            return this == POST || this == START;
        }

        /** @return whether the call ends an exposure epoch (win_wait, win_test). */
        public boolean endsExposure() {
            return this == WAIT || this == TEST;
        }

        /** @return the kind named {@code name}, or null. */
        public static PscwKind byName(final String name) {
            for (final PscwKind k : values()) {
                if (k.litmusName.equals(name)) {
                    return k;
                }
            }
            return null;
        }
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
        FLUSH("flush", true), FLUSH_ALL("flush_all", false), FLUSH_LOCAL("flush_local", true), FLUSH_LOCAL_ALL(
            "flush_local_all",
            false), WIN_SYNC("win_sync", false), BARRIER("barrier", false), FENCE("fence", false), LOCK("lock",
                true), UNLOCK("unlock", true), LOCK_ALL("lock_all", false), UNLOCK_ALL("unlock_all", false);

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
