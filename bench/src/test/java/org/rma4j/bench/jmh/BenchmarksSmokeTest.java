package org.rma4j.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rma4j.shm.JobDirectory;

/**
 * Runs each benchmark's setup, operation and teardown directly, without JMH, to show that they work
 * and leave nothing behind. No timing is asserted.
 */
class BenchmarksSmokeTest {
    private static final int CALLS = 3;
    private static final List<String> RING_IMPLS =
        List.of(RingChannel.NOTIFY_RING, RingChannel.AGRONA, RingChannel.JCTOOLS);

    private List<Path> before;

    @BeforeEach
    void recordBaseDirectories() throws IOException {
        before = benchBaseDirectories();
    }

    @AfterEach
    void shouldLeaveNoBaseDirectory() throws IOException {
        final List<Path> after = benchBaseDirectories();
        after.removeAll(before);
        assertEquals(List.of(), after, "benchmark base directories left under " + JobDirectory.defaultBase());
    }

    @Test
    void shouldPutAndGetAtEverySize() {
        for (final String size : List.of("8", "64", "1024", "65536", "1048576")) {
            final PutGetBenchmark benchmark = new PutGetBenchmark();
            benchmark.sizeBytes = Integer.parseInt(size);
            benchmark.setup();
            try {
                for (int i = 0; i < CALLS; i++) {
                    benchmark.put();
                    benchmark.get();
                    benchmark.putArray();
                    benchmark.getArray();
                }
            } finally {
                benchmark.teardown();
            }
        }
    }

    @Test
    void shouldFlushAndSync() {
        final FlushBenchmark benchmark = new FlushBenchmark();
        benchmark.setup();
        try {
            for (int i = 0; i < CALLS; i++) {
                benchmark.putFlush8();
                benchmark.flush();
                benchmark.flushAll();
                benchmark.sync();
            }
        } finally {
            benchmark.teardown();
        }
    }

    @Test
    void shouldRunEachAtomicOperation() {
        final AtomicsBenchmark benchmark = new AtomicsBenchmark();
        benchmark.setup();
        try {
            for (int i = 0; i < CALLS; i++) {
                assertEquals(i, benchmark.fetchAndOpSum(), "fetchAndOp SUM returns the count so far");
                assertEquals(i, benchmark.compareAndSwap(), "compareAndSwap succeeds every time");
                benchmark.accumulateSum();
                benchmark.getAccumulateSum();
            }
            assertEquals(CALLS, benchmark.expected());
        } finally {
            benchmark.teardown();
        }
    }

    @Test
    void shouldLockAndUnlock() {
        final LockBenchmark benchmark = new LockBenchmark();
        benchmark.setup();
        try {
            for (int i = 0; i < CALLS; i++) {
                benchmark.lockUnlockShared();
                benchmark.lockUnlockExclusive();
                benchmark.lockAllUnlockAll();
            }
        } finally {
            benchmark.teardown();
        }
    }

    @Test
    void shouldRunFenceCyclesAndStopThePartner() {
        final FenceBenchmark benchmark = new FenceBenchmark();
        benchmark.setup();
        try {
            for (int i = 0; i < CALLS; i++) {
                benchmark.fence();
                benchmark.putFence8();
            }
        } finally {
            benchmark.teardown();
        }
        assertEquals(1 + 2 * CALLS + 1, benchmark.cycles(), "setup's fence, the calls and teardown's last fence");
    }

    @Test
    void shouldRunPscwCyclesAndStopThePartner() {
        final PscwBenchmark benchmark = new PscwBenchmark();
        benchmark.setup();
        try {
            for (int i = 0; i < CALLS; i++) {
                benchmark.pscwCycle();
                benchmark.pscwPut8();
            }
        } finally {
            benchmark.teardown();
        }
        assertEquals(2 * CALLS + 1, benchmark.cycles(), "the calls and teardown's last cycle");
    }

    @Test
    void shouldRunEachNotifyRequestCall() {
        final NotifyBenchmark benchmark = new NotifyBenchmark();
        benchmark.setup();
        try {
            for (int i = 0; i < CALLS; i++) {
                assertNotNull(benchmark.initClose());
                assertTrue(benchmark.startTestZeroCount(), "a request for 0 notifications completes at once");
                assertFalse(benchmark.testMiss(), "nothing is sent to the missing request");
                assertTrue(benchmark.startPutNotifyTestHit8(), "the notification to self is there when tested");
            }
        } finally {
            benchmark.teardown();
        }
    }

    @Test
    void shouldPutNotifyWhileThePartnerConsumes() {
        final NotifyPutBenchmark benchmark = new NotifyPutBenchmark();
        benchmark.setup();
        try {
            for (int i = 0; i < CALLS; i++) {
                benchmark.putNotify8();
            }
        } finally {
            benchmark.teardown();
        }
        assertTrue(benchmark.consumed() <= CALLS, "consumed " + benchmark.consumed());
    }

    @Test
    void shouldOfferAndPollThroughEveryRing() {
        for (final String impl : RING_IMPLS) {
            final RingOfferPollBenchmark benchmark = new RingOfferPollBenchmark();
            benchmark.impl = impl;
            benchmark.setup();
            try {
                for (int i = 0; i < CALLS; i++) {
                    assertEquals(1, benchmark.offerPoll(), impl);
                }
                assertEquals(CALLS, benchmark.sum(), impl);
            } finally {
                benchmark.teardown();
            }
        }
    }

    @Test
    void shouldRunEveryRingThroughputGroupOnOneThread() {
        for (final String impl : RING_IMPLS) {
            final RingThroughputBenchmark benchmark = new RingThroughputBenchmark();
            final RingThroughputBenchmark.Shared shared = new RingThroughputBenchmark.Shared();
            shared.impl = impl;
            shared.setup();
            try {
                final RingThroughputBenchmark.ProducerHandle first = new RingThroughputBenchmark.ProducerHandle();
                first.setup(shared);
                final RingThroughputBenchmark.ProducerHandle second = new RingThroughputBenchmark.ProducerHandle();
                second.setup(shared);
                final RingThroughputBenchmark.Counters producers = new RingThroughputBenchmark.Counters();
                final RingThroughputBenchmark.Counters consumer = new RingThroughputBenchmark.Counters();
                for (int i = 0; i < CALLS; i++) {
                    benchmark.offer1(first, producers);
                    benchmark.poll1(shared, consumer);
                    benchmark.offer2(first, producers);
                    benchmark.offer2(second, producers);
                    benchmark.poll2(shared, consumer);
                    benchmark.poll2(shared, consumer);
                }
                benchmark.poll1(shared, consumer);
                assertEquals(3 * CALLS, producers.offersMade, impl);
                assertEquals(3 * CALLS, consumer.pollsMade, impl);
                assertEquals(1, consumer.pollsFailed, impl + ": the last poll finds the ring empty");
                producers.reset();
                assertEquals(0, producers.offersMade);
            } finally {
                shared.teardown();
            }
        }
    }

    @Test
    void shouldRefuseOffersToAFullRing() {
        for (final String impl : RING_IMPLS) {
            try (RingChannel channel = RingChannel.of(impl)) {
                final RingChannel.Producer producer = channel.producer();
                int offered = 0;
                while (producer.offer(2L)) {
                    offered++;
                }
                assertEquals(RingChannel.CAPACITY, offered, impl);
                int polled = 0;
                while (channel.poll() == 1) {
                    polled++;
                }
                assertEquals(RingChannel.CAPACITY, polled, impl);
                assertEquals(2L * RingChannel.CAPACITY, channel.sum(), impl);
            }
        }
    }

    @Test
    void shouldStopAPartnerThatNeverRanACycle() {
        final PscwBenchmark benchmark = new PscwBenchmark();
        benchmark.setup();
        benchmark.teardown();
        assertEquals(1, benchmark.cycles(), "only teardown's cycle");
    }

    private static List<Path> benchBaseDirectories() throws IOException {
        try (Stream<Path> entries = Files.list(JobDirectory.defaultBase())) {
            return entries.filter(p -> p.getFileName().toString().startsWith(TwoRankJob.BASE_PREFIX))
                .collect(Collectors.toCollection(ArrayList::new));
        }
    }
}
