package org.rma4j.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The wait-word convention: a 32-bit value that peers wait on, immediately followed by a 32-bit
 * sleeper count in which a waiter announces itself before it sleeps on the value's futex.
 *
 * <pre>
 *   0                   4                   8
 *   +-------------------+-------------------+
 *   |    value (int)    |  sleepers (int)   |
 *   +-------------------+-------------------+
 * </pre>
 *
 * Publication rule: any process may write the value; a writer changes the value with a volatile store or an atomic read-modify-write and then
 * calls {@link #wakeAll}, which issues the wake syscall only when the sleeper count is non-zero. A
 * waiter increments the sleeper count (atomic), issues a full fence, re-reads the value or its
 * condition and only then sleeps with the value it saw as the futex's expected value. Each side puts a
 * full fence (or a volatile access, which the Java memory model orders with every other volatile
 * access) between its store and its load, so either the writer sees the sleeper or the waiter sees the
 * new value: no wake-up is lost.
 *
 * <h2>Asymmetric protocol</h2>
 * For conditions whose writers are many and whose waiter sleeps rarely (a notification queue), the
 * writer's fence moves to the waiter's slow path ({@link #signalAsymmetric}, and
 * {@link WaitStrategy#awaitCondition(MemorySegment, long, java.util.function.BooleanSupplier, Liveness, boolean)}
 * with {@code asymmetric} true):
 * <pre>
 *   writer (registered, {@link Membarrier#registerGlobalExpedited})    waiter (slow path only)
 *   W1  release store that makes the condition true     R1  sleepers += 1 (atomic)
 *   W2  volatile load of sleepers                        R2  membarrier(GLOBAL_EXPEDITED)
 *   W3  if non-zero: value += 1, futex wake             R3  re-check the condition
 *                                                       R4  futex wait(value seen before R1)
 * </pre>
 * Why no wake-up is lost: R2 returns only after the writer's thread passed a point P at which its
 * accesses match program order (a full barrier in its interrupt, or its context switch), and R1 is
 * globally visible before R2 starts (R2 begins with a full barrier on the waiter). If W1 precedes P in
 * the writer's program order, W1 is visible before R2 returns, so R3 sees the condition and the waiter
 * does not sleep. Otherwise W2, which follows W1 in program order, also follows P, so it reads the
 * sleeper count after R1 became visible and sees it non-zero; W3 then bumps the value, and the futex
 * wait either finds the value changed and returns at once, or is already queued and is woken. What the
 * writer needs is program order of W1 before W2 in the compiled code: both are ordered
 * {@link MemorySegment} accesses, which HotSpot's C2 brackets with CPU-order barriers (compiler
 * barriers, the {@code atomic_signal_fence} of folly's light side), and C1 and the interpreter do not
 * reorder memory accesses. A writer whose process is not registered, or where {@link Membarrier} is not
 * supported, issues a full fence between W1 and W2 ({@link #signal}), which pairs with R2 as with a fence.
 */
public final class WaitWords {
    // NOTE: var handles of this class, not the shared Words accessors: each call site here keeps its own
    // profile of the segment type, so the JIT inlines the accesses (a shared accessor sees every segment type).
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    /** Offset of the value (int) in a wait word: the word's offset itself, the futex's address. */
    public static final int VALUE_OFFSET = 0;
    /** Offset of the sleeper count (int) from the value. */
    public static final int SLEEPERS_OFFSET = VALUE_OFFSET + Integer.BYTES;
    /** Bytes a wait word occupies: value and sleeper count. */
    public static final int LENGTH = SLEEPERS_OFFSET + Integer.BYTES;

    private WaitWords() {
    }

    /**
     * Wakes every sleeper on the wait word at {@code offset}, if any announced itself.
     *
     * @param segment the mapping holding the word.
     * @param offset  offset of the word's value.
     */
    public static void wakeAll(final MemorySegment segment, final long offset) {
        if ((int)INT.getVolatile(segment, offset + SLEEPERS_OFFSET) != 0) {
            Futex.wake(segment, offset, Integer.MAX_VALUE);
        }
    }

    /**
     * Stores {@code value} with volatile semantics and wakes the word's sleepers.
     *
     * @param segment the mapping holding the word.
     * @param offset  offset of the word's value.
     * @param value   the new value.
     */
    public static void putIntVolatileAndWake(final MemorySegment segment, final long offset, final int value) {
        INT.setVolatile(segment, offset, value);
        wakeAll(segment, offset);
    }

    /**
     * Adds {@code delta} atomically and wakes the word's sleepers.
     *
     * @param segment the mapping holding the word.
     * @param offset  offset of the word's value.
     * @param delta   the increment.
     * @return the previous value.
     */
    public static int getAndAddIntAndWake(final MemorySegment segment, final long offset, final int delta) {
        final int previous = (int)INT.getAndAdd(segment, offset, delta);
        wakeAll(segment, offset);
        return previous;
    }

    /**
     * Signals a condition awaited with {@link WaitStrategy#awaitCondition}: if a sleeper announced
     * itself, bumps the signal value and wakes every sleeper. Call after making the condition true;
     * costs a full fence and one volatile load when nobody sleeps.
     *
     * @param segment the mapping holding the signal word.
     * @param offset  offset of the signal word's value.
     */
    public static void signal(final MemorySegment segment, final long offset) {
        // NOTE: the store that made the condition true may be a release store, which a later load can
        // pass; the fence keeps the sleeper-count read after it, so no announced sleeper is missed.
        VarHandle.fullFence();
        if ((int)INT.getVolatile(segment, offset + SLEEPERS_OFFSET) != 0) {
            INT.getAndAdd(segment, offset, 1);
            Futex.wake(segment, offset, Integer.MAX_VALUE);
        }
    }

    /**
     * The light side of the asymmetric protocol (class comment): call after the release store that made a
     * condition true, from a thread of a process {@link Membarrier#registerGlobalExpedited() registered} for
     * the membarrier that the condition's waiters issue before their re-check. No fence: a volatile load of
     * the sleeper count, and the bump and futex wake only when a sleeper announced itself.
     *
     * @param segment the mapping holding the signal word.
     * @param offset  offset of the signal word's value.
     */
    public static void signalAsymmetric(final MemorySegment segment, final long offset) {
        // NOTE: no fence: the waiter's membarrier orders this load after the caller's release store (W1, W2
        // in the class comment); the compiler keeps the two ordered accesses in program order.
        if ((int)INT.getVolatile(segment, offset + SLEEPERS_OFFSET) != 0) {
            INT.getAndAdd(segment, offset, 1);
            Futex.wake(segment, offset, Integer.MAX_VALUE);
        }
    }

    /**
     * Signals a condition that the caller just made true with a volatile store or a volatile read-modify-write
     * ({@link Words#getAndAddLong}, {@link Words#putLongVolatile}, ...), awaited with
     * {@link WaitStrategy#awaitCondition(MemorySegment, long, java.util.function.BooleanSupplier, Liveness)}
     * whose condition reads the word with volatile loads: if a sleeper announced itself, bumps the signal value
     * and wakes every sleeper. No fence: the caller's volatile access and this volatile load of the sleeper count
     * are synchronization actions, totally ordered with the waiter's announcement (a volatile read-modify-write)
     * and its volatile re-check, so either this load sees the sleeper or the re-check sees the new value
     * (JLS 17.4.4).
     *
     * @param segment the mapping holding the signal word.
     * @param offset  offset of the signal word's value.
     */
    public static void signalAfterVolatile(final MemorySegment segment, final long offset) {
        if (Words.getIntVolatile(segment, offset + SLEEPERS_OFFSET) != 0) {
            Words.getAndAddInt(segment, offset, 1);
            Futex.wake(segment, offset, Integer.MAX_VALUE);
        }
    }

    /**
     * The light side of the asymmetric protocol for a signal word with a sleep epoch (its waiters record the value
     * they sleep on, {@link WaitStrategy#awaitCondition(MemorySegment, long, java.util.function.BooleanSupplier,
     * Liveness, boolean, long)}): as {@link #signalAsymmetric}, but only the writer that moves the value on from
     * the sleepers' epoch wakes them; a writer that finds the value moved on already (its sleepers were woken and
     * have not yet withdrawn) issues no system call. Without it, a stream of publications into a consumer that
     * is slow to run after its wake (a loaded machine) makes one futex wake per publication.
     *
     * @param segment     the mapping holding the signal word.
     * @param offset      offset of the signal word's value.
     * @param epochOffset offset of the word's sleep epoch.
     * @param fence       whether to put a full fence first (the symmetric protocol, {@link #signal}).
     */
    public static void signalOnce(final MemorySegment segment, final long offset, final long epochOffset,
        final boolean fence) {
        if (fence) {
            VarHandle.fullFence();
        }
        // NOTE: a sleeper's announcement and epoch both precede its fence or membarrier: a writer that sees the
        // announcement sees the epoch. If the value is past it, a bump since woke (or will wake) the sleepers;
        // the sleeper's futex wait on the epoch returns at once.
        if ((int)INT.getVolatile(segment, offset + SLEEPERS_OFFSET) != 0) {
            final int value = (int)INT.getVolatile(segment, offset);
            if (value == (int)INT.getVolatile(segment, epochOffset)
                && INT.compareAndSet(segment, offset, value, value + 1)) {
                Futex.wake(segment, offset, Integer.MAX_VALUE);
            }
        }
    }

    /**
     * Records the value a sleeper will sleep on, for {@link #signalOnce}: moves the epoch forward to {@code value},
     * never back. Several sleepers share one word (threads of one rank): one that read the value before a bump
     * and records it after another sleeper recorded the bumped value must not leave the epoch behind the value
     * that sleeper sleeps on, or no writer would wake it. Every sleeper blocked in the futex sleeps on the
     * current value (a futex wait on an older one returns at once), and the epoch, the newest value recorded,
     * is then that value.
     */
    static void recordEpoch(final MemorySegment segment, final long epochOffset, final int value) {
        int recorded = (int)INT.getVolatile(segment, epochOffset);
        // NOTE: signal values only grow (by one per bump; compared by difference, so wrapping is harmless).
        while (value - recorded > 0 && !INT.compareAndSet(segment, epochOffset, recorded, value)) {
            recorded = (int)INT.getVolatile(segment, epochOffset);
        }
    }

    /**
     * Announces a sleeper; pair with {@link #removeSleeper}.
     */
    static void addSleeper(final MemorySegment segment, final long offset) {
        INT.getAndAdd(segment, offset + SLEEPERS_OFFSET, 1);
    }

    static void removeSleeper(final MemorySegment segment, final long offset) {
        INT.getAndAdd(segment, offset + SLEEPERS_OFFSET, -1);
    }
}
