package org.rma4j.notify;

import org.rma4j.test.FutexSleepers;
import org.rma4j.test.ShmTestDirectory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

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

/**
 * Producer processes ({@link LaneChild}), one lane each, offering into lanes in a file this test created, this
 * JVM consuming: exactly-once delivery and per-origin order, a consumer asleep woken by another process, and
 * producers killed with SIGKILL mid-stream and between writing and publishing an entry.
 */
@Timeout(value = 600, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NotifyLanesCrossProcessTest {
    private static final int LANES = 3;
    private static final int LANE_CAPACITY = 16;
    private static final long OFFERS_PER_PRODUCER = 100_000;

    private LaneFiles files;

    @BeforeEach
    void setUp() throws Exception {
        files = new LaneFiles();
    }

    @AfterEach
    void tearDown() throws Exception {
        files.close();
    }

    private NotifyLanes createLanes() {
        return createLanes(NotifyLanesLayout.pollModeFor(LANES));
    }

    private NotifyLanes createLanes(final int pollMode) {
        return new NotifyLanes(files.createLanesPolled("lanes", LANES, LANE_CAPACITY, pollMode), LaneFiles.LANES_OFFSET,
            LANES, LANE_CAPACITY);
    }

    private Process startProducer(final String mode, final int lane, final long count) throws Exception {
        return files.startChild(mode, files.path("lanes").toString(), Integer.toString(LANES),
            Integer.toString(LANE_CAPACITY), Integer.toString(lane), Long.toString(count));
    }

    @ParameterizedTest(name = "poll mode {0}")
    @ValueSource(ints = {NotifyLanesLayout.POLL_SUMMARY, NotifyLanesLayout.POLL_STAMPS})
    void shouldDeliverEveryOfferOfEveryProducerProcessOnceAndInOrder(final int pollMode) throws Exception {
        final NotifyLanes consumer = createLanes(pollMode);
        final List<Process> children = new ArrayList<>();
        final List<CompletableFuture<Process>> exits = new ArrayList<>();
        for (int p = 0; p < LANES; p++) {
            final Process child = startProducer("produce-lane", p, OFFERS_PER_PRODUCER);
            children.add(child);
            exits.add(child.onExit());
        }

        final Traffic.Checker checker = NotifyLanesConcurrencyTest.consume(consumer, LANES * OFFERS_PER_PRODUCER,
            exits);

        for (int p = 0; p < LANES; p++) {
            final Process child = children.get(p);
            assertTrue(child.waitFor(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS),
                "producer " + p + " runs on");
            assertEquals(0, child.exitValue(), "producer " + p + " failed: " + files.log(p));
            assertEquals(OFFERS_PER_PRODUCER, checker.receivedFrom(p), "received from producer process " + p);
        }
        assertEquals(0, consumer.poll(n -> {
        }), "nothing left over");
    }

    @Test
    void shouldWakeAConsumerProvablyAsleepWhenAProducerProcessOffers() throws Exception {
        final MemorySegment segment = files.createLanes("lanes", LANES, LANE_CAPACITY);
        final NotifyLanes consumer = new NotifyLanes(segment, LaneFiles.LANES_OFFSET, LANES, LANE_CAPACITY);
        final long signal = consumer.signalOffset();
        final WaitStrategy sleepAtOnce = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0);
        for (int round = 0; round < 2; round++) {
            final int lane = round + 1;
            final Future<Integer> woken = files.submit(() -> {
                consumer.awaitNotEmpty(sleepAtOnce, Liveness.NONE);
                final int[] source = {-1};
                consumer.poll(n -> source[0] = n.source());
                return source[0];
            });
            FutexSleepers.await(segment, signal, 1);
            final int before = Words.getIntVolatile(segment, signal);

            final Process child = startProducer("produce-lane", lane, 1);

            assertEquals(lane, woken.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
            assertTrue(child.waitFor(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
            assertEquals(0, child.exitValue(), files.log(round));
            assertEquals(before + 1, Words.getIntVolatile(segment, signal), "the producer process woke the sleeper");
        }
        assertEquals(0, Words.getIntVolatile(segment, signal + WaitWords.SLEEPERS_OFFSET), "no sleeper left");
    }

    @Test
    void shouldKeepTheOtherProducersFlowingWhenOneIsKilledMidStream() throws Exception {
        final NotifyLanes consumer = createLanes();
        final Process victim = startProducer("produce-lane", 0, Long.MAX_VALUE / 2);
        final Process first = startProducer("produce-lane", 1, OFFERS_PER_PRODUCER);
        final Process second = startProducer("produce-lane", 2, OFFERS_PER_PRODUCER);
        final Traffic.Checker checker = new Traffic.Checker(LANES);
        final long beforeKill = 20_000;

        consumeUntil(consumer, checker, () -> checker.receivedFrom(0) >= beforeKill, () -> !victim.isAlive());
        victim.destroyForcibly(); // SIGKILL: at whatever point of an offer it is
        assertTrue(victim.waitFor(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        consumeUntil(consumer, checker,
            () -> checker.receivedFrom(1) == OFFERS_PER_PRODUCER && checker.receivedFrom(2) == OFFERS_PER_PRODUCER,
            () -> !first.isAlive() && !second.isAlive());
        consumer.drain(checker, Integer.MAX_VALUE);

        assertEquals(0, first.waitFor() + second.waitFor(), files.log(1) + files.log(2));
        assertEquals(OFFERS_PER_PRODUCER, checker.receivedFrom(1));
        assertEquals(OFFERS_PER_PRODUCER, checker.receivedFrom(2));
        assertTrue(checker.receivedFrom(0) >= beforeKill, "the killed producer's published prefix, in order");
        assertEquals(checker.receivedFrom(0), consumer.head(0));
        assertEquals(0, consumer.poll(n -> {
        }), "nothing left over");
    }

    @Test
    void shouldDeliverEverythingElseWhenAProducerIsKilledBetweenWritingAndPublishing() throws Exception {
        final NotifyLanes consumer = createLanes();
        final MemorySegment segment = files.open("lanes");
        final long published = 1_000;
        final Process stalled = startProducer("stall-lane", 0, published);
        final long stagedDisplacement = LaneFiles.LANES_OFFSET + NotifyLanesLayout.laneOffset(LANES, LANE_CAPACITY, 0)
            + NotifyLanesLayout.entryOffset(published, LANE_CAPACITY) + NotifyLanesLayout.DISPLACEMENT_OFFSET;
        final Traffic.Checker checker = new Traffic.Checker(LANES);

        consumeUntil(consumer, checker, () -> checker.receivedFrom(0) == published
            && Words.getLongAcquire(segment, stagedDisplacement) == published, () -> !stalled.isAlive());
        stalled.destroyForcibly(); // SIGKILL with its entry written and not published
        assertTrue(stalled.waitFor(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        final Process first = startProducer("produce-lane", 1, OFFERS_PER_PRODUCER);
        final Process second = startProducer("produce-lane", 2, OFFERS_PER_PRODUCER);
        consumeUntil(consumer, checker,
            () -> checker.receivedFrom(1) == OFFERS_PER_PRODUCER && checker.receivedFrom(2) == OFFERS_PER_PRODUCER,
            () -> !first.isAlive() && !second.isAlive());
        consumer.drain(checker, Integer.MAX_VALUE);

        assertEquals(0, first.waitFor() + second.waitFor(), files.log(1) + files.log(2));
        assertEquals(published, checker.receivedFrom(0), "the written, unpublished entry is never delivered");
        assertEquals(OFFERS_PER_PRODUCER, checker.receivedFrom(1));
        assertEquals(OFFERS_PER_PRODUCER, checker.receivedFrom(2));
        assertTrue(consumer.isEmpty());
    }

    /**
     * Drains into {@code checker}, sleeping when idle, until {@code done}; fails if {@code gone} (the producers
     * it depends on exited) while the lanes are empty and {@code done} is still false.
     */
    private static void consumeUntil(final NotifyLanes consumer, final Traffic.Checker checker,
        final BooleanSupplier done, final BooleanSupplier gone) {
        final Liveness producers = () -> {
            if (gone.getAsBoolean()) {
                throw new PeerFailedException(-1, "the producers exited");
            }
        };
        while (!done.getAsBoolean()) {
            if (consumer.drain(checker, LANE_CAPACITY) > 0) {
                continue;
            }
            try {
                // NOTE: done may become true without an offer (a producer's unpublished write), so it is part of
                // the wait's condition; the periodic wake-up re-checks it.
                consumer.await(WaitStrategy.defaultStrategy(), () -> done.getAsBoolean() || consumer.isHeadReady(),
                    producers);
            } catch (final PeerFailedException e) {
                if (consumer.drain(checker, Integer.MAX_VALUE) == 0 && !done.getAsBoolean()) {
                    throw new AssertionError("producers exited before the condition held; received "
                        + checker.receivedFrom(0) + ", " + checker.receivedFrom(1) + ", " + checker.receivedFrom(2), e);
                }
            }
        }
    }
}
