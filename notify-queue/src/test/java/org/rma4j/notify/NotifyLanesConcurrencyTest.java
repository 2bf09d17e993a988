package org.rma4j.notify;

import org.rma4j.test.FutexSleepers;
import org.rma4j.test.ShmTestDirectory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.Membarrier;
import org.rma4j.shm.PeerFailedException;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.WaitWords;
import org.rma4j.shm.Words;

/**
 * Producer threads, each with its own lane and its own mapping of the lanes' file (as separate processes would
 * have), and a consumer thread; and the consumer's futex sleep ended by a producer's offer, in both fence modes.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NotifyLanesConcurrencyTest {
    static final int LANE_CAPACITY = 16;
    private static final long OFFERS_PER_PRODUCER = 50_000;

    private LaneFiles files;

    @BeforeEach
    void setUp() throws Exception {
        files = new LaneFiles();
    }

    @AfterEach
    void tearDown() throws Exception {
        files.close();
    }

    @ParameterizedTest(name = "{0} producers, poll mode {1}")
    @CsvSource({"1, 2", "3, 1", "7, 1", "7, 2"})
    void shouldDeliverEveryOfferOnceAndInProducerOrder(final int producers, final int pollMode) throws Exception {
        final NotifyLanes consumer = new NotifyLanes(
            files.createLanesPolled("lanes", producers, LANE_CAPACITY, pollMode), LaneFiles.LANES_OFFSET, producers,
            LANE_CAPACITY);
        final List<Future<Boolean>> running = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            final LaneProducer lane = new LaneProducer(files.open("lanes"), LaneFiles.LANES_OFFSET, producers,
                LANE_CAPACITY, p);
            final int producer = p;
            running.add(files.submit(() -> Traffic.produce(lane, producer, OFFERS_PER_PRODUCER, () -> true)));
        }

        final Traffic.Checker checker = consume(consumer, producers * OFFERS_PER_PRODUCER, running);

        for (final Future<Boolean> producer : running) {
            assertTrue(producer.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        }
        for (int p = 0; p < producers; p++) {
            assertEquals(OFFERS_PER_PRODUCER, checker.receivedFrom(p), "received from producer " + p);
            assertEquals(OFFERS_PER_PRODUCER, consumer.head(p), "lane " + p + " consumed");
        }
        assertEquals(0, consumer.poll(n -> {
        }), "nothing left over");
    }

    /**
     * Drains {@code lanes} into a {@link Traffic.Checker} until {@code expected} notifications arrived or every
     * producer has finished and the lanes are empty (then the counts show what was lost).
     */
    static Traffic.Checker consume(final NotifyLanes lanes, final long expected,
        final List<? extends Future<?>> producers) {
        final Traffic.Checker checker = new Traffic.Checker(producers.size());
        final WaitStrategy strategy = WaitStrategy.defaultStrategy();
        final Liveness producersRunning = () -> {
            if (producers.stream().allMatch(Future::isDone)) {
                throw new PeerFailedException(-1, "every producer has finished");
            }
        };
        while (checker.received() < expected) {
            if (lanes.drain(checker, LANE_CAPACITY) > 0) {
                continue;
            }
            try {
                lanes.awaitNotEmpty(strategy, producersRunning);
            } catch (final PeerFailedException finished) {
                if (lanes.drain(checker, Integer.MAX_VALUE) == 0) {
                    break;
                }
            }
        }
        return checker;
    }

    @ParameterizedTest(name = "fence mode {0}, poll mode {1}")
    @CsvSource({"1, 1", "1, 2", "2, 1", "2, 2"})
    void shouldWakeAConsumerProvablyAsleepWhenAnotherThreadOffers(final int fenceMode, final int pollMode)
        throws Exception {
        if (fenceMode == NotifyLanesLayout.FENCE_ASYMMETRIC) {
            assertTrue(Membarrier.isGlobalExpeditedSupported(), "membarrier is supported on this machine");
        }
        final MemorySegment segment = files.createLanes("lanes", 4, 4, fenceMode, pollMode);
        final NotifyLanes consumer = new NotifyLanes(segment, LaneFiles.LANES_OFFSET, 4, 4);
        assertEquals(pollMode == NotifyLanesLayout.POLL_STAMPS, consumer.isStampPolled());
        final LaneProducer producer = new LaneProducer(files.open("lanes"), LaneFiles.LANES_OFFSET, 4, 4, 2);
        final long signal = consumer.signalOffset();
        final WaitStrategy sleepAtOnce = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0);
        final int rounds = 3;

        for (int round = 0; round < rounds; round++) {
            final Future<Long> woken = files.submit(() -> {
                consumer.awaitNotEmpty(sleepAtOnce, Liveness.NONE);
                final long[] displacement = new long[1];
                consumer.poll(n -> displacement[0] = n.displacement());
                return displacement[0];
            });
            FutexSleepers.await(segment, signal, 1);
            final int before = Words.getIntVolatile(segment, signal);

            assertTrue(producer.offer(2, 0, round, 0, 0, null));

            assertEquals(round, woken.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
            assertEquals(before + 1, Words.getIntVolatile(segment, signal), "the offer saw the sleeper and woke it");
        }
        assertEquals(0, Words.getIntVolatile(segment, signal + WaitWords.SLEEPERS_OFFSET), "no sleeper left");
        assertEquals(fenceMode == NotifyLanesLayout.FENCE_SYMMETRIC, producer.usesFullFence());
    }

    /**
     * A producer asleep waiting for room in its full lane (room-wait flag set, sleeping on a word of its own that
     * the consumer's room listener signals) is woken by the consumer's drain, and its offer then succeeds.
     */
    @ParameterizedTest(name = "fence mode {0}")
    @ValueSource(ints = {NotifyLanesLayout.FENCE_SYMMETRIC, NotifyLanesLayout.FENCE_ASYMMETRIC})
    void shouldWakeAProducerProvablyAsleepForRoomWhenTheConsumerDrains(final int fenceMode) throws Exception {
        final MemorySegment segment = files.createLanes("lanes", 2, 2, fenceMode);
        final NotifyLanes consumer = new NotifyLanes(segment, LaneFiles.LANES_OFFSET, 2, 2);
        final MemorySegment producerSide = files.open("lanes");
        final LaneProducer producer = new LaneProducer(producerSide, LaneFiles.LANES_OFFSET, 2, 2, 1);
        // The producer's own wait word: the first 8 bytes of the file header's padding, outside the lanes.
        final long wordOffset = 64;
        final java.util.concurrent.atomic.AtomicInteger told = new java.util.concurrent.atomic.AtomicInteger();
        consumer.onRoom(lane -> {
            told.incrementAndGet();
            WaitWords.signal(segment, wordOffset);
        });
        final WaitStrategy sleepAtOnce = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0);
        final int rounds = 3;
        for (int round = 0; round < rounds; round++) {
            while (producer.offer(1, 0, round, 0, 0, null)) {
                // fill the lane
            }
            final long expected = producer.published();
            final Future<Long> offered = files.submit(() -> {
                producer.waitForRoom(true);
                try {
                    sleepAtOnce.awaitCondition(producerSide, wordOffset, () -> producer.offer(1, 0, 99, 0, 0, null),
                        Liveness.NONE, consumer.isAsymmetric());
                } finally {
                    producer.waitForRoom(false);
                }
                return producer.published();
            });
            FutexSleepers.await(producerSide, wordOffset, 1);
            final int toldBefore = told.get();

            assertEquals(1, consumer.poll(n -> {
            }), "the consumer frees one slot");

            assertEquals(expected + 1, offered.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
            assertEquals(toldBefore + 1, told.get(), "the drain saw the room-wait flag");
            consumer.drain(n -> {
            }, 10);
        }
        assertEquals(0, Words.getIntVolatile(segment, wordOffset + WaitWords.SLEEPERS_OFFSET), "no sleeper left");
        consumer.poll(n -> {
        });
        assertEquals(told.get(), rounds, "no room call without a waiting producer");
    }

    @ParameterizedTest(name = "poll mode {0}")
    @ValueSource(ints = {NotifyLanesLayout.POLL_SUMMARY, NotifyLanesLayout.POLL_STAMPS})
    void shouldDeliverEverythingToAConsumerThatSleepsAtOnceUnderConstantOffers(final int pollMode) throws Exception {
        // Every wait goes to sleep at once, so many waits race an offer between the announcement and the sleep.
        final int producers = 2;
        final long offers = 5_000;
        final NotifyLanes consumer = new NotifyLanes(files.createLanesPolled("lanes", producers, 2, pollMode),
            LaneFiles.LANES_OFFSET, producers, 2);
        final List<Future<Boolean>> running = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            final LaneProducer lane = new LaneProducer(files.open("lanes"), LaneFiles.LANES_OFFSET, producers, 2, p);
            final int producer = p;
            running.add(files.submit(() -> Traffic.produce(lane, producer, offers, () -> true)));
        }
        final Traffic.Checker checker = new Traffic.Checker(producers);
        final WaitStrategy sleepAtOnce = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0);
        while (checker.received() < producers * offers) {
            if (consumer.drain(checker, 4) == 0) {
                consumer.awaitNotEmpty(sleepAtOnce, Liveness.NONE);
            }
        }
        for (final Future<Boolean> producer : running) {
            assertTrue(producer.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        }
        assertEquals(producers * offers, checker.received());
        assertEquals(0, consumer.poll(n -> {
        }), "nothing left over");
    }
}
