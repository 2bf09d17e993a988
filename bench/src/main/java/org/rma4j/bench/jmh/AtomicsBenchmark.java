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
import org.rma4j.Datatype;
import org.rma4j.Op;
import org.rma4j.Window;

/**
 * Cost per call of the atomic operations on one long of the partner's window, uncontended, inside a
 * lockAll epoch opened in setup: fetchAndOp SUM, a compareAndSwap that always succeeds (the compare
 * value follows the target), accumulate SUM and getAccumulate SUM of one LONG through the typed
 * (MemorySegment, count, Datatype) calls. Each location has its own cache line.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.AGRONA_EXPORTS})
@State(Scope.Thread)
public class AtomicsBenchmark {
    static final long FETCH_DISP = 0;
    static final long CAS_DISP = 128;
    static final long ACCUMULATE_DISP = 256;
    static final long GET_ACCUMULATE_DISP = 384;
    static final long WINDOW_BYTES = 512;

    private TwoRankJob job;
    private Window window;
    private Arena arena;
    private MemorySegment operand;
    private MemorySegment result;
    private long expected;

    @Setup(Level.Trial)
    public void setup() {
        arena = Arena.ofShared();
        operand = arena.allocate(ValueLayout.JAVA_LONG);
        operand.set(ValueLayout.JAVA_LONG, 0, 1L);
        result = arena.allocate(ValueLayout.JAVA_LONG);
        job = TwoRankJob.start(WINDOW_BYTES, TwoRankJob.IDLE);
        window = job.window();
        window.lockAll();
        expected = 0;
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

    @Benchmark
    public long fetchAndOpSum() {
        return window.fetchAndOp(1L, TwoRankJob.TARGET, FETCH_DISP, Op.SUM);
    }

    @Benchmark
    public long compareAndSwap() {
        final long previous = window.compareAndSwap(expected, expected + 1, TwoRankJob.TARGET, CAS_DISP);
        expected = previous == expected ? previous + 1 : previous;
        return previous;
    }

    @Benchmark
    public void accumulateSum() {
        window.accumulate(operand, 1, Datatype.LONG, TwoRankJob.TARGET, ACCUMULATE_DISP, 1, Datatype.LONG, Op.SUM);
    }

    @Benchmark
    public void getAccumulateSum() {
        window.getAccumulate(operand, 1, Datatype.LONG, result, 1, Datatype.LONG, TwoRankJob.TARGET,
            GET_ACCUMULATE_DISP, 1, Datatype.LONG, Op.SUM);
    }

    /**
     * @return the value compareAndSwap expects at the target next: the number of swaps so far.
     */
    long expected() {
        return expected;
    }
}
