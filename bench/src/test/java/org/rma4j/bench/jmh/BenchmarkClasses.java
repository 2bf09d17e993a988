package org.rma4j.bench.jmh;

import java.util.List;

/**
 * Every JMH benchmark class of this module, for the tests that check each one.
 */
final class BenchmarkClasses {
    static final List<Class<?>> ALL = List.of(PutGetBenchmark.class, FlushBenchmark.class, AtomicsBenchmark.class,
        LockBenchmark.class, FenceBenchmark.class, PscwBenchmark.class, NotifyBenchmark.class,
        NotifyCounterBenchmark.class, NotifyPutBenchmark.class, RingOfferPollBenchmark.class,
        RingThroughputBenchmark.class, ObservabilityBenchmark.class, NotifyLanesBenchmark.class,
        NotifyLanesFanInBenchmark.class, SmallMessageBenchmark.class, CollectiveBenchmark.class);

    private BenchmarkClasses() {
    }
}
