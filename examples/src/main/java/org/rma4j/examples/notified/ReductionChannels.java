package org.rma4j.examples.notified;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import org.rma4j.Datatype;
import org.rma4j.Group;
import org.rma4j.NotifyRequest;
import org.rma4j.Op;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.examples.SpinWait;

/**
 * The one-sided {@link ReductionChannel}s of {@link TreeReduction} (Belli and Hoefler, section VI-B):
 * Notified Access with one counting request per parent, put + flush + counter, and post / start /
 * complete / wait. Children's partial sums land in the slots of {@link TreeLayout}.
 */
final class ReductionChannels {
    /** The tag of every partial sum. */
    static final int TAG = 16;

    private ReductionChannels() {
    }

    /**
     * Collective: opens the one-sided channel of {@code sync} for vectors of {@code length} longs.
     *
     * @throws IllegalArgumentException for a variant that is not one-sided or not implemented here.
     */
    static ReductionChannel open(final Sync sync, final RmaJob job, final int length) {
        if (sync != Sync.NOTIFIED && sync != Sync.PUT_FLUSH && sync != Sync.PSCW) {
            throw new IllegalArgumentException(sync.label() + " is not a one-sided tree variant");
        }
        final int children = TreeShape.childCount(job.rank(), job.size());
        final Window window = job.allocate(TreeLayout.windowBytes(children, length), TreeLayout.DISP_UNIT);
        return switch (sync) {
            case NOTIFIED -> new Notified(window, children);
            case PUT_FLUSH -> new PutFlush(window, children);
            default -> new Pscw(window, children);
        };
    }

    /**
     * Adds the {@code children} slots of this rank's window into {@code partial}.
     */
    private static void addSlots(final Window window, final int children, final long[] partial) {
        final MemorySegment memory = window.segment();
        final int length = partial.length;
        for (int child = 0; child < children; child++) {
            final long base = TreeLayout.slotOffset(child, length);
            for (int i = 0; i < length; i++) {
                partial[i] += memory.get(JAVA_LONG, base + (long)i * Long.BYTES);
            }
        }
    }

    private static long mySlot(final Window window, final int length) {
        return TreeLayout.slotOffset(TreeShape.childIndex(window.rank()), length);
    }

    /**
     * Notified Access with the counting feature (section III): each child putNotifies its partial sum
     * into its slot at the parent with tag {@link #TAG}; the parent waits for all of them with ONE
     * persistent request (ANY_SOURCE, TAG, expected count = number of children).
     */
    static final class Notified implements ReductionChannel {
        private final Window window;
        private final int children;
        private final NotifyRequest allChildren;

        Notified(final Window window, final int children) {
            this.window = window;
            this.children = children;
            this.allChildren = children > 0 ? window.notifyInit(Rma.ANY_SOURCE, TAG, children) : null;
        }

        @Override
        public void addChildren(final int round, final long[] partial) {
            allChildren.start();
            final NotifyRequest.Status status = allChildren.await();
            if (status.count() != children) {
                throw new IllegalStateException(
                    "counting request completed with " + status + ", expected " + children + " notifications");
            }
            addSlots(window, children, partial);
        }

        @Override
        public void deliver(final int round, final long[] partial) {
            window.putNotify(partial, 0, partial.length, TreeShape.parent(window.rank()),
                mySlot(window, partial.length), TAG);
        }

        @Override
        public void close() {
            if (allChildren != null) {
                allChildren.close();
            }
            window.free();
        }
    }

    /**
     * Passive target in one lock_all epoch: each child puts its partial sum, flushes, increments the
     * parent's counter (accumulate SUM 1) and flushes; the parent polls the counter with
     * fetch_and_op(NO_OP) until it reaches (round + 1) x children.
     */
    static final class PutFlush implements ReductionChannel {
        private static final MemorySegment ONE = MemorySegment.ofArray(new long[] {1});

        private final Window window;
        private final int children;

        PutFlush(final Window window, final int children) {
            this.window = window;
            this.children = children;
            window.lockAll();
        }

        @Override
        public void addChildren(final int round, final long[] partial) {
            final long expected = (long)(round + 1) * children;
            final SpinWait spin = new SpinWait();
            while (true) {
                final long arrived = window.fetchAndOp(0L, window.rank(), TreeLayout.COUNTER_OFFSET, Op.NO_OP);
                window.flush(window.rank());
                if (arrived >= expected) {
                    break;
                }
                spin.idle();
            }
            // The slots are read by local loads: order them after the counter read (MPI-3.1 Example 11.7).
            window.sync();
            addSlots(window, children, partial);
        }

        @Override
        public void deliver(final int round, final long[] partial) {
            final int parent = TreeShape.parent(window.rank());
            window.put(partial, 0, partial.length, parent, mySlot(window, partial.length));
            // NOTE: the flush completes the partial sum at the parent before the counter announces it.
            window.flush(parent);
            window.accumulate(ONE, 1, Datatype.LONG, parent, TreeLayout.COUNTER_OFFSET, 1, Datatype.LONG, Op.SUM);
            window.flush(parent);
        }

        @Override
        public void close() {
            window.unlockAll();
            window.free();
        }
    }

    /**
     * General active target synchronization: the parent posts to its children and waits; each child
     * starts an access epoch to its parent, puts, and completes.
     */
    static final class Pscw implements ReductionChannel {
        private final Window window;
        private final Group childGroup;
        private final Group parentGroup;
        private final int children;

        Pscw(final Window window, final int children) {
            this.window = window;
            this.children = children;
            final int[] members = new int[children];
            for (int child = 0; child < children; child++) {
                members[child] = TreeShape.firstChild(window.rank()) + child;
            }
            this.childGroup = Group.of(members);
            this.parentGroup = window.rank() > 0 ? Group.of(TreeShape.parent(window.rank())) : Group.EMPTY;
        }

        @Override
        public void addChildren(final int round, final long[] partial) {
            window.post(childGroup, 0);
            window.await();
            addSlots(window, children, partial);
        }

        @Override
        public void deliver(final int round, final long[] partial) {
            final int parent = TreeShape.parent(window.rank());
            window.start(parentGroup, 0);
            window.put(partial, 0, partial.length, parent, mySlot(window, partial.length));
            window.complete();
        }

        @Override
        public void close() {
            window.free();
        }
    }
}
