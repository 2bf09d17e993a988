package org.rma4j.shm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A process-local lock whose first taker owns it without atomic instructions: the owner enters with a plain
 * store and a load and leaves with a release store, as long as no other thread wants the lock; the first other
 * thread that does <em>revokes</em> the bias once (one {@link Membarrier#globalExpedited()}), after which every
 * thread, the owner included, takes the lock with a CAS. For structures with one writer per process that a
 * second thread of the process may sometimes share (a rank's notification lane at a target): the common
 * single-threaded sender pays no locked instruction, which would wait for the sender's earlier stores to reach
 * other cores (x86 locked instructions drain the store buffer).
 *
 * <pre>
 *   fields (accessed through var handles, never in plain mode):
 *     inside (int)   1 while the owner holds the lock on its fast path; written by the owner only
 *     state (int)    BIASED, REVOKING (a revoker is issuing its membarrier), REVOKED
 *     locked (int)   1 while a thread holds the lock by CAS (after revocation, or without membarrier)
 * </pre>
 *
 * <p><b>Protocol.</b> Owner: {@code inside = 1} (opaque); if {@code state == BIASED} it holds the lock; else
 * {@code inside = 0} (release) and it takes the CAS path. Revoker: CAS {@code state} BIASED to REVOKING,
 * {@code membarrier(GLOBAL_EXPEDITED)}, {@code state = REVOKED}; then, like every later thread, it may take the
 * lock only when {@code inside == 0}, by CAS of {@code locked}. Why no two threads hold it: the membarrier
 * returns only after the owner's thread passed a point where its accesses match program order. If the owner's
 * {@code inside = 1} came before that point, it is visible to the revoker's later load, which waits for the
 * owner's release store of 0; otherwise the owner's load of {@code state}, after its store, comes after that
 * point too and sees REVOKING or REVOKED, and the owner does not enter. The owner's release store of
 * {@code inside = 0} pairs with the revoker's volatile load of it, so the next holder sees the owner's writes;
 * CAS holders hand over by a release store of {@code locked} and a CAS.
 *
 * <p>Program order of the owner's store and load through the compiler: the Java memory model lets a store move
 * after a later load of another variable unless both are volatile, and a volatile store costs the locked
 * instruction this lock avoids. The store is therefore an opaque access through a var handle, which HotSpot's
 * compilers keep in program order with every other access (C2 wraps each var handle access stronger than plain
 * in CPU-order barriers, {@code C2Access::needs_cpu_membar}; C1 and the interpreter do not reorder), and the
 * processor's own reordering of the two is what the membarrier covers. Fields instead of an off-heap block: a
 * field access has no segment checks (an uncontended lock and unlock cost 0.6 ns instead of 2.2 in one thread).
 *
 * <p>Where membarrier is not available ({@link Membarrier#isGlobalExpeditedSupported()} false, or this process
 * could not register) the lock is never biased: every thread takes it by CAS. Not reentrant. {@link #tryLock}
 * never blocks: a caller that gets {@link #NOT_TAKEN} waits its own way (spin, park, with liveness checks).
 */
public final class BiasedLock {
    public static final int NOT_TAKEN = 0;
    public static final int TAKEN_BIASED = 1;
    public static final int TAKEN_CAS = 2;

    static final int BIASED = 0;
    static final int REVOKING = 1;
    static final int REVOKED = 2;

    private static final VarHandle INSIDE;
    private static final VarHandle STATE;
    private static final VarHandle LOCKED;
    private static final VarHandle OWNER;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            INSIDE = lookup.findVarHandle(BiasedLock.class, "inside", int.class);
            STATE = lookup.findVarHandle(BiasedLock.class, "state", int.class);
            LOCKED = lookup.findVarHandle(BiasedLock.class, "locked", int.class);
            OWNER = lookup.findVarHandle(BiasedLock.class, "owner", Thread.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The thread the lock is biased to, or null before its first taker. */
    @SuppressWarnings("unused")
    private volatile Thread owner;
    @SuppressWarnings("unused")
    private int inside;
    @SuppressWarnings("unused")
    private volatile int state;
    @SuppressWarnings("unused")
    private int locked;

    /**
     * A lock that may be biased to its first taker where membarrier is available.
     */
    public BiasedLock() {
        this(Membarrier.registerGlobalExpedited());
    }

    /**
     * @param biasable false for a lock that every thread takes by CAS (tests, comparisons).
     */
    public BiasedLock(final boolean biasable) {
        STATE.setRelease(this, biasable ? BIASED : REVOKED);
    }

    /**
     * Tries to take the lock once, without waiting.
     *
     * @return {@link #NOT_TAKEN}, or how it was taken ({@link #TAKEN_BIASED}, {@link #TAKEN_CAS}), for
     *         {@link #unlock}.
     */
    public int tryLock() {
        // NOTE: the owner's fast path is a method of its own, small enough for the JIT to inline at every call.
        if (owner == Thread.currentThread()) {
            // NOTE: opaque, not plain, and no fence before the load below: the compiler keeps the two in program
            // order, a revoker's membarrier the processor (class comment).
            INSIDE.setOpaque(this, 1);
            if ((int)STATE.getVolatile(this) == BIASED) {
                return TAKEN_BIASED;
            }
            INSIDE.setRelease(this, 0);
        }
        return tryLockSlowly();
    }

    private int tryLockSlowly() {
        final int current = (int)STATE.getVolatile(this);
        if (current != REVOKED) {
            final Thread me = Thread.currentThread();
            if (owner == null && current == BIASED && OWNER.compareAndSet(this, null, me)) {
                return tryLock(); // the first taker: now the owner
            }
            if (owner != me && current == BIASED) {
                revoke();
            }
            if ((int)STATE.getVolatile(this) != REVOKED) {
                return NOT_TAKEN; // another thread is revoking: its membarrier is not over yet
            }
        }
        if ((int)INSIDE.getVolatile(this) != 0) {
            return NOT_TAKEN; // the owner is still inside on its fast path
        }
        return (boolean)LOCKED.compareAndSet(this, 0, 1) ? TAKEN_CAS : NOT_TAKEN;
    }

    /**
     * Gives the lock back.
     *
     * @param taken what {@link #tryLock} returned (not {@link #NOT_TAKEN}).
     */
    public void unlock(final int taken) {
        if (taken == TAKEN_BIASED) {
            INSIDE.setRelease(this, 0);
        } else {
            LOCKED.setRelease(this, 0);
        }
    }

    /**
     * @return whether the lock is still biased to its owner (or to its first taker).
     */
    public boolean isBiased() {
        return (int)STATE.getVolatile(this) == BIASED;
    }

    private void revoke() {
        if ((boolean)STATE.compareAndSet(this, BIASED, REVOKING)) {
            Membarrier.globalExpedited();
            STATE.setVolatile(this, REVOKED);
        }
    }

    @Override
    public String toString() {
        final int current = (int)STATE.getVolatile(this);
        return "BiasedLock{" + (current == BIASED ? "biased to " + owner : current == REVOKING ? "revoking" : "revoked")
            + ", inside=" + (int)INSIDE.getVolatile(this) + ", locked=" + (int)LOCKED.getVolatile(this) + '}';
    }
}
