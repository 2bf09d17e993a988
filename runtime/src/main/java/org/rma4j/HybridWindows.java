package org.rma4j;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.rma4j.internal.mpi.MpiLink;
import org.rma4j.mpi.MpiException;
import org.rma4j.mpi.MpiMode;
import org.rma4j.mpi.MpiWin;
import org.rma4j.shm.Liveness;

/**
 * What the creation of a window over a communicator across nodes ({@link WindowCreation}) adds to the protocol
 * of one node (MPI-3.1 section 11.2):
 * <ul>
 *   <li>every node gets its own window file, created by its first rank of the communicator and mapped by the
 *   node's other ranks; it holds the lock words, counters, notification lanes and (flavors ALLOCATE) the memory
 *   of the node's ranks, the other nodes' ranks having size 0 in it;</li>
 *   <li>after barrier 2 every rank takes part in {@code MPI_Win_create} over its own memory (static flavors; a
 *   collective call of the communicator, with size 0 where the rank could not map its memory), then opens the
 *   window's lasting {@code MPI_Win_lock_all(MPI_MODE_NOCHECK)} epoch, and registers the window's
 *   {@link TargetAgent} before barrier 3, so that no request reaches a rank before it can apply it;</li>
 *   <li>the window's key in requests is rank 0's job rank and a number rank 0 took.</li>
 * </ul>
 * {@code allocateShared} over such a communicator is the standard's error RMA_SHARED, at every rank.
 */
final class HybridWindows {
    private HybridWindows() {
    }

    /** One rank's share of a window across nodes while it is made. */
    static final class Part {
        /** Per rank of the window: whether it runs on this rank's node. */
        final boolean[] local;
        /** Per rank: whether it creates its node's window file (its node's first rank). */
        final boolean[] creators;
        /** This rank's node's creator. */
        final int creator;
        /** Every rank's memory address modulo the page size, filled after barrier 3. */
        final int[] basesInPage;
        final long key;
        MpiWin win;

        Part(final CommContext context, final int keyNumber) {
            final int ranks = context.size();
            final RmaJob job = context.job();
            this.local = new boolean[ranks];
            this.creators = new boolean[ranks];
            this.basesInPage = new int[ranks];
            final int node = job.nodeOf(job.rank());
            int first = -1;
            final java.util.Set<Integer> seen = new java.util.HashSet<>();
            for (int r = 0; r < ranks; r++) {
                final int itsNode = job.nodeOf(context.jobRank(r));
                local[r] = itsNode == node;
                creators[r] = seen.add(itsNode);
                if (local[r] && first < 0) {
                    first = r;
                }
            }
            this.creator = first;
            this.key = (long)context.jobRank(0) << 32 | (keyNumber & 0xFFFFFFFFL);
        }

        /** @return the sizes the node's window file places: the node's ranks' only. */
        long[] placed(final long[] sizes) {
            final long[] placed = new long[sizes.length];
            for (int r = 0; r < sizes.length; r++) {
                placed[r] = local[r] ? sizes[r] : 0;
            }
            return placed;
        }
    }

    /**
     * @throws RmaException RMA_SHARED for allocateShared over a communicator across nodes.
     */
    static void checkFlavor(final CommContext context, final WindowFlavor flavor, final String call) {
        if (context.acrossNodes() && flavor == WindowFlavor.SHARED) {
            throw new RmaException(ErrorClass.RMA_SHARED,
                call + " over " + context + ", whose ranks run on several"
                    + " nodes: a shared window needs ranks that can map each other's memory (use a communicator from"
                    + " splitShared)");
        }
    }

    /**
     * {@code MPI_Win_create} over this rank's memory (static flavors; collective over the window's
     * communicator, every rank calls it, {@code memory} empty where the rank could not map its own), then the
     * window's lasting epoch.
     *
     * @throws RmaException OTHER if MPI refuses: the job cannot go on in step (ranks may disagree).
     */
    static void createMpiWindow(final Part part, final CommContext context, final WindowFlavor flavor,
        final MemorySegment memory) {
        if (flavor == WindowFlavor.DYNAMIC) {
            return;
        }
        final MpiLink link = context.job().link();
        link.lock();
        try {
            part.win = MpiWin.create(context.mpiComm(), memory, 1, Map.of());
            part.win.lockAll(MpiMode.NOCHECK);
        } catch (final MpiException e) {
            throw context.recordFailure(new RmaException(ErrorClass.OTHER, "MPI_Win_create of a window over " + context
                + " failed at rank " + context.rank() + ": " + e.getMessage(), e));
        } finally {
            link.unlock();
        }
    }

    /**
     * The transport of the window at this rank, its agent registered with the link.
     */
    static WindowTransport transport(final Part part, final WindowState state, final ShmTransport local,
        final int[] dispUnits, final WindowFlavor flavor, final Liveness liveness) {
        final HybridTransport transport = new HybridTransport(state, local, part.local, dispUnits, part.basesInPage,
            flavor == WindowFlavor.DYNAMIC, part.win, part.key, liveness);
        state.job().link().register(part.key, new TargetAgent(state, local));
        return transport;
    }

    /** Frees the MPI window of a creation every rank gives up (collective). */
    static void discard(final Part part, final CommContext context) {
        if (part == null || part.win == null) {
            return;
        }
        final MpiLink link = context.job().link();
        link.unregister(part.key);
        link.lock();
        try {
            part.win.unlockAll();
            part.win.free();
        } finally {
            link.unlock();
        }
        part.win = null;
    }
}
