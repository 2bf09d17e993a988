package org.rma4j.examples.notified;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import org.rma4j.Datatype;
import org.rma4j.NotifyRequest;
import org.rma4j.Op;
import org.rma4j.Rma;
import org.rma4j.Window;
import org.rma4j.examples.SpinWait;

/**
 * The one-sided {@link TileTransport}s of {@link TileCholesky} (Belli and Hoefler, section VI-C), over
 * the tile window of {@link CholeskyLayout}: the tile goes to its slot at each consumer, then the
 * consumer is told which slot was filled.
 */
final class TileTransports {
    private TileTransports() {
    }

    /**
     * Opens the one-sided transport of {@code sync} over {@code window}. Not collective.
     *
     * @throws IllegalArgumentException for a variant other than NOTIFIED and PUT_FLUSH.
     */
    static TileTransport open(final Sync sync, final Window window, final CholeskyLayout layout) {
        return switch (sync) {
            case NOTIFIED -> new Notified(window, layout);
            case PUT_FLUSH -> new PutFlush(window, layout);
            default -> throw new IllegalArgumentException(sync.label() + " is not a one-sided Cholesky variant");
        };
    }

    private static MemorySegment slot(final Window window, final CholeskyLayout layout, final int tag) {
        return window.segment().asSlice(layout.tileOffset(layout.tagRow(tag), layout.tagColumn(tag)),
            layout.tileBytes());
    }

    /**
     * Notified Access: the producer putNotifies the tile into its slot with the tile's tag; the consumer
     * keeps one persistent request (ANY_SOURCE, ANY_TAG, count 1), starts and waits for it, and reads
     * which tile arrived from the tag of its status. The notification is the only announcement.
     */
    static final class Notified implements TileTransport {
        private final Window window;
        private final CholeskyLayout layout;
        private final NotifyRequest anyTile;

        Notified(final Window window, final CholeskyLayout layout) {
            this.window = window;
            this.layout = layout;
            this.anyTile = window.notifyInit(Rma.ANY_SOURCE, Rma.ANY_TAG, 1);
        }

        @Override
        public void publish(final int tag, final double[] tile, final int[] consumers) {
            final MemorySegment origin = MemorySegment.ofArray(tile);
            final long slot = layout.tileOffset(layout.tagRow(tag), layout.tagColumn(tag));
            for (final int consumer : consumers) {
                window.putNotify(origin, consumer, slot, tag);
            }
        }

        @Override
        public Arrival receive() {
            anyTile.start();
            final NotifyRequest.Status status = anyTile.await();
            final int tag = status.tag();
            if (status.displacement() != layout.tileOffset(layout.tagRow(tag), layout.tagColumn(tag))
                || status.length() != layout.tileBytes()) {
                throw new IllegalStateException("notification " + status + " does not describe the slot of tag " + tag);
            }
            return new Arrival(tag, slot(window, layout, tag));
        }

        @Override
        public void close() {
            anyTile.close();
        }
    }

    /**
     * The one-sided protocol of section VI-C: put the tile, claim an entry of the consumer's ring with
     * fetch_and_op(SUM 1) on its counter, flush, then write the tile's tag into the claimed entry
     * (accumulate REPLACE of tag + 1, an atomic put, as the consumer polls it with fetch_and_op) and
     * flush. The consumer polls its ring entries in order.
     */
    static final class PutFlush implements TileTransport {
        private final Window window;
        private final CholeskyLayout layout;
        private final int rank;
        private final MemorySegment entry = MemorySegment.ofArray(new long[1]);
        private int nextEntry;

        PutFlush(final Window window, final CholeskyLayout layout) {
            this.window = window;
            this.layout = layout;
            this.rank = window.rank();
            window.lockAll();
        }

        @Override
        public void publish(final int tag, final double[] tile, final int[] consumers) {
            final MemorySegment origin = MemorySegment.ofArray(tile);
            final long slot = layout.tileOffset(layout.tagRow(tag), layout.tagColumn(tag));
            for (final int consumer : consumers) {
                window.put(origin, consumer, slot);
                final long claimed = window.fetchAndOp(1L, consumer, CholeskyLayout.COUNTER_OFFSET, Op.SUM);
                // NOTE: the flush completes the tile at the consumer before its tag is written to the ring.
                window.flush(consumer);
                entry.set(JAVA_LONG, 0, tag + 1L);
                window.accumulate(entry, 1, Datatype.LONG, consumer, layout.ringOffset((int)claimed), 1, Datatype.LONG,
                    Op.REPLACE);
                window.flush(consumer);
            }
        }

        @Override
        public Arrival receive() {
            final long offset = layout.ringOffset(nextEntry);
            final SpinWait spin = new SpinWait();
            long value;
            while (true) {
                value = window.fetchAndOp(0L, rank, offset, Op.NO_OP);
                window.flush(rank);
                if (value != 0) {
                    break;
                }
                spin.idle();
            }
            nextEntry++;
            // The tile is read by local loads: order them after the ring read (MPI-3.1 Example 11.7).
            window.sync();
            final int tag = (int)(value - 1);
            return new Arrival(tag, slot(window, layout, tag));
        }

        @Override
        public void close() {
            window.unlockAll();
        }
    }
}
