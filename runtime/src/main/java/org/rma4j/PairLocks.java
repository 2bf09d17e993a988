package org.rma4j;

import java.lang.foreign.MemorySegment;
import org.rma4j.internal.WindowLayout;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.WaitWords;
import org.rma4j.shm.Words;

/**
 * The striped locks of one window that make an accumulate of a 16-byte pair (MPI_LONG_INT,
 * MPI_DOUBLE_INT) atomic, and of an 8-byte pair that one 64-bit compare-and-set cannot reach (not 8-byte
 * aligned): a table of {@link WindowLayout#PAIR_LOCK_STRIPES} wait words in the window file, the stripe of
 * a pair chosen from its offset in its file ({@link WindowLayout#pairLockOffset}), so every process takes
 * the same one for the same pair (MPI-3.1 section 11.7.1).
 *
 * <p>A stripe's value is 0 when free and the holder's rank + 1 when held. {@link #lock} takes it with a
 * compare-and-set (a full fence) and waits through the job's wait strategy when it is held (spin, yield,
 * futex sleep, never a spin without end); {@link #unlock} frees it with a volatile store and wakes
 * sleepers. What the holder read and wrote in between is seen by the next holder. A holder keeps a stripe
 * for the read and write of one pair only, with no other lock held and nothing to wait for.
 */
final class PairLocks {
    private final WindowState state;
    private final MemorySegment windowFile;
    private final long table;
    private final Liveness liveness;

    PairLocks(final WindowState state, final MemorySegment windowFile) {
        this.state = state;
        this.windowFile = windowFile;
        this.table = WindowLayout.pairLockTableOffset(state.sizes().length);
        this.liveness = state.job().control().liveness(state.rank(), false);
    }

    /**
     * Takes the stripe of the pair at {@code fileOffset}.
     *
     * @return the stripe's offset, for {@link #unlock}.
     * @throws RankFailedException if a rank fails (the holder, say) while this one waits.
     */
    long lock(final String call, final long fileOffset) {
        final long stripe = WindowLayout.pairLockOffset(table, fileOffset);
        final int holder = state.rank() + 1;
        while (!Words.compareAndSetInt(windowFile, stripe, 0, holder)) {
            try {
                state.job().waitStrategy().awaitInt(windowFile, stripe, value -> value == 0, liveness);
            } catch (final RuntimeException e) {
                throw Failures.translate(e, state.rank(),
                    call + " on window " + state.number() + " for the pair lock of file offset " + fileOffset);
            }
        }
        return stripe;
    }

    /**
     * Frees a stripe taken with {@link #lock}.
     */
    void unlock(final long stripe) {
        Words.putIntVolatile(windowFile, stripe, 0);
        WaitWords.wakeAll(windowFile, stripe);
    }
}
