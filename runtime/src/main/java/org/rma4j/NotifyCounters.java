package org.rma4j;

import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Objects;
import org.rma4j.notify.CounterBlock;
import org.rma4j.notify.CounterBlockLayout;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.MappingLiveness;
import org.rma4j.shm.ShmSpaceException;

/**
 * Notification counters of one window (MPI Forum issue 59, "RMA Notification"; Intel MPI's {@code MPIX_*_notify},
 * the {@code notified_rma} extension of Bull's Open MPI 5): counters attached collectively, one block per rank in
 * a file of its own next to the window file ({@link CounterBlock}), put / get / accumulate that add one to a
 * counter of the target once their data is there, and the owner's get, set, wait and test. Javadoc of each call:
 * {@link WindowNotifyCounters}.
 *
 * <p>An operation moves its data as its plain counterpart's transport does ({@link WindowTransport}: complete at
 * the call in shared memory), then has the transport increment the counter ({@link WindowTransport#incrementCounter}),
 * after the data took effect at the target. Like notified access it needs no epoch.
 */
final class NotifyCounters {
    private final WindowState state;
    private final WindowTransport transport;
    private final Path windowFile;
    private final Liveness liveness;
    private final AttachedCounters attached;
    /** Every call below hands its {@link RmaException} to the window's error handler before it leaves. */
    private final WindowErrors errors;

    /**
     * @param windowFile the window's file: the counter files are named after it, in its directory.
     * @param liveness   the liveness check of the window's waits.
     */
    NotifyCounters(final WindowState state, final WindowTransport transport, final Path windowFile,
        final Liveness liveness, final WindowErrors errors) {
        this.state = state;
        this.errors = errors;
        this.transport = transport;
        this.windowFile = windowFile;
        this.liveness = liveness;
        this.attached = state.attachedCounters();
    }

    /** @return the file of {@code rank}'s counter block. */
    Path counterFile(final int rank) {
        return windowFile.resolveSibling(windowFile.getFileName() + "-counters-" + rank);
    }

    // ---------------------------------------------------------------- attach, detach (collective)

    void attach(final int count) {
        try {
            state.checkOpen("notifyAttach");
            final int ranks = state.sizes().length;
            final int rank = state.rank();
            RmaException error = null;
            if (attached.blocks() != null) {
                error = new RmaException(ErrorClass.RMA_SYNC, "notifyAttach at rank " + rank + ": "
                    + attached.blocks().own().count() + " counters are attached already (notifyDetach first)");
            } else if (count < 0 || count > CounterBlockLayout.MAX_COUNT) {
                error = new RmaException(ErrorClass.COUNT,
                    "notifyAttach counters=" + count + " is outside 0.." + CounterBlockLayout.MAX_COUNT);
            }
            CounterBlock own = null;
            if (error == null) {
                try {
                    own = CounterBlock.create(counterFile(rank), count);
                } catch (final ShmSpaceException e) {
                    error = new RmaException(ErrorClass.NO_MEM,
                        "notifyAttach counters=" + count + ": " + e.getMessage(), e);
                } catch (final UncheckedIOException e) {
                    error = new RmaException(ErrorClass.OTHER, "notifyAttach: " + e.getMessage(), e);
                }
            }
            // NOTE: each rank creates and publishes its block (file and, for its node's agent, AttachedCounters) before
            // it contributes its count, so once the exchange returns anywhere every block exists and may be incremented.
            final int[] counts = new int[ranks];
            if (own != null) {
                attached.attachOwn(own, rank, ranks);
            }
            try {
                state.context().exchange().run(CollectiveCalls.Kind.ALLGATHER, "notifyAttach",
                    new MemorySegment[] {MemorySegment.ofArray(new int[] {count})}, -1, 0, error,
                    (member, total, offset, chunk) -> MemorySegment.copy(chunk, 0, MemorySegment.ofArray(counts),
                        (long)member * Integer.BYTES + offset, chunk.byteSize()));
            } catch (final RuntimeException e) {
                if (own != null) {
                    attached.withdraw();
                    own.unlink();
                    own.close();
                }
                throw e;
            }
            attached.attach(open(own, counts));
        } catch (final RmaException e) {
            throw errors.raise("notifyAttach", e);
        }
    }

    /** Maps the blocks of the ranks this process maps; on failure unmaps them again and removes its own. */
    private AttachedCounters.Blocks open(final CounterBlock own, final int[] counts) {
        final CounterBlock[] blocks = new CounterBlock[counts.length];
        blocks[state.rank()] = own;
        try {
            for (int r = 0; r < counts.length; r++) {
                if (r != state.rank() && transport.mapped(r)) {
                    blocks[r] = CounterBlock.open(counterFile(r));
                }
            }
        } catch (final RuntimeException e) {
            attached.withdraw();
            own.unlink();
            for (final CounterBlock block : blocks) {
                if (block != null) {
                    block.close();
                }
            }
            throw new RmaException(ErrorClass.OTHER, "notifyAttach at rank " + state.rank() + ": " + e.getMessage(), e);
        }
        return new AttachedCounters.Blocks(own, blocks, counts);
    }

    void detach() {
        try {
            state.checkOpen("notifyDetach");
            final RmaException error = attached.blocks() == null
                ? new RmaException(ErrorClass.RMA_SYNC,
                    "notifyDetach at rank " + state.rank() + ": no counters are attached")
                : null;
            if (error == null) {
                // NOTE: this rank's increments of other nodes' counters are applied before it arrives, and every rank
                // arrives after its last increment: after the exchange nobody touches a block any more.
                transport.flushAll();
            }
            state.context().exchange().run(CollectiveCalls.Kind.ALLGATHER, "notifyDetach", new MemorySegment[0], -1, 0,
                error, (member, total, offset, chunk) -> {
                });
            attached.close();
        } catch (final RmaException e) {
            throw errors.raise("notifyDetach", e);
        }
    }

    // ---------------------------------------------------------------- the owner's counters

    long getValue(final int index) {
        try {
            return own("notifyGetValue", index).getCounterAcquire(index);
        } catch (final RmaException e) {
            throw errors.raise("notifyGetValue", e);
        }
    }

    void setValue(final int index, final long value) {
        try {
            own("notifySetValue", index).putCounterVolatileAndSignal(index, value);
        } catch (final RmaException e) {
            throw errors.raise("notifySetValue", e);
        }
    }

    boolean test(final int index, final long atLeast) {
        try {
            return own("notifyTest", index).getCounterAcquire(index) >= atLeast;
        } catch (final RmaException e) {
            throw errors.raise("notifyTest", e);
        }
    }

    long await(final int index, final long atLeast) {
        try {
            final CounterBlock block = own("notifyWait", index);
            try {
                return block.await(index, atLeast, state.job().waitStrategy(),
                    MappingLiveness
                        .of(Liveness.NONE, block.file(), CounterBlockLayout.MAGIC, CounterBlockLayout.VERSION)
                        .and(liveness));
            } catch (final RuntimeException e) {
                throw Failures.translate(e, state.rank(),
                    "notifyWait of counter " + index + " >= " + atLeast + " on window " + state.number());
            }
        } catch (final RmaException e) {
            throw errors.raise("notifyWait", e);
        }
    }

    /** @return this rank's block (for tests), or null when no counters are attached. */
    CounterBlock ownBlock() {
        final AttachedCounters.Blocks blocks = attached.blocks();
        return blocks == null ? null : blocks.own();
    }

    /** @return this rank's block, after the checks of a call on counter {@code index} of it. */
    private CounterBlock own(final String call, final int index) {
        state.checkOpen(call);
        final AttachedCounters.Blocks blocks = attached.blocks();
        checkIndex(call, blocks, state.rank(), index);
        return blocks.own();
    }

    // ---------------------------------------------------------------- operations with a counter

    void putNotifyCounter(final MemorySegment origin, final int target, final long targetDisp, final int counter) {
        try {
            Objects.requireNonNull(origin, "origin");
            final String call = "putNotifyCounter";
            if (reaches(call, target, targetDisp, counter)) {
                transport.put(call, origin, target, targetDisp);
                notify(call, target, counter, origin.byteSize());
            }
        } catch (final RmaException e) {
            throw errors.raise("putNotifyCounter", e);
        }
    }

    void putNotifyCounter(final MemorySegment origin, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType, final int counter) {
        try {
            final String call = "putNotifyCounter";
            Objects.requireNonNull(origin, "origin");
            Checks.checkTypes(call, originCount, originType, targetCount, targetType);
            Checks.checkBuffer(call, "origin", origin, originCount, originType);
            if (reaches(call, target, targetDisp, counter)) {
                transport.put(call, origin, originCount, originType, target, targetDisp, targetCount, targetType);
                notify(call, target, counter, targetType.span(targetCount));
            }
        } catch (final RmaException e) {
            throw errors.raise("putNotifyCounter", e);
        }
    }

    void getNotifyCounter(final MemorySegment destination, final int target, final long targetDisp, final int counter) {
        try {
            Objects.requireNonNull(destination, "destination");
            final String call = "getNotifyCounter";
            if (reaches(call, target, targetDisp, counter)) {
                transport.get(call, destination, target, targetDisp);
                notify(call, target, counter, destination.byteSize());
            }
        } catch (final RmaException e) {
            throw errors.raise("getNotifyCounter", e);
        }
    }

    void getNotifyCounter(final MemorySegment destination, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType, final int counter) {
        try {
            final String call = "getNotifyCounter";
            Objects.requireNonNull(destination, "destination");
            Checks.checkTypes(call, originCount, originType, targetCount, targetType);
            Checks.checkBuffer(call, "destination", destination, originCount, originType);
            if (reaches(call, target, targetDisp, counter)) {
                transport.get(call, destination, originCount, originType, target, targetDisp, targetCount, targetType);
                notify(call, target, counter, targetType.span(targetCount));
            }
        } catch (final RmaException e) {
            throw errors.raise("getNotifyCounter", e);
        }
    }

    void accumulateNotifyCounter(final MemorySegment origin, final long originCount, final Datatype originType,
        final int target, final long targetDisp, final long targetCount, final Datatype targetType, final Op op,
        final int counter) {
        try {
            final String call = "accumulateNotifyCounter";
            Checks.checkOp(call, op, targetType);
            Checks.checkNotNoOp(call, op);
            Objects.requireNonNull(origin, "origin");
            Checks.checkAccumulateTypes(call, originCount, originType, targetCount, targetType);
            Checks.checkBuffer(call, "origin", origin, originCount, originType);
            if (reaches(call, target, targetDisp, counter)) {
                transport.accumulate(call, op, origin, originCount, originType, target, targetDisp, targetCount,
                    targetType);
                notify(call, target, counter, targetType.span(targetCount));
            }
        } catch (final RmaException e) {
            throw errors.raise("accumulateNotifyCounter", e);
        }
    }

    /** The increment after the data, and the statistics of an operation that went through. */
    private void notify(final String call, final int target, final int counter, final long lengthBytes) {
        // NOTE: the data took effect at the target (shared memory: at the call; another node: the transport
        // completes it first), so the increment, a release, is seen only with the data before it.
        transport.incrementCounter(call, target, counter);
        state.counters().count(WindowCounters.NOTIFIED, target, lengthBytes);
    }

    /**
     * Checks an operation with a counter (no epoch needed).
     *
     * @return false for PROC_NULL (nothing happens).
     * @throws RmaException WIN, RANK, DISP, RMA_NOTIF_RANGE.
     */
    private boolean reaches(final String call, final int target, final long targetDisp, final int counter) {
        state.checkOpen(call);
        if (target == Rma.PROC_NULL) {
            return false;
        }
        state.checkRank(target, call);
        if (targetDisp < 0) {
            throw new RmaException(ErrorClass.DISP, call + " target_disp=" + targetDisp + " is negative");
        }
        checkIndex(call, attached.blocks(), target, counter);
        return true;
    }

    /**
     * @throws RmaException RMA_NOTIF_RANGE if {@code rank} has no counter {@code index}.
     */
    private static void checkIndex(final String call, final AttachedCounters.Blocks blocks, final int rank,
        final int index) {
        if (blocks == null || blocks.counts() == null) {
            throw new RmaException(ErrorClass.RMA_NOTIF_RANGE,
                call + " counter=" + index + ": no notification counters are attached to the window (notifyAttach)");
        }
        final int count = blocks.counts()[rank];
        if (index < 0 || index >= count) {
            throw new RmaException(ErrorClass.RMA_NOTIF_RANGE, call + " counter=" + index + " is outside the " + count
                + " counters attached at rank " + rank + (count == 0 ? "" : " (0.." + (count - 1) + ")"));
        }
    }
}
