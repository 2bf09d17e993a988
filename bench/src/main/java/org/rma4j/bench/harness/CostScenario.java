package org.rma4j.bench.harness;

import static org.rma4j.bench.harness.PingPongLayout.DATA_OFFSET;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.rma4j.NotifyRequest;
import org.rma4j.Window;

/**
 * The cost parameters of the Notified Access paper (Belli and Hoefler, IPDPS 2015, section V-A and
 * Table I) measured between two rank JVMs: the rows from which {@link CostReport} derives t_init,
 * t_free, t_start, t_na, o_r, L and G. Each per-call row times {@link RankContext#iterations} batches of
 * {@link #BATCH} calls (after {@link RankContext#warmup} untimed batches, at most {@link #MAX_WARMUP}) and
 * records the time per call:
 *
 * <ul>
 *   <li>{@code t-init} / {@code t-free}: rank 0 makes {@link #BATCH} requests with {@code notifyInit}
 *   (source 1, a tag, count 1), timed, then frees them with {@code close}, timed apart.</li>
 *   <li>{@code t-start}: rank 0 starts {@link #BATCH} inactive requests that it started and completed before
 *   (persistent requests, as the paper's MPI_Start restarts one), timed; nothing has arrived, so a start only
 *   activates. Then rank 1 putNotifies one notification per request and rank 0 awaits them all, untimed.</li>
 *   <li>{@code t-start-first}: rank 0 starts {@link #BATCH} requests made just before, timed (made before and
 *   freed after, untimed): a request's first start, which also lists it with the window's notification
 *   endpoint.</li>
 *   <li>{@code t-na}: rank 0 issues {@link #BATCH} putNotify of 8 B to rank 1, timed (the send overhead
 *   o_s = t_na); rank 1 takes them with one counting request, then both meet in the job's barrier.</li>
 *   <li>{@code start-await-arrived}: rank 1 putNotifies {@link #BATCH} notifications of 8 B and flushes,
 *   both meet in the barrier, then rank 0 starts and awaits a request (source 1, count 1) once per
 *   notification, timed: start + await of a request whose notification has arrived, with a single request
 *   active; o_r is this minus t_start (both the start of a request started before).</li>
 *   <li>{@code na-half-round-trip}: the notified-put ping-pong ({@link RmaScenarios#notifiedPut}) at
 *   {@link #SIZES}: L at 0 B, G from the two largest sizes.</li>
 * </ul>
 */
final class CostScenario {
    /** Payload sizes of the ping-pong: zero bytes for L, two large sizes for G. */
    static final long[] SIZES = {0, 8, 65536, 1048576};
    /** Calls per timed batch. */
    static final int BATCH = 32;
    /** Most untimed batches per row. */
    static final int MAX_WARMUP = 5_000;
    /** Tag of the notifications. */
    static final int TAG = 98;

    private final RankContext context;
    private final RmaScenarios scenarios;
    private final Window window;
    private final double[] first;
    private final double[] second;

    CostScenario(final RankContext context) {
        this.context = context;
        this.scenarios = new RmaScenarios(context);
        this.window = scenarios.window();
        this.first = new double[context.iterations];
        this.second = new double[context.iterations];
    }

    void run() throws Exception {
        scenarios.notifiedPut("na-half-round-trip");
        initAndFree();
        firstStart();
        window.lockAll();
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment eight = arena.allocate(8, 8);
            restart(eight);
            notifiedPutIssue(eight);
            startAwaitArrived(eight);
        }
        window.unlockAll();
        scenarios.close();
    }

    private int warmup() {
        return Math.min(context.warmup, MAX_WARMUP);
    }

    private void initAndFree() {
        if (context.isClient()) {
            final NotifyRequest[] requests = new NotifyRequest[BATCH];
            for (int i = -warmup(); i < context.iterations; i++) {
                final long t0 = System.nanoTime();
                for (int k = 0; k < BATCH; k++) {
                    requests[k] = window.notifyInit(context.partner, TAG, 1);
                }
                final long t1 = System.nanoTime();
                for (int k = 0; k < BATCH; k++) {
                    requests[k].close();
                }
                final long t2 = System.nanoTime();
                record(i, t1 - t0, t2 - t1);
            }
            SampleFile.append(context.out, "t-init", Long.BYTES, first, context.iterations);
            SampleFile.append(context.out, "t-free", Long.BYTES, second, context.iterations);
        }
        context.job.barrier();
    }

    private void firstStart() {
        if (context.isClient()) {
            final NotifyRequest[] requests = new NotifyRequest[BATCH];
            for (int i = -warmup(); i < context.iterations; i++) {
                for (int k = 0; k < BATCH; k++) {
                    requests[k] = window.notifyInit(context.partner, TAG, 1);
                }
                final long t0 = System.nanoTime();
                for (int k = 0; k < BATCH; k++) {
                    requests[k].start();
                }
                final long t1 = System.nanoTime();
                for (int k = 0; k < BATCH; k++) {
                    requests[k].close();
                }
                record(i, t1 - t0, 0);
            }
            SampleFile.append(context.out, "t-start-first", Long.BYTES, first, context.iterations);
        }
        context.job.barrier();
    }

    private void restart(final MemorySegment eight) {
        final NotifyRequest[] requests = new NotifyRequest[BATCH];
        if (context.isClient()) {
            for (int k = 0; k < BATCH; k++) {
                requests[k] = window.notifyInit(context.partner, TAG, 1);
            }
        }
        for (int i = -warmup(); i < context.iterations; i++) {
            if (context.isClient()) {
                final long t0 = System.nanoTime();
                for (int k = 0; k < BATCH; k++) {
                    requests[k].start();
                }
                record(i, System.nanoTime() - t0, 0);
            }
            // NOTE: the partner sends only after every request has started, so each start only activates.
            context.job.barrier();
            if (context.isClient()) {
                for (int k = 0; k < BATCH; k++) {
                    requests[k].await();
                }
            } else {
                sendBatch(eight);
            }
        }
        if (context.isClient()) {
            for (int k = 0; k < BATCH; k++) {
                requests[k].close();
            }
            SampleFile.append(context.out, "t-start", Long.BYTES, first, context.iterations);
        }
        context.job.barrier();
    }

    private void notifiedPutIssue(final MemorySegment eight) {
        try (NotifyRequest all = window.notifyInit(0, TAG, BATCH)) {
            for (int i = -warmup(); i < context.iterations; i++) {
                if (context.isClient()) {
                    final long t0 = System.nanoTime();
                    for (int k = 0; k < BATCH; k++) {
                        window.putNotify(eight, context.partner, DATA_OFFSET, TAG);
                    }
                    record(i, System.nanoTime() - t0, 0);
                } else {
                    all.start();
                    all.await();
                }
                context.job.barrier();
            }
        }
        if (context.isClient()) {
            SampleFile.append(context.out, "t-na", Long.BYTES, first, context.iterations);
        }
    }

    private void startAwaitArrived(final MemorySegment eight) {
        try (NotifyRequest one = window.notifyInit(context.partner, TAG, 1)) {
            for (int i = -warmup(); i < context.iterations; i++) {
                if (!context.isClient()) {
                    sendBatch(eight);
                }
                context.job.barrier();
                if (context.isClient()) {
                    final long t0 = System.nanoTime();
                    for (int k = 0; k < BATCH; k++) {
                        one.start();
                        one.await();
                    }
                    record(i, System.nanoTime() - t0, 0);
                }
                context.job.barrier();
            }
        }
        if (context.isClient()) {
            SampleFile.append(context.out, "start-await-arrived", Long.BYTES, first, context.iterations);
        }
    }

    /** The partner's side of a row, untimed: {@link #BATCH} putNotify of 8 B to rank 0, then a flush. */
    private void sendBatch(final MemorySegment eight) {
        for (int k = 0; k < BATCH; k++) {
            window.putNotify(eight, context.partner, DATA_OFFSET, TAG);
        }
        window.flush(context.partner);
    }

    /** Records a timed batch (i >= 0) as time per call. */
    private void record(final int i, final long firstNs, final long secondNs) {
        if (i >= 0) {
            first[i] = firstNs / (double)BATCH;
            second[i] = secondNs / (double)BATCH;
        }
    }
}
