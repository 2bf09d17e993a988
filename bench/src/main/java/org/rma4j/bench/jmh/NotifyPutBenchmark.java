package org.rma4j.bench.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rma4j.NotifyRequest;
import org.rma4j.Window;

/**
 * Steady-state cost of an 8-byte notified put from rank 0 to rank 1 while rank 1's thread consumes:
 * {@code putNotify8} is one {@code putNotify} of 8 bytes to rank 1 (written into rank 1's window at
 * the call, then announced by a ring entry). Rank 1 runs {@code start()} and {@code test()} of a
 * request for one notification from rank 0 in a loop, so it drains its ring and matches each entry.
 *
 * <p>What the number means: the producer claims a slot, writes the 64-byte entry, publishes it and
 * checks for a sleeping consumer; the entry's cache line then moves to rank 1's core. When the
 * consumer is slower than the producer the ring (256 entries) fills and {@code putNotify} waits for
 * room, so the time per call is the slower side's time per notification: a throughput figure, not
 * the latency of one notification (the harness measures that). Both threads spin: each needs a core.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.AGRONA_EXPORTS})
@State(Scope.Thread)
public class NotifyPutBenchmark {
    static final long WINDOW_BYTES = 256;
    static final int TAG = 5;

    private final Consumer consumer = new Consumer();
    private TwoRankJob job;
    private Window window;
    private Arena arena;
    private MemorySegment value;

    @Setup(Level.Trial)
    public void setup() {
        arena = Arena.ofShared();
        value = arena.allocate(ValueLayout.JAVA_LONG);
        value.set(ValueLayout.JAVA_LONG, 0, 42L);
        job = TwoRankJob.start(WINDOW_BYTES, consumer);
        window = job.window();
    }

    @TearDown(Level.Trial)
    public void teardown() {
        consumer.stop = true;
        try {
            job.close();
        } finally {
            arena.close();
        }
    }

    /** The origin's window, for tests. */
    Window window() {
        return window;
    }

    @Benchmark
    public void putNotify8() {
        window.putNotify(value, TwoRankJob.TARGET, 0, TAG);
    }

    /**
     * @return the notifications rank 1 matched so far (exact once the job is closed).
     */
    long consumed() {
        return consumer.matched;
    }

    /**
     * @return the notifications rank 1 matched so far, while it runs.
     */
    long consumedSoFar() {
        return consumer.matchedSoFar;
    }

    /** Rank 1: matches one notification per request cycle until told to stop. */
    private static final class Consumer implements TwoRankJob.Partner {
        volatile boolean stop;
        volatile long matched;
        volatile long matchedSoFar;

        @Override
        public void run(final Window window) {
            long count = 0;
            try (NotifyRequest request = window.notifyInit(TwoRankJob.ORIGIN, TAG, 1)) {
                while (!stop) {
                    request.start();
                    while (!request.test()) {
                        if (stop) {
                            matched = count;
                            return;
                        }
                    }
                    count++;
                    matchedSoFar = count;
                }
            }
            matched = count;
        }
    }
}
