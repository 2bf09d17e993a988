package org.rma4j.bench.jmh;

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
import org.rma4j.LockType;
import org.rma4j.Window;

/**
 * Cost of an empty passive-target epoch, uncontended (the partner never locks): lock + unlock of
 * the partner, shared and exclusive, and lockAll + unlockAll over both ranks. No epoch is open
 * between calls.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.AGRONA_EXPORTS})
@State(Scope.Thread)
public class LockBenchmark {
    static final long WINDOW_BYTES = 64;

    private TwoRankJob job;
    private Window window;

    @Setup(Level.Trial)
    public void setup() {
        job = TwoRankJob.start(WINDOW_BYTES, TwoRankJob.IDLE);
        window = job.window();
    }

    @TearDown(Level.Trial)
    public void teardown() {
        job.close();
    }

    /** The origin's window, for tests. */
    Window window() {
        return window;
    }

    @Benchmark
    public void lockUnlockShared() {
        window.lock(LockType.SHARED, TwoRankJob.TARGET);
        window.unlock(TwoRankJob.TARGET);
    }

    @Benchmark
    public void lockUnlockExclusive() {
        window.lock(LockType.EXCLUSIVE, TwoRankJob.TARGET);
        window.unlock(TwoRankJob.TARGET);
    }

    @Benchmark
    public void lockAllUnlockAll() {
        window.lockAll();
        window.unlockAll();
    }
}
