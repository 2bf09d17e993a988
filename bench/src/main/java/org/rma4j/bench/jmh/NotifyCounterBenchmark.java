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
 * Cost per call of the notification counters (MPI Forum issue 59) beside the matched form's
 * ({@link NotifyBenchmark}), on rank 0's own window, with rank 1 idle:
 *
 * <ul>
 *   <li>{@code putNotifyCounterTestHit8}: one local cycle: {@code putNotifyCounter} of 8 bytes to rank 0's own
 *   window and counter (the bytes are written at the call, then one atomic add on the counter and a load of its
 *   block's sleeper count), then the {@code notifyTest} that sees the new count. The counter form of
 *   {@code startPutNotifyTestHit8}, measured here in the same trial as {@code matchedStartPutNotifyTestHit8}.</li>
 *   <li>{@code matchedStartPutNotifyTestHit8}: {@link NotifyBenchmark#startPutNotifyTestHit8} (start of a request,
 *   putNotify of 8 bytes to rank 0 itself, the test that drains, matches and completes it), the baseline.</li>
 *   <li>{@code notifyGetValue}: the read of a counter (an acquire load after the checks).</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.AGRONA_EXPORTS})
@State(Scope.Thread)
public class NotifyCounterBenchmark {
    static final long WINDOW_BYTES = 256;
    static final int SELF_TAG = 7;

    private TwoRankJob job;
    private Window window;
    private Arena arena;
    private MemorySegment value;
    private NotifyRequest self;
    private long expected;

    @Setup(Level.Trial)
    public void setup() {
        arena = Arena.ofShared();
        value = arena.allocate(ValueLayout.JAVA_LONG);
        value.set(ValueLayout.JAVA_LONG, 0, 42L);
        job = TwoRankJob.start(WINDOW_BYTES, partner -> partner.notifyAttach(1));
        window = job.window();
        window.notifyAttach(1);
        self = window.notifyInit(TwoRankJob.ORIGIN, SELF_TAG, 1);
    }

    @TearDown(Level.Trial)
    public void teardown() {
        try {
            self.close();
        } finally {
            try {
                job.close();
            } finally {
                arena.close();
            }
        }
    }

    @Benchmark
    public boolean putNotifyCounterTestHit8() {
        window.putNotifyCounter(value, TwoRankJob.ORIGIN, 0, 0);
        return window.notifyTest(0, ++expected);
    }

    @Benchmark
    public boolean matchedStartPutNotifyTestHit8() {
        self.start();
        window.putNotify(value, TwoRankJob.ORIGIN, 0, SELF_TAG);
        return self.test();
    }

    @Benchmark
    public long notifyGetValue() {
        return window.notifyGetValue(0);
    }
}
