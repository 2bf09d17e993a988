package org.rma4j.bench.jmh;

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

/**
 * Uncontended cost of one message through each MPSC ring ({@link RingChannel}): one thread offers an
 * 8-byte message and polls it back, so every cache line stays in its core. {@code offerPoll} is one
 * offer plus one poll; the ring is empty before and after each call.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.NATIVE_ACCESS, BenchJvm.AGRONA_EXPORTS})
@State(Scope.Thread)
public class RingOfferPollBenchmark {
    @Param({RingChannel.NOTIFY_LANES, RingChannel.AGRONA, RingChannel.JCTOOLS})
    public String impl;

    private RingChannel channel;
    private RingChannel.Producer producer;

    @Setup(Level.Trial)
    public void setup() {
        channel = RingChannel.of(impl);
        producer = channel.producer();
    }

    @TearDown(Level.Trial)
    public void teardown() {
        channel.close();
    }

    @Benchmark
    public int offerPoll() {
        if (!producer.offer(1L)) {
            throw new IllegalStateException(impl + " refused an offer to an empty ring");
        }
        return channel.poll();
    }

    /**
     * @return the sum of the values polled so far.
     */
    long sum() {
        return channel.sum();
    }
}
