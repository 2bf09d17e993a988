package org.rma4j.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.WaitStrategy;

/**
 * A producer that claimed a slot and stopped before publishing it, simulated with the ring's claim steps:
 * the consumer gives the slot up exactly when its claimer is dead, reports it, and goes on.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StuckSlotsTest {
    private static final int CAPACITY = 8;
    private static final int DEAD = 7;
    private static final int ALIVE = 8;

    private RingFiles files;
    private MemorySegment segment;
    private final List<String> reports = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        files = new RingFiles();
        segment = files.createRing("ring", CAPACITY);
    }

    @AfterEach
    void tearDown() throws Exception {
        files.close();
    }

    private NotifyRing producer(final int producerId) {
        return new NotifyRing(files.open("ring"), RingFiles.RING_OFFSET, CAPACITY, producerId);
    }

    private NotifyRing consumer(final ProducerLiveness liveness, final long checkIntervalNs) {
        return new NotifyRing(segment, RingFiles.RING_OFFSET, CAPACITY, ProducerLiveness.UNKNOWN_PRODUCER, liveness,
            (index, producerId) -> reports.add(index + " of " + producerId), checkIntervalNs);
    }

    private static List<Long> drainDisplacements(final NotifyRing ring) {
        final List<Long> got = new ArrayList<>();
        ring.drain(n -> got.add(n.displacement()), Integer.MAX_VALUE);
        return got;
    }

    @Test
    void shouldSkipExactlyTheSlotOfADeadClaimerAndConsumeLaterEntries() {
        final NotifyRing dead = producer(DEAD);
        final NotifyRing alive = producer(ALIVE);
        final NotifyRing consumer = consumer(ProducerLiveness.of(id -> id == DEAD, () -> true), 0);
        final long stuck = dead.claimIndex();
        assertTrue(dead.recordClaim(stuck));
        for (long d = 1; d <= 3; d++) {
            assertTrue(alive.offer(ALIVE, 0, d, 0, 0, null));
        }

        assertEquals(List.of(1L, 2L, 3L), drainDisplacements(consumer));

        assertEquals(1, consumer.skippedSlots());
        assertEquals(List.of("0 of 7"), reports);
        assertEquals(4, consumer.consumerIndex());
    }

    @Test
    void shouldNeverConsumeASkippedSlotsLatePublicationInALaterLap() {
        final NotifyRing dead = producer(DEAD);
        final NotifyRing alive = producer(ALIVE);
        final NotifyRing consumer = consumer(ProducerLiveness.of(id -> id == DEAD, () -> false), 0);
        final long stuck = dead.claimIndex();
        assertTrue(dead.recordClaim(stuck));
        assertTrue(alive.offer(ALIVE, 0, 1, 0, 0, null));
        assertEquals(List.of(1L), drainDisplacements(consumer));

        dead.commit(stuck, DEAD, 0, 666, 0, 0, null);
        assertEquals(List.of(), drainDisplacements(consumer), "the late publication is not an entry");

        for (long d = 2; d < 2 + CAPACITY; d++) {
            assertTrue(alive.offer(ALIVE, 0, d, 0, 0, null), "offer " + d + " (the skipped slot is reused)");
        }
        final List<Long> expected = new ArrayList<>();
        for (long d = 2; d < 2 + CAPACITY; d++) {
            expected.add(d);
        }
        assertEquals(expected, drainDisplacements(consumer));
        assertEquals(1, consumer.skippedSlots());
    }

    @Test
    void shouldWaitForALiveClaimerAndConsumeItsEntryFirstOncePublished() {
        final NotifyRing slow = producer(DEAD);
        final NotifyRing other = producer(ALIVE);
        final AtomicInteger questions = new AtomicInteger();
        final NotifyRing consumer = consumer(ProducerLiveness.of(id -> {
            questions.incrementAndGet();
            return false;
        }, () -> true), 0);
        final long claimed = slow.claimIndex();
        assertTrue(slow.recordClaim(claimed));
        assertTrue(other.offer(ALIVE, 0, 1, 0, 0, null));

        for (int poll = 0; poll < 10; poll++) {
            assertEquals(List.of(), drainDisplacements(consumer));
        }
        assertEquals(10, questions.get(), "asked about the recorded claimer, not anyDead()");
        assertEquals(0, consumer.skippedSlots());

        slow.commit(claimed, DEAD, 0, 0, 0, 0, null);
        assertEquals(List.of(0L, 1L), drainDisplacements(consumer));
        assertEquals(List.of(), reports);
    }

    @Test
    void shouldSkipAnUnrecordedClaimWhenSomeProducerIsDeadAndMakeItsClaimerClaimAgain() {
        final NotifyRing unrecorded = producer(ALIVE);
        final NotifyRing consumer = consumer(ProducerLiveness.of(id -> false, () -> true), 0);
        final long claimed = unrecorded.claimIndex();
        assertTrue(producer(DEAD + 1).offer(1, 0, 1, 0, 0, null));

        assertEquals(List.of(1L), drainDisplacements(consumer));
        assertEquals(List.of("0 of " + ProducerLiveness.UNKNOWN_PRODUCER), reports);

        assertFalse(unrecorded.recordClaim(claimed), "the claim was given up: its producer must not write it");
        assertTrue(unrecorded.offer(ALIVE, 0, 2, 0, 0, null), "a new claim goes through");
        assertEquals(List.of(2L), drainDisplacements(consumer));
        assertEquals(1, consumer.skippedSlots());
    }

    @Test
    void shouldWaitForAnUnrecordedClaimWhileNoProducerIsDead() {
        final NotifyRing slow = producer(ALIVE);
        final NotifyRing consumer = consumer(ProducerLiveness.of(id -> true, () -> false), 0);
        final long claimed = slow.claimIndex();

        assertEquals(List.of(), drainDisplacements(consumer));
        assertEquals(0, consumer.skippedSlots());

        assertTrue(slow.recordClaim(claimed));
        slow.commit(claimed, ALIVE, 0, 5, 0, 0, null);
        assertEquals(List.of(5L), drainDisplacements(consumer));
    }

    @Test
    void shouldNotAskAboutASlotBeforeTheCheckIntervalHasPassed() {
        final NotifyRing dead = producer(DEAD);
        final AtomicInteger questions = new AtomicInteger();
        final NotifyRing consumer = consumer(ProducerLiveness.of(id -> {
            questions.incrementAndGet();
            return true;
        }, () -> true), Long.MAX_VALUE / 4);
        assertTrue(dead.recordClaim(dead.claimIndex()));

        assertEquals(List.of(), drainDisplacements(consumer));
        assertEquals(0, questions.get());
        assertEquals(0, consumer.skippedSlots());
    }

    @Test
    void shouldNotAskAboutAnEmptyRing() {
        final AtomicInteger questions = new AtomicInteger();
        final NotifyRing consumer = consumer(
            ProducerLiveness.of(id -> questions.incrementAndGet() > 0, () -> questions.incrementAndGet() > 0), 0);
        for (int poll = 0; poll < 10; poll++) {
            assertEquals(0, consumer.poll(n -> {
            }));
        }
        assertEquals(0, questions.get());
    }

    @Test
    void shouldGiveUpADeadClaimersSlotWhileAwaitingTheNextEntry() {
        final NotifyRing dead = producer(DEAD);
        final NotifyRing consumer = consumer(ProducerLiveness.of(id -> id == DEAD, () -> true), 0);
        assertTrue(dead.recordClaim(dead.claimIndex()));
        assertTrue(producer(ALIVE).offer(ALIVE, 0, 1, 0, 0, null));

        consumer.awaitNotEmpty(new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0), Liveness.NONE);

        assertEquals(1, consumer.skippedSlots());
        assertEquals(List.of(1L), drainDisplacements(consumer));
    }

    @Test
    void shouldGiveUpADeadClaimersSlotByPollingOnceTheIntervalHasPassed() throws Exception {
        final NotifyRing dead = producer(DEAD);
        final NotifyRing consumer = consumer(ProducerLiveness.of(id -> id == DEAD, () -> true),
            TimeUnit.MILLISECONDS.toNanos(1));
        assertTrue(dead.recordClaim(dead.claimIndex()));
        assertTrue(producer(ALIVE).offer(ALIVE, 0, 1, 0, 0, null));

        // The clock is read once every POLLS_PER_CLOCK_READ polls: keep polling until the slot is given up.
        final List<Long> got = new ArrayList<>();
        for (int poll = 0; got.isEmpty(); poll++) {
            assertTrue(poll < 10_000_000, "the stuck slot was never given up");
            consumer.drain(n -> got.add(n.displacement()), Integer.MAX_VALUE);
        }

        assertEquals(List.of(1L), got);
        assertEquals(1, consumer.skippedSlots());
    }

    @Test
    void shouldGiveUpADeadClaimersSlotWhileSleepingWithTheDefaultInterval() {
        final NotifyRing dead = producer(DEAD);
        final NotifyRing consumer = consumer(ProducerLiveness.of(id -> id == DEAD, () -> true),
            NotifyRing.STUCK_CHECK_INTERVAL_NS_DEFAULT);
        assertTrue(dead.recordClaim(dead.claimIndex()));
        assertTrue(producer(ALIVE).offer(ALIVE, 0, 1, 0, 0, null));

        // A futex sleeper polls only when woken (here: by its liveness period), far fewer times than
        // POLLS_PER_CLOCK_READ; its periodic check asks for a clock read.
        final long startNs = System.nanoTime();
        consumer.awaitNotEmpty(new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0), Liveness.NONE);
        System.out.printf("stuck slot given up by a sleeping consumer after %d ms%n",
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));

        assertEquals(1, consumer.skippedSlots());
        assertEquals(List.of(1L), drainDisplacements(consumer));
    }

    @Test
    void shouldMoveOnFromASlotGivenUpWhenTheListenerThrows() {
        final NotifyRing dead = producer(DEAD);
        final NotifyRing consumer = new NotifyRing(segment, RingFiles.RING_OFFSET, CAPACITY,
            ProducerLiveness.UNKNOWN_PRODUCER, ProducerLiveness.of(id -> true, () -> true), (index, id) -> {
                throw new IllegalStateException("listener failed");
            }, 0);
        assertTrue(dead.recordClaim(dead.claimIndex()));
        assertTrue(producer(ALIVE).offer(ALIVE, 0, 1, 0, 0, null));

        assertEquals("listener failed",
            assertThrows(IllegalStateException.class, () -> drainDisplacements(consumer)).getMessage());

        assertEquals(List.of(1L), drainDisplacements(consumer));
        assertEquals(1, consumer.skippedSlots());
    }
}
