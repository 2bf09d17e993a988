package org.rma4j.internal;

import java.lang.foreign.MemorySegment;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.WaitWords;
import org.rma4j.shm.Words;

/**
 * The reader-writer lock word of one target of a window (the lock table of {@link WindowLayout}),
 * used by {@code lock}, {@code unlock}, {@code lock_all} and {@code unlock_all} (MPI-3.1 section
 * 11.5.3).
 *
 * <pre>
 *   value == 0                      free
 *   0 &lt; value &lt; EXCLUSIVE          held shared by {@code value} origins
 *   value == EXCLUSIVE + origin     held exclusively by {@code origin}
 * </pre>
 *
 * Acquisition is a compare-and-set (a full fence on every supported processor), release is a
 * volatile store or atomic decrement, so everything an origin stored while it held the lock is
 * seen by the next holder after its acquisition. Release wakes sleepers through the word's
 * sleeper count ({@link WaitWords}).
 */
public final class LockWord {
    /** Base value of an exclusively held word; the holder's rank is added. */
    public static final int EXCLUSIVE = 0x4000_0000;

    private LockWord() {
    }

    /**
     * Blocks until the lock is held shared.
     */
    public static void acquireShared(final MemorySegment segment, final long offset, final WaitStrategy wait,
        final Liveness liveness) {
        while (true) {
            final int value = Words.getIntVolatile(segment, offset);
            if (value < EXCLUSIVE) {
                if (Words.compareAndSetInt(segment, offset, value, value + 1)) {
                    return;
                }
            } else {
                wait.awaitInt(segment, offset, v -> v < EXCLUSIVE, liveness);
            }
        }
    }

    /**
     * Blocks until the lock is held exclusively by {@code origin}.
     */
    public static void acquireExclusive(final MemorySegment segment, final long offset, final int origin,
        final WaitStrategy wait, final Liveness liveness) {
        while (!Words.compareAndSetInt(segment, offset, 0, EXCLUSIVE + origin)) {
            wait.awaitInt(segment, offset, v -> v == 0, liveness);
        }
    }

    /**
     * Releases one shared hold.
     */
    public static void releaseShared(final MemorySegment segment, final long offset) {
        // NOTE: no fence before the release: an atomic read-modify-write has volatile read and write
        // semantics, so no access of the epoch moves past it (a lock-prefixed instruction on x86).
        final int previous = Words.getAndAddInt(segment, offset, -1);
        if (previous == 1) {
            WaitWords.wakeAll(segment, offset);
        }
    }

    /**
     * Releases the exclusive hold of {@code origin}.
     *
     * @throws IllegalStateException if origin does not hold it exclusively.
     */
    public static void releaseExclusive(final MemorySegment segment, final long offset, final int origin) {
        // NOTE: no fence before the release CAS, for the reason given in releaseShared.
        if (!Words.compareAndSetInt(segment, offset, EXCLUSIVE + origin, 0)) {
            throw new IllegalStateException("lock word " + describe(Words.getIntVolatile(segment, offset))
                + " is not held exclusively by rank " + origin);
        }
        WaitWords.wakeAll(segment, offset);
    }

    /**
     * @return a readable form of a lock word value.
     */
    public static String describe(final int value) {
        if (value == 0) {
            return "free";
        }
        return value < EXCLUSIVE ? "shared by " + value : "exclusive by rank " + (value - EXCLUSIVE);
    }
}
