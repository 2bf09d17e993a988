package org.rma4j.bench.harness;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.rma4j.NotifyRequest;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.messaging.Messaging;

/**
 * Main class of each rank JVM of a sweep job ({@link Sweeps}), the rma4j side of {@code mpi_sweep.c}.
 *
 * <p>usage: {@code SweepMain OUT_FILE PER_PRODUCER CALLS RUNS BATCH}. Rows, each run RUNS times (a run is an
 * untimed pass of the same count, the warm-up, and a timed pass), rank 0's time per message or call:
 * <ul>
 *   <li>{@code fan-in-notified}: every rank but 0 putNotifies PER_PRODUCER messages of 8 bytes into its own
 *   slot of rank 0's window; rank 0 starts and awaits one request (ANY_SOURCE, tag, count 1) per message.</li>
 *   <li>{@code fan-in-notified-batch}: the same, rank 0 with one request (ANY_SOURCE, tag, count BATCH) per
 *   BATCH messages.</li>
 *   <li>{@code fan-in-messaging}: {@link Messaging#send} of 8 bytes, {@link Messaging#recv} from
 *   ANY_SOURCE.</li>
 *   <li>{@code fence}: {@code fence(0)} of a window, every rank, CALLS times.</li>
 *   <li>{@code barrier}: {@link RmaJob#barrier()}, every rank, CALLS times.</li>
 * </ul>
 * Rank 0 appends one sample line per row ({@link SampleFile}): the row, the message bytes (0 for fence and
 * barrier) and the time of each run in ns. PER_PRODUCER is a multiple of BATCH (the harness rounds it up).
 */
public final class SweepMain {
    /** Tag of the fan-in messages. */
    static final int TAG = 5;
    /** Bytes of one fan-in message. */
    static final int MESSAGE_BYTES = 8;
    /** Bytes between two producers' slots in rank 0's window. */
    static final int SLOT_BYTES = 64;
    /**
     * System property naming the rows to run (comma-separated; default: every row): the profiling step
     * ({@code org.rma4j.bench.profile.ProfileMain}) runs one row per job so that its samples are that row's.
     */
    static final String ROWS_PROPERTY = "rma4j.bench.sweep.rows";

    private final RmaJob job;
    private final Path out;
    private final long perProducer;
    private final long calls;
    private final int runs;
    private final int batch;
    private final double[] values;

    private SweepMain(final RmaJob job, final String[] args) {
        this.job = job;
        this.out = Path.of(args[0]);
        this.perProducer = Long.parseLong(args[1]);
        this.calls = Long.parseLong(args[2]);
        this.runs = Integer.parseInt(args[3]);
        this.batch = Integer.parseInt(args[4]);
        this.values = new double[runs];
    }

    public static void main(final String[] args) {
        if (args.length != 5) {
            System.err.println("usage: SweepMain OUT_FILE PER_PRODUCER CALLS RUNS BATCH");
            System.exit(2);
        }
        try (RmaJob job = Rma.init()) {
            if (job.size() < 2) {
                throw new IllegalStateException("a sweep needs at least 2 ranks, not " + job.size());
            }
            new SweepMain(job, args).run();
        }
    }

    private void run() {
        final Window window = job.allocate((long)SLOT_BYTES * job.size(), 1);
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment message = arena.allocate(MESSAGE_BYTES, 8);
            message.fill((byte)job.rank());
            try (NotifyRequest one = window.notifyInit(Rma.ANY_SOURCE, TAG, 1);
                NotifyRequest many = window.notifyInit(Rma.ANY_SOURCE, TAG, batch)) {
                row("fan-in-notified", MESSAGE_BYTES, () -> fanInNotified(window, message, one, 1));
                row("fan-in-notified-batch", MESSAGE_BYTES, () -> fanInNotified(window, message, many, batch));
            }
            final Messaging messaging = Messaging.create(job);
            try {
                row("fan-in-messaging", MESSAGE_BYTES, () -> fanInMessaging(messaging, message));
            } finally {
                messaging.close();
            }
        }
        window.fence(Rma.MODE_NOPRECEDE);
        row("fence", 0, () -> {
            final long t0 = System.nanoTime();
            for (long i = 0; i < calls; i++) {
                window.fence(0);
            }
            return (System.nanoTime() - t0) / (double)calls;
        });
        window.fence(Rma.MODE_NOSUCCEED);
        window.free();
        row("barrier", 0, () -> {
            final long t0 = System.nanoTime();
            for (long i = 0; i < calls; i++) {
                job.barrier();
            }
            return (System.nanoTime() - t0) / (double)calls;
        });
    }

    /** One pass of a row: returns rank 0's time per message or call. */
    @FunctionalInterface
    private interface Pass {
        double run();
    }

    private void row(final String row, final long bytes, final Pass pass) {
        if (!RankContext.selected(ROWS_PROPERTY, row)) {
            return;
        }
        for (int r = 0; r < runs; r++) {
            job.barrier();
            pass.run();
            job.barrier();
            values[r] = pass.run();
        }
        job.barrier();
        if (job.rank() == 0) {
            SampleFile.append(out, row, bytes, values, runs);
        }
    }

    private double fanInNotified(final Window window, final MemorySegment message, final NotifyRequest request,
        final int perRequest) {
        final long total = perProducer * (job.size() - 1);
        if (job.rank() == 0) {
            final long t0 = System.nanoTime();
            for (long received = 0; received < total; received += perRequest) {
                request.start();
                request.await();
            }
            return (System.nanoTime() - t0) / (double)total;
        }
        final long slot = (long)SLOT_BYTES * job.rank();
        for (long i = 0; i < perProducer; i++) {
            window.putNotify(message, 0, slot, TAG);
        }
        return 0;
    }

    private double fanInMessaging(final Messaging messaging, final MemorySegment message) {
        final long total = perProducer * (job.size() - 1);
        if (job.rank() == 0) {
            final long t0 = System.nanoTime();
            for (long received = 0; received < total; received++) {
                messaging.recv(message, Rma.ANY_SOURCE, TAG);
            }
            return (System.nanoTime() - t0) / (double)total;
        }
        for (long i = 0; i < perProducer; i++) {
            messaging.send(message, 0, TAG);
        }
        return 0;
    }
}
