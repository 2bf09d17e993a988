package org.rma4j.notify;

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
import org.junit.jupiter.params.provider.ValueSource;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.PeerFailedException;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.WaitWords;
import org.rma4j.shm.Words;
import org.rma4j.test.ShmTestDirectory;

/**
 * Producer threads, each with its own mapping of the ring file (as separate processes would have), and a
 * consumer thread; and the consumer's futex sleep ended by a producer's signal.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NotifyRingConcurrencyTest {
    private static final int CAPACITY = 64;
    private static final long OFFERS_PER_PRODUCER = 100_000;

    private RingFiles files;

    @BeforeEach
    void setUp() throws Exception {
        files = new RingFiles();
    }

    @AfterEach
    void tearDown() throws Exception {
        files.close();
    }

    @ParameterizedTest(name = "{0} producers")
    @ValueSource(ints = {2, 3})
    void shouldDeliverEveryOfferOnceAndInProducerOrder(final int producers) throws Exception {
        final NotifyRing consumer = new NotifyRing(files.createRing("ring", CAPACITY), RingFiles.RING_OFFSET, CAPACITY,
            producers);
        final List<Future<Boolean>> running = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            final NotifyRing ring = new NotifyRing(files.open("ring"), RingFiles.RING_OFFSET, CAPACITY, p);
            final int producer = p;
            running.add(files.submit(() -> Traffic.produce(ring, producer, OFFERS_PER_PRODUCER, () -> true)));
        }

        final Traffic.Checker checker = consume(consumer, producers * OFFERS_PER_PRODUCER, running);

        for (final Future<Boolean> producer : running) {
            assertTrue(producer.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        }
        for (int p = 0; p < producers; p++) {
            assertEquals(OFFERS_PER_PRODUCER, checker.receivedFrom(p), "received from producer " + p);
        }
        assertEquals(producers * OFFERS_PER_PRODUCER, consumer.producerIndex(), "claims");
        assertEquals(0, consumer.poll(n -> {
        }), "nothing left over");
        assertEquals(0, consumer.skippedSlots());
    }

    /**
     * Drains {@code ring} into a {@link Traffic.Checker} until {@code expected} notifications arrived or every
     * producer has finished and the ring is empty (then the counts show what was lost).
     */
    static Traffic.Checker consume(final NotifyRing ring, final long expected,
        final List<? extends Future<?>> producers) {
        final Traffic.Checker checker = new Traffic.Checker(producers.size());
        final WaitStrategy strategy = WaitStrategy.defaultStrategy();
        final Liveness producersRunning = () -> {
            if (producers.stream().allMatch(Future::isDone)) {
                throw new PeerFailedException(-1, "every producer has finished");
            }
        };
        while (checker.received() < expected) {
            if (ring.drain(checker, CAPACITY) > 0) {
                continue;
            }
            try {
                ring.awaitNotEmpty(strategy, producersRunning);
            } catch (final PeerFailedException finished) {
                if (ring.drain(checker, Integer.MAX_VALUE) == 0) {
                    break;
                }
            }
        }
        return checker;
    }

    @Test
    void shouldWakeASleepingConsumerWhenAnotherThreadOffers() throws Exception {
        final MemorySegment segment = files.createRing("ring", 8);
        final NotifyRing consumer = new NotifyRing(segment, RingFiles.RING_OFFSET, 8, 0);
        final NotifyRing producer = new NotifyRing(files.open("ring"), RingFiles.RING_OFFSET, 8, 1);
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
            ShmTestDirectory.awaitCondition(
                () -> Words.getIntVolatile(segment, signal + WaitWords.SLEEPERS_OFFSET) == 1,
                "the consumer to sleep on the signal word");

            assertTrue(producer.offer(1, 0, round, 0, 0, null));

            assertEquals(round, woken.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        }
        // The producer bumps the signal value only when it saw a sleeper announced, and then wakes it: at
        // least one round's wake-up came from the offer rather than from a periodic liveness wake-up.
        assertTrue(Words.getIntVolatile(segment, signal) >= 1, "the producer signalled a sleeper");
        assertEquals(0, Words.getIntVolatile(segment, signal + WaitWords.SLEEPERS_OFFSET), "no sleeper left");
    }
}
