package org.rma4j.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;
import org.rma4j.shm.Membarrier;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.Liveness;

/**
 * Every test in both poll modes: producers ringing doorbells that the consumer scans, and a consumer polling
 * every lane's next stamp.
 */
@ParameterizedClass(name = "poll mode {0}")
@ValueSource(ints = {NotifyLanesLayout.POLL_SUMMARY, NotifyLanesLayout.POLL_STAMPS})
class NotifyLanesTest {
    @Parameter
    int pollMode;

    private LaneFiles files;

    @BeforeEach
    void setUp() throws Exception {
        files = new LaneFiles();
    }

    @AfterEach
    void tearDown() throws Exception {
        files.close();
    }

    private NotifyLanes lanes(final int lanes, final int capacity) {
        return new NotifyLanes(files.createLanesPolled("lanes", lanes, capacity, pollMode), LaneFiles.LANES_OFFSET,
            lanes, capacity);
    }

    private LaneProducer producer(final int lanes, final int capacity, final int lane) {
        return new LaneProducer(files.open("lanes"), LaneFiles.LANES_OFFSET, lanes, capacity, lane);
    }

    private static List<Integer> drainTags(final NotifyLanes consumer, final int limit) {
        final List<Integer> tags = new ArrayList<>();
        consumer.drain(n -> tags.add(n.tag()), limit);
        return tags;
    }

    @Test
    void shouldCarryEveryFieldAndInlinePayloadsOfEverySize() {
        final NotifyLanes consumer = lanes(2, 64);
        final LaneProducer producer = producer(2, 64, 1);
        for (int size = 0; size <= NotifyLanesLayout.INLINE_CAPACITY; size++) {
            final MemorySegment payload = MemorySegment.ofArray(new byte[size]);
            for (int i = 0; i < size; i++) {
                payload.set(ValueLayout.JAVA_BYTE, i, (byte)(size * 3 + i));
            }
            assertTrue(producer.offer(1, 100 + size, 1L << 40 | size, 4096 + size, size << 4, payload));
            final int expectedSize = size;
            assertEquals(1, consumer.poll(n -> {
                assertEquals(1, n.source());
                assertEquals(100 + expectedSize, n.tag());
                assertEquals(1L << 40 | expectedSize, n.displacement());
                assertEquals(4096 + expectedSize, n.length());
                assertEquals(expectedSize << 4, n.flags());
                assertEquals(expectedSize, n.inlineLength());
                for (int i = 0; i < expectedSize; i++) {
                    assertEquals((byte)(expectedSize * 3 + i), n.inlinePayload().get(ValueLayout.JAVA_BYTE, i));
                }
            }));
        }
        assertEquals(0, consumer.poll(n -> {
        }));
    }

    @Test
    void shouldRefuseOffersIntoAFullLaneWithoutWritingAndAcceptAgainAfterADrain() {
        final NotifyLanes consumer = lanes(2, 4);
        final LaneProducer producer = producer(2, 4, 0);
        final LaneProducer other = producer(2, 4, 1);
        for (int i = 0; i < 4; i++) {
            assertTrue(producer.offer(0, i, 0, 0, 0, null));
        }
        assertFalse(producer.offer(0, 99, 0, 0, 0, null));
        assertTrue(other.offer(1, 50, 0, 0, 0, null), "a full lane does not hold up another lane");
        assertEquals(5, consumer.size());
        assertEquals(List.of(0, 1, 2, 3, 50), drainTags(consumer, 10));
        assertTrue(producer.offer(0, 4, 0, 0, 0, null));
        assertEquals(List.of(4), drainTags(consumer, 10));
        assertTrue(consumer.isEmpty());
    }

    @Test
    void shouldKeepEachLaneFifoOverManyLapsAcrossTheDoorbellWrap() {
        final NotifyLanes consumer = lanes(3, 4);
        final LaneProducer[] producers = {producer(3, 4, 0), producer(3, 4, 1), producer(3, 4, 2)};
        final long[] next = new long[3];
        final long[] expected = new long[3];
        for (int round = 0; round < 40_000; round++) {
            final int lane = round % 3 == 2 ? (round / 3) % 3 : round % 3;
            while (!producers[lane].offer(lane, 0, next[lane], 0, 0, null)) {
                consumer.drain(n -> {
                    assertEquals(expected[n.source()]++, n.displacement(), "lane " + n.source());
                }, 3);
            }
            next[lane]++;
        }
        consumer.drain(n -> assertEquals(expected[n.source()]++, n.displacement()), Integer.MAX_VALUE);
        assertEquals(next[0], expected[0]);
        assertEquals(next[1], expected[1]);
        assertEquals(next[2], expected[2]);
        assertTrue(next[0] > 1000, "many laps of every lane");
    }

    @Test
    void shouldServeTheLastLaneFirstThenTheNextLanesInCyclicOrder() {
        final NotifyLanes consumer = lanes(4, 8);
        final LaneProducer a = producer(4, 8, 0);
        final LaneProducer b = producer(4, 8, 1);
        final LaneProducer d = producer(4, 8, 3);
        d.offer(3, 31, 0, 0, 0, null);
        b.offer(1, 11, 0, 0, 0, null);
        a.offer(0, 1, 0, 0, 0, null);
        a.offer(0, 2, 0, 0, 0, null);
        b.offer(1, 12, 0, 0, 0, null);
        assertEquals(List.of(1, 2, 11, 12, 31), drainTags(consumer, 100), "lane 0 (the cursor), then 1, then 3");
        a.offer(0, 3, 0, 0, 0, null);
        d.offer(3, 32, 0, 0, 0, null);
        assertEquals(List.of(32, 3), drainTags(consumer, 100), "from lane 3 on: lane 3 itself first, then 0");
    }

    @Test
    void shouldNotLetABusyLaneStarveTheOthers() {
        final NotifyLanes consumer = lanes(2, 4);
        final LaneProducer busy = producer(2, 4, 0);
        final LaneProducer quiet = producer(2, 4, 1);
        for (int i = 0; i < 4; i++) {
            busy.offer(0, i, 0, 0, 0, null);
        }
        quiet.offer(1, 100, 0, 0, 0, null);
        assertEquals(List.of(0, 1, 2), drainTags(consumer, 3));
        busy.offer(0, 4, 0, 0, 0, null);
        busy.offer(0, 5, 0, 0, 0, null);
        busy.offer(0, 6, 0, 0, 0, null);
        assertEquals(List.of(3, 100), drainTags(consumer, 2), "lane 0's turn ends after its capacity");
        assertEquals(List.of(4, 5, 6), drainTags(consumer, 100));
    }

    /**
     * Lanes of 1,024 entries past the 16-bit doorbells' wrap: 140,000 offers into two lanes, drained in bursts
     * that leave the lanes nearly full and nearly empty, each lane in its offer order.
     */
    @Test
    void shouldWrapTheDoorbellsOfLargeLanesInOrder() {
        final int capacity = 1024;
        final NotifyLanes consumer = lanes(2, capacity);
        final LaneProducer[] producers = {producer(2, capacity, 0), producer(2, capacity, 1)};
        final long[] next = new long[2];
        final long[] taken = new long[2];
        final int total = 70_000;
        while (next[0] < total || next[1] < total) {
            for (int lane = 0; lane < 2; lane++) {
                while (next[lane] < total && producers[lane].offer(lane, 0, next[lane], 0, 0, null)) {
                    next[lane]++;
                }
            }
            consumer.drain(n -> {
                assertEquals(taken[n.source()], n.displacement(), "order of lane " + n.source());
                taken[n.source()]++;
            }, (int)(next[0] % 3 == 0 ? 2 * capacity - 1 : capacity / 2 + 1));
        }
        while (consumer.drain(n -> {
            assertEquals(taken[n.source()], n.displacement(), "order of lane " + n.source());
            taken[n.source()]++;
        }, 100) > 0) {
            // the rest
        }
        assertEquals(total, taken[0]);
        assertEquals(total, taken[1]);
        assertTrue(consumer.isEmpty());
    }

    @Test
    void shouldFindEveryLaneOfAManyLineSummary() {
        final int count = 130; // five summary lines
        final NotifyLanes consumer = lanes(count, 1);
        final List<Integer> expected = new ArrayList<>();
        for (int lane = count - 1; lane >= 0; lane -= 3) {
            assertTrue(producer(count, 1, lane).offer(lane, lane, 0, 0, 0, null));
        }
        for (int lane = 0; lane < count; lane++) {
            if ((count - 1 - lane) % 3 == 0) {
                expected.add(lane);
            }
        }
        assertEquals(expected.size(), consumer.size());
        assertTrue(consumer.isHeadReady());
        assertEquals(expected, drainTags(consumer, 1000), "lanes in cyclic order from lane 1, lane 0 last");
        assertFalse(consumer.isHeadReady());
    }

    @Test
    void shouldConsumeAnEntryWhoseHandlerThrowsAndRefuseReentry() {
        final NotifyLanes consumer = lanes(1, 4);
        final LaneProducer producer = producer(1, 4, 0);
        producer.offer(0, 1, 0, 0, 0, null);
        producer.offer(0, 2, 0, 0, 0, null);
        final IllegalStateException thrown = assertThrows(IllegalStateException.class,
            () -> consumer.poll(n -> consumer.poll(m -> {
            })));
        assertTrue(thrown.getMessage().contains("not reentrant"), thrown.getMessage());
        assertEquals(1, consumer.head(0), "the entry whose handler threw is consumed");
        assertEquals(List.of(2), drainTags(consumer, 10));
    }

    @Test
    void shouldNeverDeliverAnEntryItsProducerDidNotPublish() {
        final NotifyLanes consumer = lanes(2, 4);
        final LaneProducer dying = producer(2, 4, 0);
        final LaneProducer living = producer(2, 4, 1);
        dying.offer(0, 1, 0, 0, 0, null);
        assertEquals(1, dying.writeWithoutPublishing(0, 2, 0, 0, 0));
        living.offer(1, 11, 0, 0, 0, null);
        living.offer(1, 12, 0, 0, 0, null);
        assertEquals(List.of(1, 11, 12), drainTags(consumer, 100));
        assertFalse(consumer.isHeadReady());
        assertTrue(consumer.isEmpty());
        living.offer(1, 13, 0, 0, 0, null);
        assertEquals(List.of(13), drainTags(consumer, 100), "the dead lane holds up nobody");
    }

    @Test
    void shouldResumeALaneFromItsStampsInANewProducerInstance() {
        final NotifyLanes consumer = lanes(2, 4);
        final LaneProducer first = producer(2, 4, 1);
        for (int i = 0; i < 6; i++) {
            assertTrue(first.offer(1, i, 0, 0, 0, null));
            consumer.poll(n -> {
            });
        }
        final LaneProducer second = producer(2, 4, 1);
        assertEquals(6, second.published());
        assertTrue(second.offer(1, 6, 0, 0, 0, null));
        assertEquals(List.of(6), drainTags(consumer, 10));
        assertEquals(7, consumer.head(1));
    }

    @Test
    void shouldChooseTheFenceModeFromTheKernel() {
        final NotifyLanes consumer = lanes(1, 2);
        final LaneProducer producer = producer(1, 2, 0);
        assertEquals(Membarrier.isGlobalExpeditedSupported(), consumer.isAsymmetric());
        assertEquals(!Membarrier.isGlobalExpeditedSupported(), producer.usesFullFence());
    }

    @Test
    void shouldWorkInSymmetricModeToo() {
        final MemorySegment segment = files.createRaw("sym",
            LaneFiles.LANES_OFFSET + NotifyLanesLayout.lengthFor(2, 2));
        NotifyLanes.format(segment, LaneFiles.LANES_OFFSET, 2, 2, NotifyLanesLayout.FENCE_SYMMETRIC, pollMode);
        final NotifyLanes consumer = new NotifyLanes(segment, LaneFiles.LANES_OFFSET, 2, 2);
        final LaneProducer producer = new LaneProducer(segment, LaneFiles.LANES_OFFSET, 2, 2, 1);
        assertFalse(consumer.isAsymmetric());
        assertTrue(producer.usesFullFence());
        producer.offer(1, 7, 0, 0, 0, null);
        consumer.awaitNotEmpty(WaitStrategy.busySpin(), Liveness.NONE);
        assertEquals(List.of(7), drainTags(consumer, 10));
    }

    @Test
    void shouldRejectUnformattedOrMismatchedLanesAndBadArguments() {
        final MemorySegment raw = files.createRaw("raw", LaneFiles.LANES_OFFSET + NotifyLanesLayout.lengthFor(2, 4));
        final IllegalStateException none = assertThrows(IllegalStateException.class,
            () -> new NotifyLanes(raw, LaneFiles.LANES_OFFSET, 2, 4));
        assertTrue(none.getMessage().contains("no notification lanes"), none.getMessage());
        lanes(2, 4);
        final IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
            () -> new NotifyLanes(files.open("lanes"), LaneFiles.LANES_OFFSET, 1, 4));
        assertTrue(other.getMessage().contains("are 2 of 4 entries, not 1 of 4"), other.getMessage());
        assertThrows(IllegalArgumentException.class, () -> producer(2, 4, 2));
        final LaneProducer producer = producer(2, 4, 0);
        assertThrows(IllegalArgumentException.class, () -> producer.offer(-1, 0, 0, 0, 0, null));
        assertThrows(IllegalArgumentException.class, () -> producer.offer(0, 0, 0, 0, 1 << 24, null));
        assertThrows(IllegalArgumentException.class,
            () -> producer.offer(0, 0, 0, 0, 0, MemorySegment.ofArray(new byte[33])));
        assertThrows(IllegalArgumentException.class, () -> NotifyLanes.format(raw, LaneFiles.LANES_OFFSET, 2, 4, 7));
        final IllegalArgumentException poll = assertThrows(IllegalArgumentException.class,
            () -> NotifyLanes.format(raw, LaneFiles.LANES_OFFSET, 2, 4, NotifyLanesLayout.FENCE_SYMMETRIC, 9));
        assertTrue(poll.getMessage().contains("poll mode 9"), poll.getMessage());
        assertEquals(0, producer.published(), "nothing was written by a refused offer");
    }

    @Test
    void shouldRingDoorbellsOnlyWhenTheConsumerScansTheSummary() {
        final NotifyLanes consumer = lanes(3, 4);
        final MemorySegment producerSide = files.open("lanes");
        final LaneProducer producer = producer(3, 4, 2);
        assertEquals(pollMode == NotifyLanesLayout.POLL_STAMPS, consumer.isStampPolled());

        assertTrue(producer.offer(2, 5, 0, 0, 0, null));
        assertTrue(producer.offer(2, 6, 0, 0, 0, null));

        final short doorbell = producerSide.get(ValueLayout.JAVA_SHORT.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN),
            LaneFiles.LANES_OFFSET + NotifyLanesLayout.doorbellOffset(2));
        assertEquals(pollMode == NotifyLanesLayout.POLL_SUMMARY ? 2 : 0, doorbell);
        assertEquals(2, consumer.size());
        assertTrue(consumer.isHeadReady(), "found on a lane other than the cursor's");
        assertEquals(List.of(5, 6), drainTags(consumer, 10));
        assertEquals(0, consumer.size());
        assertTrue(consumer.isEmpty());
    }

    @Test
    void shouldHandTheHandlerAReusedViewThatCopiesOut() {
        final NotifyLanes consumer = lanes(1, 2);
        final LaneProducer producer = producer(1, 2, 0);
        producer.offer(0, 1, 0, 0, 0, null);
        producer.offer(0, 2, 0, 0, 0, null);
        final List<Notification> views = new ArrayList<>();
        final List<Notification> copies = new ArrayList<>();
        consumer.drain(n -> {
            views.add(n);
            copies.add(n.copy());
        }, 2);
        assertSame(views.get(0), views.get(1));
        assertEquals(1, copies.get(0).tag());
        assertEquals(2, copies.get(1).tag());
    }
    @Test
    void shouldTakeEntriesByTheirStampsWhileTheirDoorbellLags() {
        final MemorySegment segment = files.createLanesPolled("lanes", 2, 4, NotifyLanesLayout.POLL_SUMMARY);
        final NotifyLanes consumer = new NotifyLanes(segment, LaneFiles.LANES_OFFSET, 2, 4);
        final LaneProducer cursorLane = producer(2, 4, 0);
        final LaneProducer otherLane = producer(2, 4, 1);
        final long doorbell0 = LaneFiles.LANES_OFFSET + NotifyLanesLayout.SUMMARY_OFFSET;
        cursorLane.offer(0, 1, 0, 0, 0, null);
        cursorLane.offer(0, 2, 0, 0, 0, null);
        otherLane.offer(1, 11, 0, 0, 0, null);
        final ValueLayout.OfShort doorbell = ValueLayout.JAVA_SHORT.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);
        segment.set(doorbell, doorbell0, (short)0); // as if lane 0's doorbell stores were not visible yet
        segment.set(doorbell, doorbell0 + NotifyLanesLayout.DOORBELL_BYTES, (short)0);

        assertEquals(List.of(1, 2), drainTags(consumer, 10), "the cursor lane's entries, by their stamps");
        assertFalse(consumer.isHeadReady(), "a lagging doorbell shows nothing pending; lane 1 not rung yet");
        segment.set(doorbell, doorbell0, (short)2);
        segment.set(doorbell, doorbell0 + NotifyLanesLayout.DOORBELL_BYTES, (short)1);
        assertEquals(List.of(11), drainTags(consumer, 10));
        assertTrue(consumer.isEmpty());
    }
}
