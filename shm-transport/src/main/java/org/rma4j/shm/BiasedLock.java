package org.rma4j.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
 *   words (a private 128-byte block, accessed as off-heap memory so that the compiler keeps each thread's
 *   accesses to them in program order):
 *     0   inside (int)  1 while the owner holds the lock on its fast path; written by the owner only
 *     4   state (int)   BIASED, REVOKING (a revoker is issuing its membarrier), REVOKED
 *     64  locked (int)  1 while a thread holds the lock by CAS (after revocation, or without membarrier)
 * </pre>
 *
 * <p><b>Protocol.</b> Owner: {@code inside = 1}; if {@code state == BIASED} it holds the lock; else
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
 * <p>Where membarrier is not available ({@link Membarrier#isGlobalExpeditedSupported()} false, or this process
 * could not register) the lock is never biased: every thread takes it by CAS. Not reentrant. {@link #tryLock}
 * never blocks: a caller that gets {@link #NOT_TAKEN} waits its own way (spin, park, with liveness checks).
 */
public final class BiasedLock {
    // NOTE: var handles of this class, not the shared Words accessors: each call site here keeps its own
    // profile of the segment type, so the JIT inlines the accesses (a shared accessor sees every segment type).
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    /** {@link #tryLock}: not taken (another thread holds it, or a revocation is under way). */
    public static final int NOT_TAKEN = 0;
    /** {@link #tryLock}: taken by the owner on its fast path; pass to {@link #unlock}. */
    public static final int TAKEN_BIASED = 1;
    /** {@link #tryLock}: taken by CAS; pass to {@link #unlock}. */
    public static final int TAKEN_CAS = 2;

    static final long INSIDE_OFFSET = 0;
    static final long STATE_OFFSET = 4;
    static final long LOCKED_OFFSET = Align.CACHE_LINE;
    static final int BIASED = 0;
    static final int REVOKING = 1;
    static final int REVOKED = 2;

    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(BiasedLock.class, "owner", Thread.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final MemorySegment words = Arena.ofAuto().allocate(Align.PAD, Align.PAD);
    /** The thread the lock is biased to, or null before its first taker. */
    @SuppressWarnings("unused")
    private volatile Thread owner;

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
        INT.setRelease(words, STATE_OFFSET, biasable ? BIASED : REVOKED);
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
            INT.set(words, INSIDE_OFFSET, 1);
            // NOTE: no fence between this store and the load below: a revoker's membarrier orders them (class
            // comment); off-heap accesses keep their program order through the compiler.
            if ((int)INT.getVolatile(words, STATE_OFFSET) == BIASED) {
                return TAKEN_BIASED;
            }
            INT.setRelease(words, INSIDE_OFFSET, 0);
        }
        return tryLockSlowly();
    }

    private int tryLockSlowly() {
        final int state = (int)INT.getVolatile(words, STATE_OFFSET);
        if (state != REVOKED) {
            final Thread me = Thread.currentThread();
            if (owner == null && state == BIASED && OWNER.compareAndSet(this, null, me)) {
                return tryLock(); // the first taker: now the owner
            }
            if (owner != me && state == BIASED) {
                revoke();
            }
            if ((int)INT.getVolatile(words, STATE_OFFSET) != REVOKED) {
                return NOT_TAKEN; // another thread is revoking: its membarrier is not over yet
            }
        }
        if ((int)INT.getVolatile(words, INSIDE_OFFSET) != 0) {
            return NOT_TAKEN; // the owner is still inside on its fast path
        }
        return (boolean)INT.compareAndSet(words, LOCKED_OFFSET, 0, 1) ? TAKEN_CAS : NOT_TAKEN;
    }

    /**
     * Gives the lock back.
     *
     * @param taken what {@link #tryLock} returned (not {@link #NOT_TAKEN}).
     */
    public void unlock(final int taken) {
        if (taken == TAKEN_BIASED) {
            INT.setRelease(words, INSIDE_OFFSET, 0);
        } else {
            INT.setRelease(words, LOCKED_OFFSET, 0);
        }
    }

    /**
     * @return whether the lock is still biased to its owner (or to its first taker).
     */
    public boolean isBiased() {
        return (int)INT.getVolatile(words, STATE_OFFSET) == BIASED;
    }

    private void revoke() {
        if ((boolean)INT.compareAndSet(words, STATE_OFFSET, BIASED, REVOKING)) {
            Membarrier.globalExpedited();
            INT.setVolatile(words, STATE_OFFSET, REVOKED);
        }
    }

    @Override
    public String toString() {
        final int state = (int)INT.getVolatile(words, STATE_OFFSET);
        return "BiasedLock{" + (state == BIASED ? "biased to " + owner : state == REVOKING ? "revoking" : "revoked")
            + ", inside=" + (int)INT.getVolatile(words, INSIDE_OFFSET) + ", locked="
            + (int)INT.getVolatile(words, LOCKED_OFFSET) + '}';
    }
}
