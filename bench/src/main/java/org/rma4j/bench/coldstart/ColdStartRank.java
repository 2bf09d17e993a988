package org.rma4j.bench.coldstart;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rma4j.LockType;
import org.rma4j.NotifyRequest;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;

/**
 * Rank program of {@link ColdStart}: right after {@code Rma.init()}, times each of the first
 * {@code CALLS} calls of one operation after another, then runs {@code STEADY} more calls of it and times
 * the last half of them as its steady state. Rank 0 writes one line per operation to OUT_FILE:
 * {@code name startMillis steadyNanosPerCall nanos_1 ... nanos_CALLS}.
 *
 * <p>The operations run in a fixed order (barrier, fence, lock / unlock, put + flush, notified-put ping-pong),
 * so an operation's first calls may find code an earlier one already compiled (the wait loop, say): the
 * figures are those of a program that makes these calls in this order, not of each call alone.
 *
 * <p>usage: {@code ColdStartRank OUT_FILE CALLS STEADY} in a job of 2 ranks.
 */
public final class ColdStartRank {
    private static final int TAG = 5;

    private ColdStartRank() {
    }

    /** One timed operation: a call, made by rank 0 or by both ranks. */
    private interface Call {
        void run() throws Exception;
    }

    public static void main(final String[] args) throws Exception {
        final Path out = Path.of(args[0]);
        final int calls = Integer.parseInt(args[1]);
        final int steady = Integer.parseInt(args[2]);
        final long initStart = System.nanoTime();
        try (RmaJob job = Rma.init(); Arena arena = Arena.ofShared()) {
            final long initNanos = System.nanoTime() - initStart;
            if (job.size() != 2) {
                throw new IllegalStateException("cold-start jobs have 2 ranks, not " + job.size());
            }
            final int me = job.rank();
            final int partner = 1 - me;
            final List<String> lines = new ArrayList<>();
            lines.add("init " + ManagementFactory.getRuntimeMXBean().getUptime() + " 0 " + initNanos);
            final MemorySegment payload = arena.allocate(8, 8);
            try (Window window = job.allocate(64, 1)) {
                lines.add(measure("barrier", calls, steady, job::barrier));
                lines.add(measure("fence", calls, steady, () -> window.fence(0)));
                final Call lock = () -> {
                    window.lock(LockType.EXCLUSIVE, 1);
                    window.unlock(1);
                };
                lines.add(rankZero(job, me, "lock-unlock", calls, steady, lock));
                window.lockAll();
                lines.add(rankZero(job, me, "put-flush", calls, steady, () -> {
                    window.put(payload, 1, 0);
                    window.flush(1);
                }));
                try (NotifyRequest request = window.notifyInit(partner, TAG, 1)) {
                    final Call pingPong = me == 0 ? () -> {
                        request.start();
                        window.putNotify(payload, partner, 8, TAG);
                        request.await();
                    } : () -> {
                        request.start();
                        request.await();
                        window.putNotify(payload, partner, 8, TAG);
                    };
                    lines.add(measure("notified-put-round-trip", calls, steady, pingPong));
                }
                window.unlockAll();
                job.barrier();
            }
            if (me == 0) {
                Files.write(out, lines);
            }
        }
    }

    /** Rank 0 calls; rank 1 waits in a barrier meanwhile. */
    private static String rankZero(final RmaJob job, final int me, final String name, final int calls, final int steady,
        final Call call) throws Exception {
        final String line = me == 0 ? measure(name, calls, steady, call) : null;
        job.barrier();
        return line;
    }

    private static String measure(final String name, final int calls, final int steady, final Call call)
        throws Exception {
        final long startMillis = ManagementFactory.getRuntimeMXBean().getUptime();
        final long[] nanos = new long[calls];
        for (int i = 0; i < calls; i++) {
            final long start = System.nanoTime();
            call.run();
            nanos[i] = System.nanoTime() - start;
        }
        for (int i = 0; i < steady / 2; i++) {
            call.run();
        }
        final long start = System.nanoTime();
        final int timed = Math.max(1, steady - steady / 2);
        for (int i = 0; i < timed; i++) {
            call.run();
        }
        final long steadyNanos = (System.nanoTime() - start) / timed;
        final StringBuilder line = new StringBuilder(name).append(' ').append(startMillis).append(' ')
            .append(steadyNanos);
        for (final long n : nanos) {
            line.append(' ').append(n);
        }
        return line.toString();
    }
}
