package org.rma4j.notify;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Objects;
import org.rma4j.shm.FileHeader;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.MappedFile;
import org.rma4j.shm.ShmFormatException;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.WaitWords;
import org.rma4j.shm.Words;

/**
 * One party's block of notification counters in a file of its own ({@link CounterBlockLayout}): 64-bit
 * counters that any process mapping the file increments after it made its data visible, and that the owner
 * reads, sets and waits on. The owner creates the block ({@link #create}); the others {@link #open} it.
 *
 * <h2>Memory order</h2>
 * Pairing rule: {@link #incrementAndSignal} and {@link #putCounterVolatileAndSignal} are volatile writes of
 * the counter; {@link #getCounterAcquire}, {@link #getCounterVolatile} and the condition of {@link #await} read
 * it with acquire or volatile loads. So everything an incrementer stored before its increment (the data of
 * its operation) is visible to a reader that sees the incremented value or a later one.
 *
 * <h2>Waiting</h2>
 * Waiters of any counter of the block sleep on the block's one signal word, through the caller's
 * {@link WaitStrategy} (spin, yield, futex sleep, liveness, timeout). An increment costs one atomic add and a
 * load of the sleeper count; it issues the wake system call only when a waiter announced itself
 * ({@link WaitWords#signalAfterVolatile}). A wake-up of a waiter of another counter of the block re-checks its
 * condition and sleeps again.
 *
 * <p>Thread-safe: every method may be called from any thread of any process that maps the block, until
 * {@link #close}.
 */
public final class CounterBlock implements AutoCloseable {
    private final MappedFile file;
    private final MemorySegment segment;
    private final int count;

    private CounterBlock(final MappedFile file, final int count) {
        this.file = file;
        this.segment = file.segment();
        this.count = count;
    }

    /**
     * Creates the file of a block of {@code count} counters at {@code path}, all zero, and publishes it.
     *
     * @throws IllegalArgumentException for a count outside {@code 0..}{@link CounterBlockLayout#MAX_COUNT}.
     * @throws java.io.UncheckedIOException if the file exists or cannot be created.
     */
    public static CounterBlock create(final Path path, final int count) {
        CounterBlockLayout.checkCount(count);
        final MappedFile file = MappedFile.create(path, CounterBlockLayout.lengthBytes(count));
        final MemorySegment segment = file.segment();
        Words.putInt(segment, CounterBlockLayout.COUNT_OFFSET, count);
        FileHeader.publish(segment, CounterBlockLayout.MAGIC, CounterBlockLayout.VERSION);
        return new CounterBlock(file, count);
    }

    /**
     * Maps the published block at {@code path}.
     *
     * @throws ShmFormatException if the file is not a whole published block of this layout version.
     * @throws java.io.UncheckedIOException if it cannot be opened.
     */
    public static CounterBlock open(final Path path) {
        final MappedFile file = MappedFile.open(path);
        try {
            final MemorySegment segment = file.segment();
            FileHeader.check(segment, path, CounterBlockLayout.MAGIC, CounterBlockLayout.VERSION);
            final int count = Words.getInt(segment, CounterBlockLayout.COUNT_OFFSET);
            if (count < 0 || count > CounterBlockLayout.MAX_COUNT
                || segment.byteSize() != CounterBlockLayout.lengthBytes(count)) {
                throw new ShmFormatException(path,
                    "counter count " + count + " does not fit its size " + segment.byteSize());
            }
            return new CounterBlock(file, count);
        } catch (final RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /** @return the number of counters. */
    public int count() {
        return count;
    }

    /** @return the block's file. */
    public MappedFile file() {
        return file;
    }

    /** @return the mapping of the block. */
    public MemorySegment segment() {
        return segment;
    }

    /** @return the value of counter {@code index}, read with an acquire load. */
    public long getCounterAcquire(final int index) {
        return Words.getLongAcquire(segment, offset(index));
    }

    /** @return the value of counter {@code index}, read with a volatile load. */
    public long getCounterVolatile(final int index) {
        return Words.getLongVolatile(segment, offset(index));
    }

    /**
     * Adds one to counter {@code index} (an atomic volatile add: every store of the caller before it is visible
     * with the new value), then wakes the block's waiters if one announced itself.
     *
     * @return the counter's new value.
     */
    public long incrementAndSignal(final int index) {
        final long value = Words.getAndAddLong(segment, offset(index), 1) + 1;
        WaitWords.signalAfterVolatile(segment, CounterBlockLayout.SIGNAL_OFFSET);
        return value;
    }

    /**
     * Sets counter {@code index} with a volatile store, then wakes the block's waiters if one announced itself
     * (a waiter whose condition the new value meets returns).
     */
    public void putCounterVolatileAndSignal(final int index, final long value) {
        Words.putLongVolatile(segment, offset(index), value);
        WaitWords.signalAfterVolatile(segment, CounterBlockLayout.SIGNAL_OFFSET);
    }

    /**
     * Waits until counter {@code index} is at least {@code atLeast}, through {@code strategy}.
     *
     * @param liveness run at least every {@link WaitStrategy#LIVENESS_PERIOD_NS} while waiting.
     * @return the counter's value that met the condition (read with a volatile load).
     */
    public long await(final int index, final long atLeast, final WaitStrategy strategy, final Liveness liveness) {
        final long offset = offset(index);
        final long[] seen = {Words.getLongVolatile(segment, offset)};
        if (seen[0] >= atLeast) {
            return seen[0];
        }
        // NOTE: the condition reads the counter with volatile loads, which the increment's volatile add and its
        // volatile load of the sleeper count are ordered with (WaitWords.signalAfterVolatile): no lost wake-up.
        strategy.awaitCondition(segment, CounterBlockLayout.SIGNAL_OFFSET, () -> {
            seen[0] = Words.getLongVolatile(segment, offset);
            return seen[0] >= atLeast;
        }, liveness);
        return seen[0];
    }

    /** @return the number of waiters announced as sleeping on the block's signal word. */
    public int sleepers() {
        return Words.getIntVolatile(segment, CounterBlockLayout.SIGNAL_OFFSET + WaitWords.SLEEPERS_OFFSET);
    }

    /** Removes the block's file name; the mappings stay valid. */
    public void unlink() {
        file.unlink();
    }

    /** Unmaps the block. Idempotent. */
    @Override
    public void close() {
        file.close();
    }

    private long offset(final int index) {
        return CounterBlockLayout.counterOffset(Objects.checkIndex(index, count));
    }

    @Override
    public String toString() {
        return "CounterBlock{" + file.path() + ", count=" + count + '}';
    }
}
