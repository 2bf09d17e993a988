package org.rma4j.examples.notified;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
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
 * The one-sided {@link PipelineChannel}s of {@link PipelinedStencil} (Belli and Hoefler, section VI-A):
 * Notified Access, put + flush + flag, post / start / complete / wait, and fence. Values land in the
 * slots of {@link StencilLayout}.
 */
final class PipelineChannels {
    /** Tag of the corner value; row j travels with tag j >= 1. */
    static final int CORNER_TAG = 0;

    private PipelineChannels() {
    }

    /**
     * Collective: opens the one-sided channel of {@code sync} for a grid of {@code rows} rows.
     *
     * @throws IllegalArgumentException for {@link Sync#SEND_RECV}, which is not one-sided.
     */
    static PipelineChannel open(final Sync sync, final RmaJob job, final int rows) {
        if (sync == Sync.SEND_RECV) {
            throw new IllegalArgumentException(sync.label() + " is not a one-sided variant");
        }
        final Window window = job.allocate(StencilLayout.windowBytes(rows), StencilLayout.DISP_UNIT);
        return switch (sync) {
            case NOTIFIED -> new Notified(window, rows);
            case PUT_FLUSH -> new PutFlush(window, rows);
            case PSCW -> new Pscw(window, rows);
            default -> new Fence(window, rows);
        };
    }

    private static double slot(final Window window, final int index) {
        return window.segment().get(JAVA_DOUBLE, StencilLayout.slotOffset(index));
    }

    private static int left(final Window window) {
        return window.rank() - 1;
    }

    private static int right(final Window window) {
        return window.rank() + 1;
    }

    private static int last(final Window window) {
        return window.ranks() - 1;
    }

    /**
     * Notified Access: the left neighbour putNotifies row j's value into slot j with tag j. This rank
     * holds one persistent request per row, (left, j, count 1), and starts them all when a pass begins,
     * so each arrival completes its request directly; it then waits for them in row order. The corner
     * travels the same way with tag {@link #CORNER_TAG}. One transfer per value, no flag.
     */
    static final class Notified implements PipelineChannel {
        private final Window window;
        private final NotifyRequest[] rowRequests;
        private final NotifyRequest cornerRequest;
        private final double[] value = new double[1];

        Notified(final Window window, final int rows) {
            this.window = window;
            final int rank = window.rank();
            this.rowRequests = new NotifyRequest[rows];
            if (rank > 0) {
                for (int row = 1; row < rows; row++) {
                    rowRequests[row] = window.notifyInit(left(window), row, 1);
                }
            }
            this.cornerRequest = rank == 0 && window.ranks() > 1
                ? window.notifyInit(last(window), CORNER_TAG, 1)
                : null;
        }

        @Override
        public void beginPass(final int pass) {
            for (int row = 1; row < rowRequests.length; row++) {
                if (rowRequests[row] != null) {
                    rowRequests[row].start();
                }
            }
            if (cornerRequest != null) {
                cornerRequest.start();
            }
        }

        @Override
        public double receiveLeft(final int row) {
            rowRequests[row].await();
            return slot(window, row);
        }

        @Override
        public void sendRight(final int row, final double rowValue) {
            value[0] = rowValue;
            window.putNotify(value, 0, 1, right(window), StencilLayout.slotOffset(row), row);
        }

        @Override
        public void sendCorner(final double cornerValue) {
            value[0] = cornerValue;
            window.putNotify(value, 0, 1, 0, StencilLayout.slotOffset(StencilLayout.CORNER_SLOT), CORNER_TAG);
        }

        @Override
        public double receiveCorner() {
            cornerRequest.await();
            return slot(window, StencilLayout.CORNER_SLOT);
        }

        @Override
        public void close() {
            for (final NotifyRequest request : rowRequests) {
                if (request != null) {
                    request.close();
                }
            }
            if (cornerRequest != null) {
                cornerRequest.close();
            }
            window.free();
        }
    }

    /**
     * Passive target in one lock_all epoch: put the value, flush, write the flag (accumulate REPLACE,
     * an atomic put, since the reader polls it with fetch_and_op), flush. Flags carry increasing
     * sequence numbers (pass * n + row for rows, pass + 1 for the corner), so one flag per sender
     * suffices and no value is taken for another pass's.
     */
    static final class PutFlush implements PipelineChannel {
        private final Window window;
        private final int rows;
        private final int rank;
        private final double[] value = new double[1];
        private final MemorySegment flag = MemorySegment.ofArray(new long[1]);
        private int pass;

        PutFlush(final Window window, final int rows) {
            this.window = window;
            this.rows = rows;
            this.rank = window.rank();
            window.lockAll();
        }

        @Override
        public void beginPass(final int passNumber) {
            this.pass = passNumber;
        }

        @Override
        public double receiveLeft(final int row) {
            awaitFlag(StencilLayout.ROW_FLAG_OFFSET, (long)pass * rows + row);
            return slot(window, row);
        }

        @Override
        public void sendRight(final int row, final double rowValue) {
            deliver(right(window), row, rowValue, StencilLayout.ROW_FLAG_OFFSET, (long)pass * rows + row);
        }

        @Override
        public void sendCorner(final double cornerValue) {
            deliver(0, StencilLayout.CORNER_SLOT, cornerValue, StencilLayout.CORNER_FLAG_OFFSET, pass + 1);
        }

        @Override
        public double receiveCorner() {
            awaitFlag(StencilLayout.CORNER_FLAG_OFFSET, pass + 1);
            return slot(window, StencilLayout.CORNER_SLOT);
        }

        @Override
        public void close() {
            window.unlockAll();
            window.free();
        }

        private void deliver(final int target, final int slot, final double slotValue, final long flagOffset,
            final long sequence) {
            value[0] = slotValue;
            window.put(value, 0, 1, target, StencilLayout.slotOffset(slot));
            // NOTE: the flush completes the value at the target before the flag announces it.
            window.flush(target);
            flag.set(JAVA_LONG, 0, sequence);
            window.accumulate(flag, 1, Datatype.LONG, target, flagOffset, 1, Datatype.LONG, Op.REPLACE);
            window.flush(target);
        }

        private void awaitFlag(final long flagOffset, final long sequence) {
            final SpinWait spin = new SpinWait();
            while (true) {
                final long seen = window.fetchAndOp(0L, rank, flagOffset, Op.NO_OP);
                window.flush(rank);
                if (seen >= sequence) {
                    break;
                }
                spin.idle();
            }
            // The slot is read by a local load: order it after the flag read (MPI-3.1 Example 11.7).
            window.sync();
        }
    }

    /**
     * General active target synchronization between neighbours: this rank exposes its window to the
     * left neighbour for one row at a time (post of row j + 1 right after the wait of row j, before
     * computing row j, so the neighbour's start rarely waits), and puts each row's value in an access
     * epoch to the right neighbour (start, put, complete). Rank 0 exposes itself to the last rank for
     * the corner during the whole pass.
     */
    static final class Pscw implements PipelineChannel {
        private final Window window;
        private final int rows;
        private final Group leftGroup;
        private final Group rightGroup;
        private final Group lastGroup;
        private final Group rootGroup = Group.of(0);
        private final double[] value = new double[1];

        Pscw(final Window window, final int rows) {
            this.window = window;
            this.rows = rows;
            final int rank = window.rank();
            this.leftGroup = rank > 0 ? Group.of(left(window)) : Group.EMPTY;
            this.rightGroup = rank < last(window) ? Group.of(right(window)) : Group.EMPTY;
            this.lastGroup = Group.of(last(window));
        }

        @Override
        public void beginPass(final int pass) {
            if (window.rank() > 0) {
                window.post(leftGroup, 0);
            } else if (window.ranks() > 1) {
                window.post(lastGroup, 0);
            }
        }

        @Override
        public double receiveLeft(final int row) {
            window.await();
            final double received = slot(window, row);
            if (row + 1 < rows) {
                window.post(leftGroup, 0);
            }
            return received;
        }

        @Override
        public void sendRight(final int row, final double rowValue) {
            value[0] = rowValue;
            window.start(rightGroup, 0);
            window.put(value, 0, 1, right(window), StencilLayout.slotOffset(row));
            window.complete();
        }

        @Override
        public void sendCorner(final double cornerValue) {
            value[0] = cornerValue;
            window.start(rootGroup, 0);
            window.put(value, 0, 1, 0, StencilLayout.slotOffset(StencilLayout.CORNER_SLOT));
            window.complete();
        }

        @Override
        public double receiveCorner() {
            window.await();
            return slot(window, StencilLayout.CORNER_SLOT);
        }

        @Override
        public void close() {
            window.free();
        }
    }

    /**
     * Fence: the pipeline becomes a wavefront of global steps. In a pass of S = (n - 1) + (P - 1)
     * steps, rank r handles row j in step j + r: the value it reads was put by rank r - 1 in step
     * j + r - 1 and completed by the fence that ended that step. Every rank fences once per step
     * whether it has a row in it or not, so a pass costs S barriers over all ranks.
     */
    static final class Fence implements PipelineChannel {
        private final Window window;
        private final int rank;
        private final int steps;
        private final double[] value = new double[1];
        private int fences;

        Fence(final Window window, final int rows) {
            this.window = window;
            this.rank = window.rank();
            this.steps = window.ranks() == 1 ? 0 : (rows - 1) + (window.ranks() - 1);
            window.fence(Rma.MODE_NOPRECEDE);
        }

        @Override
        public void beginPass(final int pass) {
            fences = 0;
        }

        @Override
        public double receiveLeft(final int row) {
            fenceUntil(row + rank - 1);
            return slot(window, row);
        }

        @Override
        public void sendRight(final int row, final double rowValue) {
            fenceUntil(row + rank - 1);
            value[0] = rowValue;
            window.put(value, 0, 1, right(window), StencilLayout.slotOffset(row));
        }

        @Override
        public void sendCorner(final double cornerValue) {
            fenceUntil(steps - 1);
            value[0] = cornerValue;
            window.put(value, 0, 1, 0, StencilLayout.slotOffset(StencilLayout.CORNER_SLOT));
        }

        @Override
        public double receiveCorner() {
            fenceUntil(steps);
            return slot(window, StencilLayout.CORNER_SLOT);
        }

        @Override
        public void endPass() {
            fenceUntil(steps);
        }

        @Override
        public void close() {
            window.fence(Rma.MODE_NOSUCCEED);
            window.free();
        }

        /**
         * Fences until this pass has had {@code count} fences: the end of step {@code count}.
         */
        private void fenceUntil(final int count) {
            while (fences < count) {
                window.fence(0);
                fences++;
            }
        }
    }
}
