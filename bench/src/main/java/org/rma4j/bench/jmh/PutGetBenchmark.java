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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rma4j.Window;

/**
 * Cost per call of contiguous put and get to the partner rank, by size, inside a lockAll epoch
 * opened in setup. {@code put} / {@code get} move bytes between a native segment and the target's
 * window; {@code putArray} / {@code getArray} use a {@code byte[]} (the array overloads). Each call
 * is complete at origin and target when it returns; no flush is included.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.AGRONA_EXPORTS})
@State(Scope.Thread)
public class PutGetBenchmark {
    /** Largest size of the {@link #sizeBytes} parameter: the window size at each rank. */
    static final long MAX_BYTES = 1L << 20;

    /** Bytes moved per call. */
    @Param({"8", "64", "1024", "65536", "1048576"})
    public int sizeBytes;

    private TwoRankJob job;
    private Window window;
    private Arena arena;
    private MemorySegment buffer;
    private byte[] array;

    @Setup(Level.Trial)
    public void setup() {
        arena = Arena.ofShared();
        buffer = arena.allocate(sizeBytes, 64);
        array = new byte[sizeBytes];
        for (int i = 0; i < sizeBytes; i++) {
            buffer.set(ValueLayout.JAVA_BYTE, i, (byte)i);
            array[i] = (byte)i;
        }
        job = TwoRankJob.start(MAX_BYTES, TwoRankJob.IDLE);
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

    /** The native origin / destination buffer of put and get, for tests. */
    MemorySegment buffer() {
        return buffer;
    }

    /** The array of putArray and getArray, for tests. */
    byte[] array() {
        return array;
    }

    @Benchmark
    public void put() {
        window.put(buffer, TwoRankJob.TARGET, 0);
    }

    @Benchmark
    public void get() {
        window.get(buffer, TwoRankJob.TARGET, 0);
    }

    @Benchmark
    public void putArray() {
        window.put(array, 0, sizeBytes, TwoRankJob.TARGET, 0);
    }

    @Benchmark
    public void getArray() {
        window.get(array, 0, sizeBytes, TwoRankJob.TARGET, 0);
    }
}
