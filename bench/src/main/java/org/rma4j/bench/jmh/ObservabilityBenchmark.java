package org.rma4j.bench.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
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
import org.rma4j.LockType;
import org.rma4j.Window;

/**
 * Cost of the observability hooks on the fast paths (the per-window counters and the JFR wait events):
 * an 8-byte put + flush inside a lockAll epoch opened by the first call (counted), and an uncontended exclusive lock + unlock
 * (a lock-wait event begun and ended, and counted), with no JFR recording, with a recording that enables
 * the rma4j events at their default threshold (nothing committed: the calls do not wait), and with one
 * that records every call (threshold 0).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.AGRONA_EXPORTS})
@State(Scope.Thread)
public class ObservabilityBenchmark {
    static final long WINDOW_BYTES = 64;
    private static final String[] EVENTS = {"org.rma4j.LockWait", "org.rma4j.Fence", "org.rma4j.PscwStart",
        "org.rma4j.PscwWait", "org.rma4j.NotifyWait", "org.rma4j.FullNotifyLane", "org.rma4j.Barrier"};

    /** none: no recording; threshold: rma4j events enabled at 1 ms; all: enabled at 0 ms, no stack trace. */
    @Param({"none", "threshold", "all"})
    public String recording;

    private TwoRankJob job;
    private Window window;
    private Arena arena;
    private MemorySegment value;
    private Recording jfr;
    private boolean epochOpen;

    @Setup(Level.Trial)
    public void setup() {
        arena = Arena.ofShared();
        value = arena.allocate(ValueLayout.JAVA_LONG);
        job = TwoRankJob.start(WINDOW_BYTES, TwoRankJob.IDLE);
        window = job.window();
        if (!recording.equals("none")) {
            jfr = new Recording();
            for (final String event : EVENTS) {
                jfr.enable(event).withThreshold(recording.equals("all") ? Duration.ZERO : Duration.ofMillis(1))
                    .withoutStackTrace();
            }
            jfr.setToDisk(true);
            jfr.start();
        }
    }

    @TearDown(Level.Trial)
    public void teardown() {
        try {
            if (epochOpen) {
                window.unlockAll();
            }
            if (jfr != null) {
                jfr.close();
            }
        } finally {
            try {
                job.close();
            } finally {
                arena.close();
            }
        }
    }

    @Benchmark
    public void putFlush8() {
        if (!epochOpen) {
            window.lockAll();
            epochOpen = true;
        }
        window.put(value, TwoRankJob.TARGET, 0);
        window.flush(TwoRankJob.TARGET);
    }

    @Benchmark
    public void lockUnlockExclusive() {
        window.lock(LockType.EXCLUSIVE, TwoRankJob.TARGET);
        window.unlock(TwoRankJob.TARGET);
    }
}
