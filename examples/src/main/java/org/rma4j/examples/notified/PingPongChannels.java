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
 * The one-sided {@link PingPongChannel}s of {@link PingPong}, one per variant of Belli and Hoefler,
 * section V-A: Notified Access (Listing 1), passive target with put, flush and a flag, general active
 * target synchronization and fence. Each payload lands at {@link PingPongLayout#DATA_OFFSET} of the
 * receiver's window.
 */
final class PingPongChannels {
    /** The tag of Listing 1 ({@code customTag}). */
    static final int TAG = 99;

    private PingPongChannels() {
    }

    /**
     * Collective: opens the one-sided channel of {@code sync} for payloads of up to {@code maxSizeBytes}.
     *
     * @throws IllegalArgumentException for {@link Sync#SEND_RECV}, which is not one-sided.
     */
    static PingPongChannel open(final Sync sync, final RmaJob job, final long maxSizeBytes) {
        final Window window = job.allocate(PingPongLayout.windowBytes(maxSizeBytes), PingPongLayout.DISP_UNIT);
        final int peer = peerOf(job.rank());
        return switch (sync) {
            case NOTIFIED -> new Notified(window, peer);
            case PUT_FLUSH -> new PutFlush(window, peer);
            case PSCW -> new Pscw(window, peer);
            case FENCE -> new Fence(window, peer);
            case SEND_RECV -> throw new IllegalArgumentException(sync.label() + " is not a one-sided variant");
        };
    }

    /**
     * @return the other rank of the pair for ranks 0 and 1, {@link Rma#PROC_NULL} for the others.
     */
    static int peerOf(final int rank) {
        return rank < 2 ? 1 - rank : Rma.PROC_NULL;
    }

    private static MemorySegment data(final Window window, final long sizeBytes) {
        return window.segment().asSlice(PingPongLayout.DATA_OFFSET, sizeBytes);
    }

    /**
     * Listing 1: putNotify to the peer; the receiver starts its persistent request (peer, {@link #TAG},
     * count 1) and waits for it. One network transfer, no flag, no extra round trip. (Listing 1 flushes
     * after the notified put; in rma4j the put is complete at the origin when the call returns.)
     */
    static final class Notified implements PingPongChannel {
        private final Window window;
        private final int peer;
        private final NotifyRequest request;

        Notified(final Window window, final int peer) {
            this.window = window;
            this.peer = peer;
            this.request = peer == Rma.PROC_NULL ? null : window.notifyInit(peer, TAG, 1);
        }

        @Override
        public void send(final MemorySegment payload, final long sequence) {
            window.putNotify(payload, peer, PingPongLayout.DATA_OFFSET, TAG);
        }

        @Override
        public MemorySegment receive(final long sizeBytes, final long sequence) {
            request.start();
            final NotifyRequest.Status status = request.await();
            if (status.source() != peer || status.tag() != TAG || status.length() != sizeBytes) {
                throw new IllegalStateException("notification " + status + " does not describe the payload of "
                    + sizeBytes + " bytes from rank " + peer + " with tag " + TAG);
            }
            return data(window, sizeBytes);
        }

        @Override
        public void close() {
            if (request != null) {
                request.close();
            }
            window.free();
        }
    }

    /**
     * Passive target (Figure 2c): in one lock_all epoch, put the payload and flush it, then write the
     * round's sequence number into the peer's flag and flush; the receiver polls its flag with
     * fetch_and_op(NO_OP). The flag is written with accumulate(REPLACE), an atomic put, because a put
     * concurrent with the receiver's fetch_and_op on the same location would be erroneous (MPI-3.1
     * section 11.7.1).
     */
    static final class PutFlush implements PingPongChannel {
        private final Window window;
        private final int peer;
        private final int rank;
        private final MemorySegment flag = MemorySegment.ofArray(new long[1]);

        PutFlush(final Window window, final int peer) {
            this.window = window;
            this.peer = peer;
            this.rank = window.rank();
            window.lockAll();
        }

        @Override
        public void send(final MemorySegment payload, final long sequence) {
            window.put(payload, peer, PingPongLayout.DATA_OFFSET);
            // NOTE: the flush completes the payload at the peer before the flag announces it.
            window.flush(peer);
            flag.set(JAVA_LONG, 0, sequence);
            window.accumulate(flag, 1, Datatype.LONG, peer, PingPongLayout.FLAG_OFFSET, 1, Datatype.LONG, Op.REPLACE);
            window.flush(peer);
        }

        @Override
        public MemorySegment receive(final long sizeBytes, final long sequence) {
            final SpinWait spin = new SpinWait();
            while (true) {
                final long seen = window.fetchAndOp(0L, rank, PingPongLayout.FLAG_OFFSET, Op.NO_OP);
                window.flush(rank);
                if (seen >= sequence) {
                    break;
                }
                spin.idle();
            }
            // The payload is read by local loads: order them after the flag read (MPI-3.1 Example 11.7).
            window.sync();
            return data(window, sizeBytes);
        }

        @Override
        public void close() {
            window.unlockAll();
            window.free();
        }
    }

    /**
     * General active target synchronization, as section V-A lists it for the client: start, put,
     * complete, then post and wait for the answer. The origin's start waits for the target's post:
     * the extra message on the critical path.
     */
    static final class Pscw implements PingPongChannel {
        private final Window window;
        private final int peer;
        private final Group peerGroup;

        Pscw(final Window window, final int peer) {
            this.window = window;
            this.peer = peer;
            this.peerGroup = peer == Rma.PROC_NULL ? Group.EMPTY : Group.of(peer);
        }

        @Override
        public void send(final MemorySegment payload, final long sequence) {
            window.start(peerGroup, 0);
            window.put(payload, peer, PingPongLayout.DATA_OFFSET);
            window.complete();
        }

        @Override
        public MemorySegment receive(final long sizeBytes, final long sequence) {
            window.post(peerGroup, 0);
            window.await();
            return data(window, sizeBytes);
        }

        @Override
        public void close() {
            window.free();
        }
    }

    /**
     * Fence: the sender puts and fences, the receiver fences and reads. Every fence is collective over
     * the window's group, so ranks outside the pair fence twice per round trip.
     */
    static final class Fence implements PingPongChannel {
        private final Window window;
        private final int peer;

        Fence(final Window window, final int peer) {
            this.window = window;
            this.peer = peer;
            window.fence(Rma.MODE_NOPRECEDE);
        }

        @Override
        public void send(final MemorySegment payload, final long sequence) {
            window.put(payload, peer, PingPongLayout.DATA_OFFSET);
            window.fence(0);
        }

        @Override
        public MemorySegment receive(final long sizeBytes, final long sequence) {
            window.fence(0);
            return data(window, sizeBytes);
        }

        @Override
        public void standBy() {
            window.fence(0);
            window.fence(0);
        }

        @Override
        public void close() {
            window.fence(Rma.MODE_NOSUCCEED);
            window.free();
        }
    }
}
