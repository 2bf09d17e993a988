package org.rma4j.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
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

/**
 * Fan-in throughput of the per-origin lanes ({@link NotifyChannel}): 1, 7 or 63
 * producer threads, each its own origin, offering 8-byte notifications to one consumer thread, which drains up
 * to {@link #BATCH} per call. No call waits (JCTools' {@code QueueThroughputBackoffNone} scheme). Read
 * {@code taken} (notifications through the queue per microsecond); {@code offersFailed} shows a full queue.
 * On 2 cores the 64-thread group measures the scheduler as much as the queue.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.AGRONA_EXPORTS})
public class NotifyLanesFanInBenchmark {
    /** Notifications the consumer takes per call at most. */
    static final int BATCH = 64;

    /** Which queue (the lanes; the shared ring they replaced was the other). */
    @State(Scope.Benchmark)
    public static class Impl {
        @Param({NotifyChannel.LANES})
        public String impl;
    }

    /** The queue of one group, sized for its producers. */
    public abstract static class Shared {
        NotifyChannel channel;

        abstract int producers();

        @Setup(Level.Trial)
        public void setup(final Impl impl) {
            channel = NotifyChannel.of(impl.impl, producers());
        }

        @TearDown(Level.Trial)
        public void teardown() {
            channel.close();
        }
    }

    @State(Scope.Group)
    public static class Shared1 extends Shared {
        @Override
        int producers() {
            return 1;
        }
    }

    @State(Scope.Group)
    public static class Shared7 extends Shared {
        @Override
        int producers() {
            return 7;
        }
    }

    @State(Scope.Group)
    public static class Shared63 extends Shared {
        @Override
        int producers() {
            return 63;
        }
    }

    /** One producer thread's origin, taken at its first call. */
    @State(Scope.Thread)
    public static class Origin {
        NotifyChannel.Producer producer;
        long value;
    }

    /** Per-thread counts, reported by JMH as rates. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Counters {
        public long offersMade;
        public long offersFailed;
        public long taken;

        @Setup(Level.Iteration)
        public void reset() {
            offersMade = 0;
            offersFailed = 0;
            taken = 0;
        }
    }

    @Benchmark
    @Group("fanIn1")
    @GroupThreads(1)
    public void offer1(final Shared1 shared, final Origin origin, final Counters counters) {
        offer(shared, origin, counters);
    }

    @Benchmark
    @Group("fanIn1")
    @GroupThreads(1)
    public void take1(final Shared1 shared, final Counters counters) {
        counters.taken += shared.channel.drain(BATCH);
    }

    @Benchmark
    @Group("fanIn7")
    @GroupThreads(7)
    public void offer7(final Shared7 shared, final Origin origin, final Counters counters) {
        offer(shared, origin, counters);
    }

    @Benchmark
    @Group("fanIn7")
    @GroupThreads(1)
    public void take7(final Shared7 shared, final Counters counters) {
        counters.taken += shared.channel.drain(BATCH);
    }

    @Benchmark
    @Group("fanIn63")
    @GroupThreads(63)
    public void offer63(final Shared63 shared, final Origin origin, final Counters counters) {
        offer(shared, origin, counters);
    }

    @Benchmark
    @Group("fanIn63")
    @GroupThreads(1)
    public void take63(final Shared63 shared, final Counters counters) {
        counters.taken += shared.channel.drain(BATCH);
    }

    static void offer(final Shared shared, final Origin origin, final Counters counters) {
        if (origin.producer == null) {
            origin.producer = shared.channel.nextProducer();
        }
        if (origin.producer.offer(++origin.value)) {
            counters.offersMade++;
        } else {
            counters.offersFailed++;
        }
    }
}
