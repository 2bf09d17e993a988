package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import org.rma4j.internal.WindowLayout;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.WaitWords;
import org.rma4j.shm.Words;

/**
 * The shared-memory side of general active target synchronization (MPI-3.1 section 11.5.2) for one
 * window at one rank: the post and complete counters of {@link WindowLayout} and what this rank has
 * consumed of them.
 *
 * <p>The standard defines matching through messages: post sends one to each origin, start receives
 * one from each target, complete sends one to each target, wait receives one from each origin. Here
 * a message is an increment of the (receiver, sender) counter followed by a signal of the receiver, made by
 * the window's {@link WindowTransport} (for a receiver on another node, by its node's agent);
 * a receiver has received from a sender when the counter exceeds what it consumed before. Counters
 * only grow, so an early post for a later epoch is never mistaken for another target's post.
 *
 * <p>Not thread-safe (one per window per rank).
 */
final class Pscw {
    private final MemorySegment mapping;
    /** Sends the posts and completes (the counters of other nodes' ranks are in their nodes' files). */
    private final WindowTransport transport;
    private final int rank;
    private final int ranks;
    private final long syncTable;
    private final long postMatrix;
    private final long completeMatrix;
    private final WaitStrategy waitStrategy;
    private final Liveness liveness;
    private final int[] postsConsumed;
    private final int[] completesConsumed;

    Pscw(final MemorySegment mapping, final WindowTransport transport, final int rank, final int ranks,
        final WaitStrategy waitStrategy, final Liveness liveness) {
        this.mapping = mapping;
        this.transport = transport;
        this.rank = rank;
        this.ranks = ranks;
        this.syncTable = WindowLayout.syncTableOffset(ranks);
        this.postMatrix = WindowLayout.postMatrixOffset(ranks);
        this.completeMatrix = WindowLayout.completeMatrixOffset(ranks);
        this.waitStrategy = waitStrategy;
        this.liveness = liveness;
        this.postsConsumed = new int[ranks];
        this.completesConsumed = new int[ranks];
    }

    /**
     * Records whether this rank's window is exposed in a post epoch, for lockers' conflict check.
     */
    void setExposed(final boolean exposed) {
        Words.putIntVolatile(mapping, WindowLayout.syncLinesOffset(syncTable, rank) + WindowLayout.EXPOSED_OFFSET,
            exposed ? 1 : 0);
    }

    /**
     * Sends a post to every origin of the group.
     */
    void post(final Group origins) {
        VarHandle.fullFence();
        for (final int origin : origins.membersView()) {
            transport.post(origin);
        }
    }

    /**
     * Blocks until every target of the group has posted, and consumes those posts.
     */
    void awaitPosts(final Group targets) {
        final int[] members = targets.membersView();
        waitStrategy.awaitCondition(mapping,
            WindowLayout.syncLinesOffset(syncTable, rank) + WindowLayout.POST_SIGNAL_OFFSET,
            () -> arrived(postMatrix, members, postsConsumed), liveness);
        consume(members, postsConsumed);
        VarHandle.fullFence();
    }

    /**
     * Sends a complete to every target of the group, after every preceding store of this rank.
     */
    void complete(final Group targets) {
        VarHandle.fullFence();
        for (final int target : targets.membersView()) {
            transport.complete(target);
        }
    }

    /**
     * Blocks until every origin of the group has completed, and consumes those completes.
     */
    void awaitCompletes(final Group origins) {
        final int[] members = origins.membersView();
        waitStrategy.awaitCondition(mapping,
            WindowLayout.syncLinesOffset(syncTable, rank) + WindowLayout.COMPLETE_SIGNAL_OFFSET,
            () -> arrived(completeMatrix, members, completesConsumed), liveness);
        consume(members, completesConsumed);
        VarHandle.fullFence();
    }

    /**
     * Consumes the completes of every origin of the group if all have arrived.
     *
     * @return whether they had.
     */
    boolean testCompletes(final Group origins) {
        final int[] members = origins.membersView();
        if (!arrived(completeMatrix, members, completesConsumed)) {
            return false;
        }
        consume(members, completesConsumed);
        VarHandle.fullFence();
        return true;
    }

    /**
     * @return the senders of the group whose post ({@code posts}) or complete has not arrived yet.
     */
    int[] pending(final boolean posts, final int[] senders) {
        final long matrix = posts ? postMatrix : completeMatrix;
        final int[] consumed = posts ? postsConsumed : completesConsumed;
        return Arrays.stream(senders)
            .filter(sender -> Words.getIntAcquire(mapping, WindowLayout.counterOffset(matrix, ranks, rank, sender))
                - consumed[sender] <= 0)
            .toArray();
    }

    private boolean arrived(final long matrix, final int[] senders, final int[] consumed) {
        for (final int sender : senders) {
            final int count = Words.getIntAcquire(mapping, WindowLayout.counterOffset(matrix, ranks, rank, sender));
            if (count - consumed[sender] <= 0) {
                return false;
            }
        }
        return true;
    }

    private static void consume(final int[] senders, final int[] consumed) {
        for (final int sender : senders) {
            consumed[sender]++;
        }
    }
}
