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
 * Throughput of each MPSC ring ({@link RingChannel}) with 1 and 2 producer threads and one consumer
 * thread, the scheme of JCTools' own {@code QueueThroughputBackoffNone}: each producer call is one
 * offer, each consumer call one poll, none of them waits, and {@link Counters} counts what succeeded.
 * Read {@code pollsMade} (messages through the ring per microsecond); {@code offersFailed} and
 * {@code pollsFailed} show whether the ring ran full or empty. The primary score counts calls, failed
 * ones included.
 *
 * <p>Group {@code oneProducer}: one producer and the consumer (2 threads). Group {@code twoProducers}:
 * two producers and the consumer (3 threads): on a 2-core machine the three spinning threads share two
 * cores, so that group also measures the scheduler. No call blocks, so JMH can stop the threads of a
 * group independently at the end of an iteration (unlike the fence and PSCW cycles, see {@link Cycles}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.AGRONA_EXPORTS})
public class RingThroughputBenchmark {
    /** The channel the threads of one group share. */
    @State(Scope.Group)
    public static class Shared {
        @Param({RingChannel.NOTIFY_LANES, RingChannel.AGRONA, RingChannel.JCTOOLS})
        public String impl;

        RingChannel channel;

        @Setup(Level.Trial)
        public void setup() {
            channel = RingChannel.of(impl);
        }

        @TearDown(Level.Trial)
        public void teardown() {
            channel.close();
        }
    }

    /** One producer thread's handle on the shared channel. */
    @State(Scope.Thread)
    public static class ProducerHandle {
        RingChannel.Producer producer;

        @Setup(Level.Trial)
        public void setup(final Shared shared) {
            producer = shared.channel.producer();
        }
    }

    /** Per-thread counts of successful and failed calls, reported by JMH as rates. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Counters {
        public long offersMade;
        public long offersFailed;
        public long pollsMade;
        public long pollsFailed;

        @Setup(Level.Iteration)
        public void reset() {
            offersMade = 0;
            offersFailed = 0;
            pollsMade = 0;
            pollsFailed = 0;
        }
    }

    @Benchmark
    @Group("oneProducer")
    @GroupThreads(1)
    public void offer1(final ProducerHandle handle, final Counters counters) {
        offer(handle, counters);
    }

    @Benchmark
    @Group("oneProducer")
    @GroupThreads(1)
    public void poll1(final Shared shared, final Counters counters) {
        poll(shared, counters);
    }

    @Benchmark
    @Group("twoProducers")
    @GroupThreads(2)
    public void offer2(final ProducerHandle handle, final Counters counters) {
        offer(handle, counters);
    }

    @Benchmark
    @Group("twoProducers")
    @GroupThreads(1)
    public void poll2(final Shared shared, final Counters counters) {
        poll(shared, counters);
    }

    private static void offer(final ProducerHandle handle, final Counters counters) {
        if (handle.producer.offer(1L)) {
            counters.offersMade++;
        } else {
            counters.offersFailed++;
        }
    }

    private static void poll(final Shared shared, final Counters counters) {
        if (shared.channel.poll() == 1) {
            counters.pollsMade++;
        } else {
            counters.pollsFailed++;
        }
    }
}
