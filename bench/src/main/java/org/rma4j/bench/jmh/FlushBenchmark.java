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
import org.rma4j.Window;

/**
 * Cost per call of the passive-target completion calls, inside a lockAll epoch opened in setup:
 * an 8-byte put followed by flush of the partner (the usual "make it visible now" pair), and flush,
 * flushAll and sync alone. In rma4j each of these is an epoch check plus a full memory fence.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.AGRONA_EXPORTS})
@State(Scope.Thread)
public class FlushBenchmark {
    static final long WINDOW_BYTES = 64;

    private TwoRankJob job;
    private Window window;
    private Arena arena;
    private MemorySegment value;

    @Setup(Level.Trial)
    public void setup() {
        arena = Arena.ofShared();
        value = arena.allocate(ValueLayout.JAVA_LONG);
        value.set(ValueLayout.JAVA_LONG, 0, 42L);
        job = TwoRankJob.start(WINDOW_BYTES, TwoRankJob.IDLE);
        window = job.window();
        window.lockAll();
    }

    @TearDown(Level.Trial)
    public void teardown() {
        try {
            window.unlockAll();
        } finally {
            try {
                job.close();
            } finally {
                arena.close();
            }
        }
    }

    /** The origin's window, for tests. */
    Window window() {
        return window;
    }

    @Benchmark
    public void putFlush8() {
        window.put(value, TwoRankJob.TARGET, 0);
        window.flush(TwoRankJob.TARGET);
    }

    @Benchmark
    public void flush() {
        window.flush(TwoRankJob.TARGET);
    }

    @Benchmark
    public void flushAll() {
        window.flushAll();
    }

    @Benchmark
    public void sync() {
        window.sync();
    }
}
