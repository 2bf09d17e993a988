package org.rma4j;

import org.rma4j.notify.CounterBlock;

/**
 * The notification counters attached to one window at this rank ({@link NotifyCounters}): this rank's own
 * block, the blocks of the ranks this process maps (its node), and every rank's number of counters. Shared by
 * the window's parts through {@link WindowState}: {@link ShmTransport} increments a mapped rank's counter,
 * {@link TargetAgent} this rank's for an origin on another node.
 *
 * <p>Thread-safe: attach and detach publish an immutable {@link Blocks} through a volatile field, which the
 * incrementing threads (the rank's, the link's poller) read.
 */
final class AttachedCounters {
    /**
     * What one attach made.
     *
     * @param own    this rank's block.
     * @param blocks by window rank: the blocks this process maps (this rank's included), null elsewhere.
     * @param counts by window rank: the number of counters each attached; null while the attach that made
     *               {@code own} has not learnt them yet (only increments of this rank's own counters, by
     *               {@link TargetAgent} for origins that finished the attach first, reach it then).
     */
    record Blocks(CounterBlock own, CounterBlock[] blocks, int[] counts) {
    }

    private volatile Blocks blocks;

    /** @return the counters of the attach in effect, or null. */
    Blocks blocks() {
        return blocks;
    }

    /**
     * Publishes this rank's new block alone, before the ranks exchange their counts: an origin on another node
     * that finishes the exchange first may increment it at once.
     */
    void attachOwn(final CounterBlock own, final int rank, final int ranks) {
        final CounterBlock[] only = new CounterBlock[ranks];
        only[rank] = own;
        blocks = new Blocks(own, only, null);
    }

    /** Withdraws the block of {@link #attachOwn} after a failed attach (the caller unmaps it). */
    void withdraw() {
        blocks = null;
    }

    /** Makes {@code attached} the attach in effect. */
    void attach(final Blocks attached) {
        blocks = attached;
    }

    /**
     * Adds one to counter {@code index} of {@code target}, a rank this process maps, and wakes its waiters.
     *
     * @throws RmaException RMA_NOTIF_RANGE if no counters are attached or {@code target} has no counter
     *                      {@code index} here.
     */
    void increment(final String call, final int target, final int index) {
        final Blocks attached = blocks;
        final CounterBlock block = attached == null ? null : attached.blocks[target];
        if (block == null || index < 0 || index >= block.count()) {
            throw new RmaException(ErrorClass.RMA_NOTIF_RANGE, call + " counter=" + index + " of rank " + target
                + (block == null ? ": no counters of it are attached here" : " is outside 0.." + (block.count() - 1)));
        }
        block.incrementAndSignal(index);
    }

    /**
     * Unmaps every block and removes this rank's file; the counters are detached. Idempotent.
     */
    void close() {
        final Blocks attached = blocks;
        if (attached == null) {
            return;
        }
        blocks = null;
        attached.own.unlink();
        for (final CounterBlock block : attached.blocks) {
            if (block != null) {
                block.close();
            }
        }
    }
}
