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
 * Cost per call of the Notified Access request calls (Belli and Hoefler, section V-A: t_init, t_free,
 * t_start, the test of the receive side), on rank 0's own notification endpoint, with rank 1 idle:
 *
 * <ul>
 *   <li>{@code initClose}: {@code notifyInit(1, TAG, 1)} and {@code close()} of the inactive request
 *   (t_init + t_free).</li>
 *   <li>{@code startTestZeroCount}: {@code start()} and {@code test()} of a request that expects 0
 *   notifications: start completes it and test returns true and makes it inactive. Both calls drain
 *   the (empty) ring once. start alone is about this minus {@code testMiss}.</li>
 *   <li>{@code testMiss}: {@code test()} of an active request for which nothing arrived: one drain of
 *   the empty ring, returns false.</li>
 *   <li>{@code startPutNotifyTestHit8}: one local cycle: {@code start()} of a request for
 *   notifications from rank 0 itself, {@code putNotify} of 8 bytes to rank 0's own window (the bytes
 *   are written into the window at the call, then the ring entry is published), and the {@code test()}
 *   that drains the entry, matches it and returns true. No cache line leaves the core.</li>
 *   <li>{@code startPutNotifyAwaitHit8}: the same cycle ended by {@code await()} instead of {@code test()}
 *   (the consumer's call of Listing 1): its drain finds the entry at once, so this is the software cost of
 *   a wait that does not wait.</li>
 *   <li>{@code startPutNotifyAwaitHit8Array}: the same from a {@code double[]} ({@code putNotify(double[], ...)}),
 *   which makes no segment of the array (with {@code -prof gc}: 0 bytes allocated per cycle).</li>
 *   <li>{@code startPutNotifyAwaitHit64}: the same with 64 bytes, which do not travel inline.</li>
 *   <li>{@code startPutNotifyAwaitInline8}: {@code startPutNotifyAwaitHit8} followed by
 *   {@code inlineData}: the 8 bytes read from the notification.</li>
 * </ul>
 *
 * <p>The request of {@code testMiss} (source 1) stays active for the whole trial, so every drain in
 * the other benchmarks also checks one non-matching active request. Notified accesses need no
 * epoch: none is opened.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.AGRONA_EXPORTS})
@State(Scope.Thread)
public class NotifyBenchmark {
    static final long WINDOW_BYTES = 256;
    /** Tag of the notifications rank 0 sends itself. */
    static final int SELF_TAG = 7;
    /** Tag the never-matched request waits for. */
    static final int MISS_TAG = 9;

    private TwoRankJob job;
    private Window window;
    private Arena arena;
    private MemorySegment value;
    private MemorySegment value64;
    private MemorySegment inline;
    private NotifyRequest miss;
    private NotifyRequest zeroCount;
    private NotifyRequest self;
    private final double[] array8 = {42.0};

    @Setup(Level.Trial)
    public void setup() {
        arena = Arena.ofShared();
        value = arena.allocate(ValueLayout.JAVA_LONG);
        value.set(ValueLayout.JAVA_LONG, 0, 42L);
        value64 = arena.allocate(64, 8);
        inline = arena.allocate(NotifyRequest.INLINE_BYTES, 8);
        job = TwoRankJob.start(WINDOW_BYTES, TwoRankJob.IDLE);
        window = job.window();
        miss = window.notifyInit(TwoRankJob.TARGET, MISS_TAG, 1);
        miss.start();
        zeroCount = window.notifyInit(TwoRankJob.TARGET, MISS_TAG, 0);
        self = window.notifyInit(TwoRankJob.ORIGIN, SELF_TAG, 1);
    }

    @TearDown(Level.Trial)
    public void teardown() {
        try {
            miss.close();
            zeroCount.close();
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
    public NotifyRequest initClose() {
        final NotifyRequest request = window.notifyInit(TwoRankJob.TARGET, MISS_TAG, 1);
        request.close();
        return request;
    }

    @Benchmark
    public boolean startTestZeroCount() {
        zeroCount.start();
        return zeroCount.test();
    }

    @Benchmark
    public boolean testMiss() {
        return miss.test();
    }

    @Benchmark
    public boolean startPutNotifyTestHit8() {
        self.start();
        window.putNotify(value, TwoRankJob.ORIGIN, 0, SELF_TAG);
        return self.test();
    }

    @Benchmark
    public NotifyRequest.Status startPutNotifyAwaitHit8() {
        self.start();
        window.putNotify(value, TwoRankJob.ORIGIN, 0, SELF_TAG);
        return self.await();
    }

    @Benchmark
    public NotifyRequest.Status startPutNotifyAwaitHit8Array() {
        self.start();
        window.putNotify(array8, 0, 1, TwoRankJob.ORIGIN, 0, SELF_TAG);
        return self.await();
    }

    @Benchmark
    public NotifyRequest.Status startPutNotifyAwaitHit64() {
        self.start();
        window.putNotify(value64, TwoRankJob.ORIGIN, 64, SELF_TAG);
        return self.await();
    }

    @Benchmark
    public int startPutNotifyAwaitInline8() {
        self.start();
        window.putNotify(value, TwoRankJob.ORIGIN, 0, SELF_TAG);
        self.await();
        return self.inlineData(inline);
    }
}
