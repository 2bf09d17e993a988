package org.rma4j.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.ErrorClass;
import org.rma4j.LockType;
import org.rma4j.RmaException;
import org.rma4j.Window;
import org.rma4j.shm.JobDirectory;

/**
 * Runs each benchmark's setup, operation and teardown directly, without JMH, to show that each
 * operation does what its name says (the data it moves is checked at the other end) and that nothing is
 * left behind. No timing is asserted.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BenchmarksSmokeTest {
    private static final int CALLS = 3;
    private static final List<String> RING_IMPLS = List.of(RingChannel.NOTIFY_LANES, RingChannel.AGRONA,
        RingChannel.JCTOOLS);

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
                final Window window = benchmark.window();
                final int bytes = benchmark.sizeBytes;
                for (int i = 0; i < CALLS; i++) {
                    // put: the target holds the origin buffer (byte k = k, from setup).
                    window.put(new byte[bytes], 0, bytes, TwoRankJob.TARGET, 0);
                    benchmark.put();
                    assertArrayEquals(pattern(bytes, 1, 0), readTarget(window, bytes), "put of " + bytes);
                    // get: the origin buffer receives what the target holds.
                    window.put(pattern(bytes, 3, i + 1), 0, bytes, TwoRankJob.TARGET, 0);
                    benchmark.get();
                    assertArrayEquals(pattern(bytes, 3, i + 1), benchmark.buffer().toArray(ValueLayout.JAVA_BYTE),
                        "get of " + bytes);
                    // putArray then getArray: the array's bytes go to the target and come back.
                    benchmark.putArray();
                    assertArrayEquals(pattern(bytes, 1, 0), readTarget(window, bytes), "putArray of " + bytes);
                    window.put(pattern(bytes, 5, i + 2), 0, bytes, TwoRankJob.TARGET, 0);
                    benchmark.getArray();
                    assertArrayEquals(pattern(bytes, 5, i + 2), benchmark.array(), "getArray of " + bytes);
                    System.arraycopy(pattern(bytes, 1, 0), 0, benchmark.array(), 0, bytes);
                    benchmark.buffer().copyFrom(MemorySegment.ofArray(pattern(bytes, 1, 0)));
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
            final Window window = benchmark.window();
            for (int i = 0; i < CALLS; i++) {
                window.put(new long[] {i}, 0, 1, TwoRankJob.TARGET, 0);
                benchmark.putFlush8();
                assertEquals(42L, readTargetLong(window), "putFlush8 stores 42 at the target");
                // flush, flushAll and sync end no epoch: the lockAll epoch of setup stays open.
                benchmark.flush();
                benchmark.flushAll();
                benchmark.sync();
                window.put(new long[] {-i}, 0, 1, TwoRankJob.TARGET, 0);
                assertEquals(-i, readTargetLong(window));
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
            final Window window = benchmark.window();
            for (int i = 0; i < CALLS; i++) {
                benchmark.lockUnlockShared();
                assertNoEpochOpen(window);
                benchmark.lockUnlockExclusive();
                assertNoEpochOpen(window);
                benchmark.lockAllUnlockAll();
                assertNoEpochOpen(window);
                // Every lock word is free again: an exclusive lock of each rank is granted at once.
                for (final int rank : new int[] {TwoRankJob.ORIGIN, TwoRankJob.TARGET}) {
                    window.lock(LockType.EXCLUSIVE, rank);
                    window.put(new byte[] {(byte)i}, 0, 1, rank, 0);
                    window.unlock(rank);
                }
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
            // The partner matches every notification; then the put's 8 bytes are in its window.
            while (benchmark.consumedSoFar() < CALLS) {
                Thread.onSpinWait();
            }
            final Window window = benchmark.window();
            window.lock(LockType.SHARED, TwoRankJob.TARGET);
            try {
                assertEquals(42L, readTargetLong(window), "the notified put's data at the target");
            } finally {
                window.unlock(TwoRankJob.TARGET);
            }
        } finally {
            benchmark.teardown();
        }
        assertEquals(CALLS, benchmark.consumed(), "every notification matched exactly once");
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
                assertEquals(channel.producerCapacity(), offered, impl);
                int polled = 0;
                while (channel.poll() == 1) {
                    polled++;
                }
                assertEquals(channel.producerCapacity(), polled, impl);
                assertEquals(2L * channel.producerCapacity(), channel.sum(), impl);
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

    private static void assertNoEpochOpen(final Window window) {
        final RmaException e = assertThrows(RmaException.class,
            () -> window.put(new byte[1], 0, 1, TwoRankJob.TARGET, 0), "the call left an epoch open");
        assertEquals(ErrorClass.RMA_SYNC, e.errorClass(), e.getMessage());
    }

    private static byte[] readTarget(final Window window, final int bytes) {
        final byte[] seen = new byte[bytes];
        window.get(seen, 0, bytes, TwoRankJob.TARGET, 0);
        return seen;
    }

    private static long readTargetLong(final Window window) {
        final long[] seen = new long[1];
        window.get(MemorySegment.ofArray(seen), TwoRankJob.TARGET, 0);
        return seen[0];
    }

    /** Byte k is {@code k * step + offset}. */
    private static byte[] pattern(final int bytes, final int step, final int offset) {
        final byte[] data = new byte[bytes];
        for (int k = 0; k < bytes; k++) {
            data[k] = (byte)(k * step + offset);
        }
        return data;
    }

    private static List<Path> benchBaseDirectories() throws IOException {
        try (Stream<Path> entries = Files.list(JobDirectory.defaultBase())) {
            return entries.filter(p -> p.getFileName().toString().startsWith(TwoRankJob.BASE_PREFIX))
                .collect(Collectors.toCollection(ArrayList::new));
        }
    }
    @Test
    void shouldRunTheLaneBenchmarksOverTheLanes() throws InterruptedException {
        for (final String impl : new String[] {NotifyChannel.LANES}) {
            for (final int origins : new int[] {2, 64}) {
                final NotifyLanesBenchmark roundTrips = new NotifyLanesBenchmark();
                roundTrips.impl = impl;
                roundTrips.origins = origins;
                roundTrips.setup();
                try {
                    for (int i = 1; i <= CALLS; i++) {
                        assertEquals(i, roundTrips.roundTrip(), impl + " echoes the value it was sent");
                    }
                } finally {
                    roundTrips.teardown();
                }
                final NotifyLanesBenchmark polls = new NotifyLanesBenchmark();
                polls.impl = impl;
                polls.origins = origins;
                polls.setup();
                try {
                    for (int i = 0; i < CALLS; i++) {
                        assertEquals(1, polls.offerPoll(), impl);
                        assertEquals(0, polls.emptyPoll(), impl);
                    }
                } finally {
                    polls.teardown();
                }
            }
            final NotifyLanesFanInBenchmark fanIn = new NotifyLanesFanInBenchmark();
            final NotifyLanesFanInBenchmark.Impl which = new NotifyLanesFanInBenchmark.Impl();
            which.impl = impl;
            final NotifyLanesFanInBenchmark.Shared7 shared = new NotifyLanesFanInBenchmark.Shared7();
            shared.setup(which);
            try {
                final NotifyLanesFanInBenchmark.Origin[] origins = new NotifyLanesFanInBenchmark.Origin[7];
                final NotifyLanesFanInBenchmark.Counters producers = new NotifyLanesFanInBenchmark.Counters();
                final NotifyLanesFanInBenchmark.Counters consumer = new NotifyLanesFanInBenchmark.Counters();
                for (int p = 0; p < origins.length; p++) {
                    origins[p] = new NotifyLanesFanInBenchmark.Origin();
                }
                for (int i = 0; i < CALLS; i++) {
                    for (final NotifyLanesFanInBenchmark.Origin origin : origins) {
                        fanIn.offer7(shared, origin, producers);
                    }
                    fanIn.take7(shared, consumer);
                }
                assertEquals(7L * CALLS, producers.offersMade, impl);
                assertEquals(7L * CALLS, consumer.taken, impl);
            } finally {
                shared.teardown();
            }
        }
    }
}
