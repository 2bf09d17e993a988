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
 * Cost of one fence cycle (MPI_WIN_FENCE, a barrier of both ranks with full fences) as rank 0 sees
 * it, while rank 1 calls fence in a loop ({@link Cycles}); {@code putFence8} adds an 8-byte put to
 * the partner inside each fence epoch. The time includes the hand-off between the two threads, so it
 * depends on both having a core: on a 2-core machine the JMH control thread and the OS share them.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.AGRONA_EXPORTS})
@State(Scope.Thread)
public class FenceBenchmark {
    static final long WINDOW_BYTES = 64;

    private static final Cycles.Side FENCE = window -> window.fence(0);

    private TwoRankJob job;
    private Window window;
    private Cycles cycles;
    private Arena arena;
    private MemorySegment value;

    @Setup(Level.Trial)
    public void setup() {
        arena = Arena.ofShared();
        value = arena.allocate(ValueLayout.JAVA_LONG);
        value.set(ValueLayout.JAVA_LONG, 0, 42L);
        cycles = new Cycles(FENCE);
        job = TwoRankJob.start(WINDOW_BYTES, cycles.partner());
        window = job.window();
        // The first fence opens the fence epoch in which putFence8's first put runs.
        window.fence(0);
        cycles.originCompleted();
    }

    @TearDown(Level.Trial)
    public void teardown() {
        try {
            cycles.stop(window, FENCE);
        } finally {
            try {
                job.close();
            } finally {
                arena.close();
            }
        }
    }

    @Benchmark
    public void fence() {
        window.fence(0);
        cycles.originCompleted();
    }

    @Benchmark
    public void putFence8() {
        window.put(value, TwoRankJob.TARGET, 0);
        window.fence(0);
        cycles.originCompleted();
    }

    /**
     * @return the fence cycles rank 0 completed, setup's and teardown's included.
     */
    long cycles() {
        return cycles.completed();
    }
}
