package org.rma4j;

import java.lang.foreign.MemorySegment;
import org.rma4j.internal.LockWord;
import org.rma4j.internal.WindowLayout;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.MappingLiveness;
import org.rma4j.events.Waits;
import org.rma4j.shm.Words;

/**
 * Active-target synchronization of one window (MPI-3.1 sections 11.5.1 and 11.5.2): fence (the barrier of
 * the window's {@link WindowTransport}: in shared memory a dissemination barrier in the window file between
 * full fences) and general active target (post, start, complete, wait, test over the signal words of
 * {@link Pscw}), and the post side of the rule that a window may not be locked and exposed at once (11.5.3;
 * the lock side is {@link PassiveTarget}'s). Epoch states: {@link Epochs}. Javadoc
 * of each call: {@link Window}.
 */
final class ActiveTarget {
    /** The calls below hand their {@link RmaException} to the window's error handler before it leaves. */
    private final WindowErrors errors;
    private final WindowState state;
    private final RmaJob job;
    private final int rank;
    private final int number;
    private final MemorySegment mapping;
    private final long lockTable;
    private final Epochs epochs;
    private final Pscw pscw;
    /** The lock or PSCW wait in progress, published as this rank's wait state on its slow path. */
    private final WaitPublication blocked;
    private final MappingLiveness fileCheck;
    private final Liveness pscwPeers;
    private final Runnable fenceWait;
    /** The group and the call of the PSCW wait in progress, for the liveness check of {@link #pscw}. */
    private boolean pscwPosts;
    private Group pscwGroup;

    ActiveTarget(final WindowState state, final MemorySegment mapping, final WindowTransport transport,
        final Epochs epochs, final WaitPublication blocked, final MappingLiveness fileCheck, final Liveness collective,
        final WindowErrors errors) {
        this.state = state;
        this.job = state.job();
        this.rank = state.rank();
        this.number = state.number();
        this.mapping = mapping;
        final int ranks = state.sizes().length;
        this.lockTable = WindowLayout.lockTableOffset(ranks);
        this.epochs = epochs;
        this.blocked = blocked;
        this.fileCheck = fileCheck;
        this.pscwPeers = collective;
        this.errors = errors;
        this.fenceWait = transport.fenceWait();
        this.pscw = new Pscw(mapping, transport, rank, ranks, job.waitStrategy(), this::checkPscwPeers);
    }

    /**
     * @return the wait of the window's collective calls (fence, free): its dissemination barrier.
     */
    Runnable barrierWait() {
        return fenceWait;
    }

    private void checkOpen(final String call) {
        state.checkOpen(call);
    }

    void fence(final int assertions) {
        try {
            checkOpen("fence");
            Checks.checkAssertions("fence", assertions,
                Rma.MODE_NOSTORE | Rma.MODE_NOPUT | Rma.MODE_NOPRECEDE | Rma.MODE_NOSUCCEED);
            epochs.beforeFence(assertions);
            final var fenceEvent = WindowCounters.begin(WindowCounters.FENCE);
            state.context().collective(CollectiveCalls.Kind.FENCE, number + 1, fenceWait);
            state.counters().end(fenceEvent, -1, -1, "fence");
            epochs.afterFence(assertions);
        } catch (final RmaException e) {
            throw errors.raise("fence", e);
        }
    }

    void post(final Group processes, final int assertions) {
        try {
            checkOpen("post");
            Checks.checkAssertions("post", assertions, Rma.MODE_NOCHECK | Rma.MODE_NOSTORE | Rma.MODE_NOPUT);
            final Group group = state.windowRanks("post", processes);
            epochs.checkPost();
            checkNotLocked();
            pscw.setExposed(true);
            if ((assertions & Rma.MODE_NOCHECK) == 0) {
                pscw.post(group);
            }
            epochs.posted(group);
        } catch (final RmaException e) {
            throw errors.raise("post", e);
        }
    }

    void start(final Group processes, final int assertions) {
        try {
            checkOpen("start");
            Checks.checkAssertions("start", assertions, Rma.MODE_NOCHECK);
            final Group group = state.windowRanks("start", processes);
            epochs.checkStart();
            if ((assertions & Rma.MODE_NOCHECK) == 0) {
                pscwPosts = true;
                pscwGroup = group;
                blocked.begin(Waits.START, -1);
                try {
                    pscw.awaitPosts(group);
                } catch (final InternalError e) {
                    throw fileCheck.explain(e);
                } catch (final RuntimeException e) {
                    throw state.context().recordFailure(
                        Failures.translate(e, rank, "start on window " + number + " for the posts of " + group));
                } finally {
                    blocked.end();
                }
            }
            epochs.started(group);
        } catch (final RmaException e) {
            throw errors.raise("start", e);
        }
    }

    void complete() {
        try {
            checkOpen("complete");
            final Group group = epochs.checkComplete();
            pscw.complete(group);
            epochs.completed();
        } catch (final RmaException e) {
            throw errors.raise("complete", e);
        }
    }

    void await() {
        try {
            checkOpen("wait");
            final Group group = epochs.checkWait("wait");
            pscwPosts = false;
            pscwGroup = group;
            blocked.begin(Waits.WAIT, -1);
            try {
                pscw.awaitCompletes(group);
            } catch (final InternalError e) {
                throw fileCheck.explain(e);
            } catch (final RuntimeException e) {
                throw state.context().recordFailure(
                    Failures.translate(e, rank, "wait on window " + number + " for the completes of " + group));
            } finally {
                blocked.end();
            }
            pscw.setExposed(false);
            epochs.waited();
        } catch (final RmaException e) {
            throw errors.raise("await", e);
        }
    }

    boolean test() {
        try {
            checkOpen("test");
            final Group group = epochs.checkWait("test");
            if (!pscw.testCompletes(group)) {
                return false;
            }
            pscw.setExposed(false);
            epochs.waited();
            return true;
        } catch (final RmaException e) {
            throw errors.raise("test", e);
        }
    }

    /**
     * Liveness check of a PSCW wait: the peers are alive, and none that this rank still waits for sits in
     * a collective call this rank has not made (it would wait there for this rank forever).
     */
    private void checkPscwPeers() {
        pscwPeers.check();
        final int[] pending = pscw.pending(pscwPosts, pscwGroup.membersView());
        state.context().calls().checkNotAwaitedBy(pending,
            peer -> pscw.pending(pscwPosts, new int[] {peer}).length == 1, pscwWaitName());
        if (pending.length > 0) {
            blocked.publish(pending[0]);
        }
    }

    /**
     * @return what the current PSCW wait waits for, e.g. "start on window 0 for the posts of {1}" (made when a
     *         liveness check asks, not at every start and wait).
     */
    private String pscwWaitName() {
        return pscwPosts
            ? "start on window " + number + " for the posts of " + pscwGroup
            : "wait on window " + number + " for the completes of " + pscwGroup;
    }

    // ---------------------------------------------------------------- lock versus post (section 11.5.3)
    // "A window may not be locked and exposed in a post epoch concurrently": both sides of the rule.
    // Best effort: each side checks after it took its own step (the lock acquired, the exposure
    // published), so a post and a lock that race are not always seen.

    /**
     * The post side: throws RMA_CONFLICT if some rank holds a lock of this rank's window.
     */
    private void checkNotLocked() {
        final int lockWord = Words.getIntVolatile(mapping, WindowLayout.lockWordOffset(lockTable, rank));
        if (lockWord != 0) {
            throw new RmaException(ErrorClass.RMA_CONFLICT, "post while this rank's window is locked ("
                + LockWord.describe(lockWord) + "); a window may not be locked and exposed concurrently (11.5.3)");
        }
    }
}
