package org.rma4j;

import java.lang.foreign.MemorySegment;
import org.rma4j.internal.mpi.MpiLink;
import org.rma4j.shm.Liveness;

/**
 * What the creation of a window over a communicator across nodes ({@link WindowCreation}) adds to the protocol
 * of one node (MPI-3.1 section 11.2):
 * <ul>
 *   <li>every node gets its own window file, created by its first rank of the communicator and mapped by the
 *   node's other ranks; it holds the lock words, counters, notification lanes and (flavors ALLOCATE) the memory
 *   of the node's ranks, the other nodes' ranks having size 0 in it;</li>
 *   <li>after barrier 2 every rank attaches the mapping that holds its memory (static flavors) to the link's one
 *   dynamic MPI window ({@code MPI_Win_attach}: a local call, no MPI collective), writes the memory's address
 *   into its record, and registers the window's {@link TargetAgent} before barrier 3, so that no request
 *   reaches a rank before it can apply it; after barrier 3 every rank knows every rank's address;</li>
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
        /** Every rank's memory address in its process, filled after barrier 3. */
        final long[] bases;
        final long key;

        Part(final CommContext context, final int keyNumber) {
            final int ranks = context.size();
            final RmaJob job = context.job();
            this.local = new boolean[ranks];
            this.creators = new boolean[ranks];
            this.bases = new long[ranks];
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
     * The transport of the window at this rank, its agent registered with the link.
     */
    static WindowTransport transport(final Part part, final WindowState state, final ShmTransport local,
        final TargetMemory memory, final Notifications notifications, final int[] dispUnits, final WindowFlavor flavor,
        final Liveness liveness) {
        final MpiLink link = state.job().link();
        final MemorySegment exposed = flavor == WindowFlavor.DYNAMIC
            ? MemorySegment.NULL
            : ((TargetMemory.Fixed)memory).mapping(state.rank());
        link.attach(exposed);
        final HybridTransport transport = new HybridTransport(state, local, part.local, dispUnits, part.bases,
            flavor == WindowFlavor.DYNAMIC, exposed, part.key, liveness);
        link.register(part.key, new TargetAgent(state, local, notifications));
        return transport;
    }

}
