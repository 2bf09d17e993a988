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
import org.rma4j.Group;
import org.rma4j.Window;

/**
 * Cost of one general active-target cycle (MPI-3.1 section 11.5.2) as the origin sees it: rank 0
 * calls start({1}) and complete(), with an 8-byte put in between in {@code pscwPut8}, while rank 1
 * calls post({0}) and wait in a loop ({@link Cycles}). One cycle is two one-way hand-offs (post to
 * start, complete to wait), of which rank 0 waits for the first and, through the next start, the
 * second.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.AGRONA_EXPORTS})
@State(Scope.Thread)
public class PscwBenchmark {
    static final long WINDOW_BYTES = 64;

    private static final Group TARGETS = Group.of(TwoRankJob.TARGET);
    private static final Group ORIGINS = Group.of(TwoRankJob.ORIGIN);
    private static final Cycles.Side EXPOSE = window -> {
        window.post(ORIGINS, 0);
        window.await();
    };
    private static final Cycles.Side ACCESS = window -> {
        window.start(TARGETS, 0);
        window.complete();
    };

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
        cycles = new Cycles(EXPOSE);
        job = TwoRankJob.start(WINDOW_BYTES, cycles.partner());
        window = job.window();
    }

    @TearDown(Level.Trial)
    public void teardown() {
        try {
            cycles.stop(window, ACCESS);
        } finally {
            try {
                job.close();
            } finally {
                arena.close();
            }
        }
    }

    @Benchmark
    public void pscwCycle() {
        window.start(TARGETS, 0);
        window.complete();
        cycles.originCompleted();
    }

    @Benchmark
    public void pscwPut8() {
        window.start(TARGETS, 0);
        window.put(value, TwoRankJob.TARGET, 0);
        window.complete();
        cycles.originCompleted();
    }

    /**
     * @return the cycles rank 0 completed, teardown's included.
     */
    long cycles() {
        return cycles.completed();
    }
}
