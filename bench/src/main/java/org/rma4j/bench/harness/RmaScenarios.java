package org.rma4j.bench.harness;

import static org.rma4j.bench.harness.PingPongLayout.ACCUMULATE_OFFSET;
import static org.rma4j.bench.harness.PingPongLayout.CAS_OFFSET;
import static org.rma4j.bench.harness.PingPongLayout.DATA_OFFSET;
import static org.rma4j.bench.harness.PingPongLayout.FETCH_OFFSET;
import static org.rma4j.bench.harness.PingPongLayout.FLAG_OFFSET;
import static org.rma4j.bench.harness.PingPongLayout.GET_OFFSET;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.rma4j.Datatype;
import org.rma4j.Group;
import org.rma4j.LockType;
import org.rma4j.NotifyRequest;
import org.rma4j.Op;
import org.rma4j.Rma;
import org.rma4j.Window;

/**
 * The rma4j rows of the harness, each run by both ranks of a two-process job on a window from
 * {@code allocateShared} (the flavor the C peers use), laid out as {@link PingPongLayout} says. Each
 * echo sends back the bytes that arrived (the server's origin buffer is its own window's data area).
 */
final class RmaScenarios {
    /** Tag of the notified puts. */
    static final int TAG = 99;

    private final RankContext context;
    private final Window window;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment own;
    private final MemorySegment[] localSlices;
    private final MemorySegment[] ownDataSlices;
    private final MemorySegment flagValue;

    RmaScenarios(final RankContext context) {
        this.context = context;
        this.window = context.job.allocateShared(PingPongLayout.partBytes(context.maxSize()), 1);
        this.own = window.segment();
        final MemorySegment local = arena.allocate(context.maxSize(), 64);
        local.fill((byte)1);
        localSlices = new MemorySegment[context.sizes.length];
        ownDataSlices = new MemorySegment[context.sizes.length];
        for (int s = 0; s < context.sizes.length; s++) {
            localSlices[s] = local.asSlice(0, context.sizes[s]);
            ownDataSlices[s] = own.asSlice(DATA_OFFSET, context.sizes[s]);
        }
        flagValue = arena.allocate(ValueLayout.JAVA_LONG);
    }

    /**
     * @return the window, which the cost parameters ({@link CostScenario}) use as well.
     */
    Window window() {
        return window;
    }

    /** Frees the window (collective) and the local buffers. */
    void close() {
        window.free();
        arena.close();
    }

    /**
     * notified-put: Listing 1 of the Notified Access paper. Client: putNotify the payload, flush, start the
     * request, await the echo's notification (the listing starts the request after the ping, while the pong
     * is on its way). Server: start, await, putNotify the bytes that arrived back, flush. Payloads of up to 32
     * bytes travel inside the notification as well as into the window, and the server takes them from there
     * ({@code NotifyRequest.inlineData}); longer ones it sends back from its window.
     */
    void notifiedPut() throws Exception {
        notifiedPut("notified-put");
    }

    /**
     * The notified-put ping-pong under another row id (the cost parameters' {@code na-half-round-trip}).
     */
    void notifiedPut(final String row) throws Exception {
        window.lockAll();
        final MemorySegment inline = arena.allocate(NotifyRequest.INLINE_BYTES, 64);
        try (NotifyRequest request = window.notifyInit(context.partner, TAG, 1)) {
            context.pingPong(row, (s, seq) -> {
                window.putNotify(localSlices[s], context.partner, DATA_OFFSET, TAG);
                window.flush(context.partner);
                request.start();
                request.await();
            }, (s, seq) -> {
                request.start();
                request.await();
                final int arrived = request.inlineData(inline);
                window.putNotify(arrived > 0 ? inline.asSlice(0, arrived) : ownDataSlices[s], context.partner,
                    DATA_OFFSET, TAG);
                window.flush(context.partner);
            });
        }
        window.unlockAll();
    }

    /**
     * counter-put: the notified-put ping-pong with a notification counter (MPI Forum issue 59) instead of a
     * matched request. Client: putNotifyCounter the payload to the partner's counter 0, wait for its own
     * counter 0 to reach the round's count. Server: wait, putNotifyCounter the bytes that arrived back. No epoch
     * and no flush: the operation is complete when it returns, and its increment follows its data.
     */
    void counterPut() throws Exception {
        window.notifyAttach(1);
        final long[] rounds = {0};
        context.pingPong("counter-put", (s, seq) -> {
            window.putNotifyCounter(localSlices[s], context.partner, DATA_OFFSET, 0);
            window.notifyWait(0, ++rounds[0]);
        }, (s, seq) -> {
            window.notifyWait(0, ++rounds[0]);
            window.putNotifyCounter(ownDataSlices[s], context.partner, DATA_OFFSET, 0);
        });
        window.notifyDetach();
    }

    /**
     * put-flush-flag: inside lockAll, put the payload, flush, put the 8-byte sequence number into the
     * partner's flag word, flush; the receiver spins on its own flag word with acquire loads. The flag
     * is a plain put: a torn read cannot equal the new sequence number unless every byte that changed
     * is new, so waiting for equality is safe.
     */
    void putFlushFlag() throws Exception {
        window.lockAll();
        context.pingPong("put-flush-flag", (s, seq) -> {
            window.put(localSlices[s], context.partner, DATA_OFFSET);
            window.flush(context.partner);
            sendFlag(seq);
            RankContext.awaitLong(own, FLAG_OFFSET, seq);
        }, (s, seq) -> {
            RankContext.awaitLong(own, FLAG_OFFSET, seq);
            window.put(ownDataSlices[s], context.partner, DATA_OFFSET);
            window.flush(context.partner);
            sendFlag(seq);
        });
        window.unlockAll();
    }

    private void sendFlag(final long seq) {
        flagValue.set(ValueLayout.JAVA_LONG, 0, seq);
        window.put(flagValue, context.partner, FLAG_OFFSET);
        window.flush(context.partner);
    }

    /**
     * load-store: the partner's part from {@code sharedQuery}; copy the payload into it, release-store
     * the flag; the receiver spins with acquire loads. No rma4j call inside the loop.
     */
    void loadStore() throws Exception {
        window.lockAll();
        final MemorySegment peer = window.sharedQuery(context.partner).segment();
        context.pingPong("load-store", (s, seq) -> {
            MemorySegment.copy(localSlices[s], 0, peer, DATA_OFFSET, context.sizes[s]);
            RankContext.LONG.setRelease(peer, FLAG_OFFSET, seq);
            RankContext.awaitLong(own, FLAG_OFFSET, seq);
        }, (s, seq) -> {
            RankContext.awaitLong(own, FLAG_OFFSET, seq);
            MemorySegment.copy(own, DATA_OFFSET, peer, DATA_OFFSET, context.sizes[s]);
            RankContext.LONG.setRelease(peer, FLAG_OFFSET, seq);
        });
        window.unlockAll();
    }

    /**
     * pscw: the paper's general active target benchmark. Client: start, put, complete, post, wait.
     * Server: post, wait, start, put the bytes back, complete.
     */
    void pscw() throws Exception {
        final Group peer = Group.of(context.partner);
        context.pingPong("pscw", (s, seq) -> {
            window.start(peer, 0);
            window.put(localSlices[s], context.partner, DATA_OFFSET);
            window.complete();
            window.post(peer, 0);
            window.await();
        }, (s, seq) -> {
            window.post(peer, 0);
            window.await();
            window.start(peer, 0);
            window.put(ownDataSlices[s], context.partner, DATA_OFFSET);
            window.complete();
        });
    }

    /**
     * fence: client: put, fence, fence; server: fence, put the bytes back, fence. A round trip is two
     * fence cycles.
     */
    void fence() throws Exception {
        window.fence(0);
        context.pingPong("fence", (s, seq) -> {
            window.put(localSlices[s], context.partner, DATA_OFFSET);
            window.fence(0);
            window.fence(0);
        }, (s, seq) -> {
            window.fence(0);
            window.put(ownDataSlices[s], context.partner, DATA_OFFSET);
            window.fence(0);
        });
        window.fence(Rma.MODE_NOSUCCEED);
    }

    /**
     * Single operations from rank 0 to rank 1's window, each followed by flush (as the MPI peers need
     * for completion): fetchAndOp SUM, an always succeeding compareAndSwap, get 8 B, accumulate 8 B SUM,
     * each on its own cache line, inside lockAll; then lock + unlock (exclusive) and the job barrier.
     */
    void singleOps() throws Exception {
        final int target = context.partner;
        final MemorySegment eight = arena.allocate(ValueLayout.JAVA_LONG);
        eight.set(ValueLayout.JAVA_LONG, 0, 1L);
        window.lockAll();
        context.singleOp("fetch-and-op", calls -> {
            for (int k = 0; k < calls; k++) {
                window.fetchAndOp(1L, target, FETCH_OFFSET, Op.SUM);
                window.flush(target);
            }
        }, false);
        final long[] expected = {0};
        context.singleOp("compare-and-swap", calls -> {
            for (int k = 0; k < calls; k++) {
                final long previous = window.compareAndSwap(expected[0], expected[0] + 1, target, CAS_OFFSET);
                window.flush(target);
                expected[0] = previous == expected[0] ? previous + 1 : previous;
            }
        }, false);
        context.singleOp("get", calls -> {
            for (int k = 0; k < calls; k++) {
                window.get(eight, target, GET_OFFSET);
                window.flush(target);
            }
        }, false);
        context.singleOp("accumulate", calls -> {
            for (int k = 0; k < calls; k++) {
                window.accumulate(eight, 1, Datatype.LONG, target, ACCUMULATE_OFFSET, 1, Datatype.LONG, Op.SUM);
                window.flush(target);
            }
        }, false);
        window.unlockAll();
        context.singleOp("lock-unlock", calls -> {
            for (int k = 0; k < calls; k++) {
                window.lock(LockType.EXCLUSIVE, target);
                window.unlock(target);
            }
        }, false);
        context.singleOp("barrier", calls -> {
            for (int k = 0; k < calls; k++) {
                context.job.barrier();
            }
        }, true);
    }

    /**
     * put-bw: batches of puts of one size to rank 1's data area, each batch ended by flush, inside
     * lockAll.
     */
    void bandwidth() throws Exception {
        final int target = context.partner;
        window.lockAll();
        context.bandwidth("put-bw", s -> window.put(localSlices[s], target, DATA_OFFSET), () -> window.flush(target));
        window.unlockAll();
    }

    /**
     * memcpy-bw (a Java FFM row, no rma4j): MemorySegment.copy between two private native segments of
     * rank 0, in the same batches as put-bw. Its own job, so that its timing loop is not compiled with
     * put-bw's profile.
     */
    static void memcpy(final RankContext context) throws Exception {
        try (Arena arena = Arena.ofShared()) {
            final MemorySegment source = arena.allocate(context.maxSize(), 64);
            source.fill((byte)1);
            final MemorySegment destination = arena.allocate(context.maxSize(), 64);
            final long[] sizes = context.sizes;
            context.bandwidth("memcpy-bw", s -> MemorySegment.copy(source, 0, destination, 0, sizes[s]), () -> {
            });
        }
    }
}
