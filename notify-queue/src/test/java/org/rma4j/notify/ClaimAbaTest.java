package org.rma4j.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A producer whose unrecorded claim the consumer gave up (some producer of the ring is dead) must not record
 * over the claim of a producer that reused the slot a lap later: the record CAS starts only from the slot's
 * previous-lap value (ABA). Deterministic replay of the interleaving, then the race with live threads.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ClaimAbaTest {
    private static final int CAPACITY = 4;

    private RingFiles files;
    private MemorySegment segment;

    @BeforeEach
    void setUp() throws Exception {
        files = new RingFiles();
        segment = files.createRing("ring", CAPACITY);
    }

    @AfterEach
    void tearDown() throws Exception {
        files.close();
    }

    @Test
    void shouldNotRecordAGivenUpClaimOverALaterLapsClaim() {
        final List<String> skipped = new ArrayList<>();
        final NotifyRing consumer = new NotifyRing(segment, RingFiles.RING_OFFSET, CAPACITY,
            ProducerLiveness.UNKNOWN_PRODUCER, ProducerLiveness.of(id -> false, () -> true),
            (index, producer) -> skipped.add(index + " of " + producer), 0);
        final NotifyRing p = new NotifyRing(files.open("ring"), RingFiles.RING_OFFSET, CAPACITY, 7);
        final NotifyRing q = new NotifyRing(files.open("ring"), RingFiles.RING_OFFSET, CAPACITY, 8);
        final List<Integer> delivered = new ArrayList<>();
        final NotificationHandler handler = n -> delivered.add(n.tag());

        final long pIndex = p.claimIndex(); // P claims index 0 and stalls before recording it
        assertEquals(0, consumer.drain(handler, 100)); // the consumer gives the unrecorded claim up
        assertEquals(List.of("0 of -1"), skipped);
        for (int tag = 100; tag < 100 + CAPACITY; tag++) { // Q laps the ring: index 4 reuses slot 0
            assertTrue(q.offer(8, tag, 0, 0, 0, null));
        }

        assertFalse(p.recordClaim(pIndex), "P recorded over Q's claim of the slot's next lap");
        assertEquals(CAPACITY, consumer.drain(handler, 100));
        assertTrue(p.offer(7, 999, 0, 0, 0, null)); // P claims again, as offer does after a failed record
        assertEquals(1, consumer.drain(handler, 100));
        assertEquals(List.of(100, 101, 102, 103, 999), delivered);
        assertEquals(1, consumer.skippedSlots());
    }

    @Test
    void shouldRejectEveryValueButThePreviousLapsWhenRecording() {
        assertTrue(NotifyRingLayout.isPreviousLap(0, 3, CAPACITY));
        assertFalse(NotifyRingLayout.isPreviousLap(NotifyRingLayout.skipMark(3), 3, CAPACITY));
        assertTrue(NotifyRingLayout.isPreviousLap(NotifyRingLayout.publishedValue(1), 5, CAPACITY));
        assertTrue(NotifyRingLayout.isPreviousLap(NotifyRingLayout.skipMark(1), 5, CAPACITY));
        assertFalse(NotifyRingLayout.isPreviousLap(0, 5, CAPACITY));
        assertFalse(NotifyRingLayout.isPreviousLap(NotifyRingLayout.claimMark(5, 2), 1, CAPACITY));
        assertFalse(NotifyRingLayout.isPreviousLap(NotifyRingLayout.claimMark(5, 2), 9, CAPACITY));
        assertFalse(NotifyRingLayout.isPreviousLap(NotifyRingLayout.skipMark(9), 9, CAPACITY));
    }

    /**
     * Four live producers into a ring of one slot with "some producer is dead" and the check interval at 0:
     * the consumer gives up every unrecorded claim it sees, and every offer that returned true must still be
     * delivered exactly once with its own fields (27 lost and 1 corrupted of 800,000 before the fix).
     */
    @Test
    void shouldDeliverEveryAcceptedOfferOnceWhileUnrecordedClaimsAreGivenUp() throws Exception {
        final int producers = 4;
        final int perProducer = Integer.getInteger("rma4j.test.aba.offers", 200_000);
        final MemorySegment one = files.createRing("one", 1);
        final AtomicLong skipped = new AtomicLong();
        final NotifyRing consumer = new NotifyRing(one, RingFiles.RING_OFFSET, 1, ProducerLiveness.UNKNOWN_PRODUCER,
            ProducerLiveness.of(id -> false, () -> true), (index, producer) -> skipped.incrementAndGet(), 0);
        final AtomicLongArray seen = new AtomicLongArray(producers * perProducer);
        final AtomicLong corrupted = new AtomicLong();
        final Thread[] threads = new Thread[producers];
        for (int t = 0; t < producers; t++) {
            final int id = t;
            final NotifyRing ring = new NotifyRing(files.open("one"), RingFiles.RING_OFFSET, 1, id);
            threads[t] = new Thread(() -> {
                for (int k = 0; k < perProducer; k++) {
                    while (!ring.offer(id, k, displacement(id, k), length(id, k), 0, null)) {
                        Thread.yield();
                    }
                }
            }, "producer-" + id);
            threads[t].start();
        }
        final NotificationHandler handler = n -> {
            final int source = n.source();
            final int tag = n.tag();
            if (source < 0 || source >= producers || tag < 0 || tag >= perProducer
                || n.displacement() != displacement(source, tag) || n.length() != length(source, tag)) {
                corrupted.incrementAndGet();
            } else {
                seen.incrementAndGet(source * perProducer + tag);
            }
        };
        boolean running = true;
        while (running || !consumer.isEmpty()) {
            if (consumer.drain(handler, 1000) == 0) {
                Thread.yield();
            }
            running = false;
            for (final Thread thread : threads) {
                running |= thread.isAlive();
            }
        }
        for (final Thread thread : threads) {
            thread.join();
        }
        consumer.drain(handler, Integer.MAX_VALUE);
        long lost = 0;
        long duplicated = 0;
        for (int i = 0; i < seen.length(); i++) {
            lost += seen.get(i) == 0 ? 1 : 0;
            duplicated += Math.max(0, seen.get(i) - 1);
        }
        assertEquals(0, corrupted.get(), "corrupted");
        assertEquals(0, lost, "lost (slots given up: " + skipped.get() + ")");
        assertEquals(0, duplicated, "duplicated");
    }

    private static long displacement(final int producer, final int k) {
        return producer * 1_000_000_000L + k;
    }

    private static int length(final int producer, final int k) {
        return (producer * 31 + k) & 0x7fffffff;
    }
}
