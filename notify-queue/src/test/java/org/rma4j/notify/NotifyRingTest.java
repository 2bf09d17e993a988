package org.rma4j.notify;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.WaitWords;
import org.rma4j.shm.Words;

/**
 * One thread offering and polling: fields, payloads, capacity, wrap-around, handler failures and misuse.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NotifyRingTest {
    private RingFiles files;

    @BeforeEach
    void setUp() throws Exception {
        files = new RingFiles();
    }

    @AfterEach
    void tearDown() throws Exception {
        files.close();
    }

    private NotifyRing ring(final int capacity) {
        return new NotifyRing(files.createRing("ring", capacity), RingFiles.RING_OFFSET, capacity, 5);
    }

    @Test
    void shouldDeliverEveryFieldOfAnOffer() {
        final NotifyRing ring = ring(8);
        assertTrue(ring.offer(Integer.MAX_VALUE, 123_456, Long.MIN_VALUE + 7, Integer.MAX_VALUE,
            NotifyRingLayout.USER_FLAGS_MASK, null));
        assertTrue(ring.offer(0, 0, -1L, 0, 0, MemorySegment.ofArray(new byte[0])));

        final List<Notification> got = new ArrayList<>();
        assertEquals(2, ring.drain(n -> got.add(n.copy()), 10));

        final Notification first = got.get(0);
        assertEquals(Integer.MAX_VALUE, first.source());
        assertEquals(123_456, first.tag());
        assertEquals(Long.MIN_VALUE + 7, first.displacement());
        assertEquals(Integer.MAX_VALUE, first.length());
        assertEquals(NotifyRingLayout.USER_FLAGS_MASK, first.flags());
        assertEquals(0, first.inlineLength());
        final Notification second = got.get(1);
        assertEquals(0, second.source());
        assertEquals(0, second.tag());
        assertEquals(-1L, second.displacement());
        assertEquals(0, second.length());
        assertEquals(0, second.flags());
        assertEquals(0, ring.poll(n -> {
        }), "nothing more");
    }

    @Test
    void shouldCarryInlinePayloadsOfZeroToThirtyTwoBytes() {
        final NotifyRing ring = ring(4);
        for (int size = 0; size <= NotifyRingLayout.INLINE_CAPACITY; size++) {
            final byte[] bytes = new byte[size];
            for (int i = 0; i < size; i++) {
                bytes[i] = (byte)(size * 13 + i);
            }
            assertTrue(ring.offer(1, size, 0, size, 0x5A, MemorySegment.ofArray(bytes)));
            final int expectedSize = size;
            final byte[] copied = new byte[size + 2];
            assertEquals(1, ring.poll(n -> {
                assertEquals(expectedSize, n.inlineLength());
                assertEquals(expectedSize, n.length());
                assertEquals(0x5A, n.flags(), "the inline length does not leak into the flags");
                assertArrayEquals(bytes, n.inlinePayload().toArray(ValueLayout.JAVA_BYTE));
                assertEquals(expectedSize, n.copyInlinePayloadTo(MemorySegment.ofArray(copied), 1));
            }));
            for (int i = 0; i < size; i++) {
                assertEquals(bytes[i], copied[i + 1], "byte " + i + " of " + size);
            }
            assertEquals(0, copied[0], "nothing written before the target offset");
            assertEquals(0, copied[size + 1], "nothing written after the payload");
        }
    }

    @Test
    void shouldReportAFullRingAndLeaveItIntact() {
        final NotifyRing ring = ring(4);
        for (int i = 0; i < 4; i++) {
            assertTrue(ring.offer(1, i, i, 0, 0, null), "offer " + i);
        }
        assertEquals(4, ring.size());

        assertFalse(ring.offer(1, 99, 99, 0, 0, null));
        assertFalse(ring.offer(1, 99, 99, 0, 0, null));

        assertEquals(4, ring.producerIndex(), "a refused offer claims nothing");
        final List<Long> got = new ArrayList<>();
        assertEquals(4, ring.drain(n -> got.add(n.displacement()), 100));
        assertEquals(List.of(0L, 1L, 2L, 3L), got);
        assertTrue(ring.offer(1, 4, 4, 0, 0, null), "room again once drained");
        assertEquals(1, ring.poll(n -> assertEquals(4, n.displacement())));
    }

    @Test
    void shouldWrapAroundOverManyLaps() {
        final int capacity = 8;
        final NotifyRing ring = ring(capacity);
        final Traffic.Checker checker = new Traffic.Checker(6);
        final long total = 100_000;
        final MemorySegment scratch = MemorySegment.ofArray(new byte[NotifyRingLayout.INLINE_CAPACITY]);
        long offered = 0;
        int batch = 1;
        while (checker.received() < total) {
            for (int i = 0; i < batch && offered < total && offered - checker.received() < capacity; i++) {
                assertTrue(Traffic.offer(ring, 5, offered, scratch));
                offered++;
            }
            ring.drain(checker, 1 + batch % 5);
            batch = batch % capacity + 1;
        }
        assertEquals(total, checker.receivedFrom(5));
        assertEquals(total, ring.consumerIndex());
        assertEquals(total / capacity, ring.consumerIndex() / capacity, "laps");
        assertTrue(ring.isEmpty());
    }

    @Test
    void shouldCountTheEntryWhoseHandlerThrewAsConsumed() {
        final NotifyRing ring = ring(2);
        assertTrue(ring.offer(1, 1, 10, 0, 0, null));
        assertTrue(ring.offer(1, 2, 20, 0, 0, null));
        final IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> ring.drain(n -> {
            throw new IllegalStateException("handler failed on " + n.displacement());
        }, 2));
        assertEquals("handler failed on 10", thrown.getMessage());

        assertTrue(ring.offer(1, 3, 30, 0, 0, null), "the failed entry's slot is free again");
        final List<Long> rest = new ArrayList<>();
        assertEquals(2, ring.drain(n -> rest.add(n.displacement()), 10));
        assertEquals(List.of(20L, 30L), rest);
    }

    @Test
    void shouldRefuseToPollFromItsOwnHandler() {
        final NotifyRing ring = ring(4);
        assertTrue(ring.offer(1, 1, 1, 0, 0, null));
        assertTrue(ring.offer(1, 2, 2, 0, 0, null));
        assertThrows(IllegalStateException.class, () -> ring.poll(n -> ring.poll(inner -> {
        })));
        assertEquals(1, ring.poll(n -> assertEquals(2, n.displacement())), "the outer poll consumed only one");
    }

    @Test
    void shouldHandTheHandlerOneReusedViewOfTheSlot() {
        final NotifyRing ring = ring(4);
        assertTrue(ring.offer(1, 1, 1, 0, 0, null));
        assertTrue(ring.offer(1, 2, 2, 0, 0, null));
        final List<Notification> views = new ArrayList<>();
        ring.drain(views::add, 2);
        assertSame(views.get(0), views.get(1));
        assertFalse(views.get(0).isDetached());
        assertTrue(views.get(0).copy().isDetached());
    }

    @Test
    void shouldReturnAtOnceFromAwaitNotEmptyWhenAnEntryIsPublished() {
        final NotifyRing ring = ring(4);
        assertTrue(ring.offer(1, 1, 1, 0, 0, null));
        ring.awaitNotEmpty(new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0), Liveness.NONE);
        assertEquals(1, ring.poll(n -> {
        }));
    }

    @Test
    void shouldTellWhetherTheHeadIsReady() {
        final NotifyRing ring = ring(4);
        assertFalse(ring.isHeadReady());
        assertTrue(ring.offer(1, 1, 1, 0, 0, null));
        assertTrue(ring.isHeadReady());
        assertEquals(1, ring.poll(n -> {
        }));
        assertFalse(ring.isHeadReady());
    }

    @Test
    void shouldWakeAThreadAwaitingTheRingWhenAnotherThreadCallsWakeWaiters() throws Exception {
        final MemorySegment segment = files.createRing("ring", 4);
        final NotifyRing ring = new NotifyRing(segment, RingFiles.RING_OFFSET, 4, 5);
        final long signal = RingFiles.RING_OFFSET + NotifyRingLayout.SIGNAL_OFFSET;
        final AtomicBoolean completed = new AtomicBoolean();
        final Thread waiter = new Thread(
            () -> ring.await(new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0), completed::get, Liveness.NONE));
        waiter.setDaemon(true);
        waiter.start();
        // The waiter announces itself in the signal word's sleeper count before it sleeps.
        while (Words.getIntVolatile(segment, signal + WaitWords.SLEEPERS_OFFSET) != 1) {
            Thread.onSpinWait();
        }

        completed.set(true);
        ring.wakeWaiters();

        waiter.join();
        assertEquals(1, Words.getIntVolatile(segment, signal), "wakeWaiters bumped the word its sleeper waits on");
        assertEquals(0, Words.getIntVolatile(segment, signal + WaitWords.SLEEPERS_OFFSET));
    }

    @Test
    void shouldEstimateSize() {
        final NotifyRing ring = ring(4);
        assertTrue(ring.isEmpty());
        assertEquals(0, ring.size());
        ring.offer(1, 1, 1, 0, 0, null);
        ring.offer(1, 1, 1, 0, 0, null);
        assertEquals(2, ring.size());
        assertFalse(ring.isEmpty());
        ring.poll(n -> {
        });
        assertEquals(1, ring.size());
    }

    @Test
    void shouldRejectInvalidOffersWithoutClaimingASlot() {
        final NotifyRing ring = ring(4);
        assertThrows(IllegalArgumentException.class, () -> ring.offer(-1, 0, 0, 0, 0, null));
        assertThrows(IllegalArgumentException.class, () -> ring.offer(0, -1, 0, 0, 0, null));
        assertThrows(IllegalArgumentException.class, () -> ring.offer(0, 0, 0, -5, 0, null));
        assertThrows(IllegalArgumentException.class, () -> ring.offer(0, 0, 0, 0, 0x0100_0000, null));
        assertThrows(IllegalArgumentException.class,
            () -> ring.offer(0, 0, 0, 0, 0, MemorySegment.ofArray(new byte[33])));
        assertEquals(0, ring.producerIndex());
    }

    @Test
    void shouldOpenOnlyAFormattedRingOfTheGivenCapacity() {
        final MemorySegment segment = files.createRing("ring", 8);
        assertEquals(8, new NotifyRing(segment, RingFiles.RING_OFFSET, 8, 0).capacity());
        final IllegalArgumentException wrongCapacity = assertThrows(IllegalArgumentException.class,
            () -> new NotifyRing(segment, RingFiles.RING_OFFSET, 4, 0));
        assertTrue(wrongCapacity.getMessage().contains("capacity 8"), wrongCapacity.getMessage());
        final MemorySegment raw = files.createRaw("raw", RingFiles.RING_OFFSET + NotifyRingLayout.lengthFor(8));
        final IllegalStateException unformatted = assertThrows(IllegalStateException.class,
            () -> new NotifyRing(raw, RingFiles.RING_OFFSET, 8, 0));
        assertTrue(unformatted.getMessage().contains("formatted"), unformatted.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new NotifyRing(segment, RingFiles.RING_OFFSET, 8, -2));
    }

    @Test
    void shouldRefuseOffersFromAnInstanceWithoutProducerId() {
        final MemorySegment segment = files.createRing("ring", 8);
        final NotifyRing consumerOnly = new NotifyRing(segment, RingFiles.RING_OFFSET, 8,
            ProducerLiveness.UNKNOWN_PRODUCER);
        assertThrows(IllegalStateException.class, () -> consumerOnly.offer(0, 0, 0, 0, 0, null));
        assertTrue(new NotifyRing(segment, RingFiles.RING_OFFSET, 8, 0).offer(0, 0, 0, 0, 0, null));
        assertEquals(1, consumerOnly.poll(n -> {
        }));
    }
}
