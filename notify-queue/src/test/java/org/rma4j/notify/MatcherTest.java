package org.rma4j.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rma4j.notify.Matcher.ANY_SOURCE;
import static org.rma4j.notify.Matcher.ANY_TAG;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MatcherTest {
    private final Matcher matcher = new Matcher();
    private long arrivals;
    private LaneFiles files;

    @BeforeEach
    void setUp() throws Exception {
        files = new LaneFiles();
    }

    @AfterEach
    void tearDown() throws Exception {
        files.close();
    }

    /** Adds a notification whose displacement is its arrival number. */
    private long add(final int source, final int tag) {
        final long arrival = arrivals++;
        matcher.add(Notification.of(source, tag, arrival, 0, 0, null));
        return arrival;
    }

    private long take(final int source, final int tag) {
        return matcher.takeOldest(source, tag)
            .orElseThrow(() -> new AssertionError("nothing matched (" + source + ", " + tag + ")")).displacement();
    }

    @Test
    void shouldMatchAnExactPairInArrivalOrder() {
        final long first = add(1, 5);
        add(2, 5);
        final long second = add(1, 5);
        add(1, 6);
        final long third = add(1, 5);

        assertEquals(first, take(1, 5));
        assertEquals(second, take(1, 5));
        assertEquals(third, take(1, 5));
        assertEquals(Optional.empty(), matcher.takeOldest(1, 5));
        assertEquals(2, matcher.size());
    }

    @Test
    void shouldMatchWildcardsToTheOldestArrivalThatFits() {
        final long a = add(1, 5);
        final long b = add(2, 6);
        final long c = add(3, 5);
        final long d = add(2, 7);

        assertEquals(b, take(2, ANY_TAG), "oldest of source 2");
        assertEquals(a, take(ANY_SOURCE, 5), "oldest with tag 5");
        assertEquals(c, take(ANY_SOURCE, ANY_TAG), "oldest of all");
        assertEquals(d, take(ANY_SOURCE, ANY_TAG));
        assertTrue(matcher.isEmpty());
    }

    @Test
    void shouldForgetANotificationTakenThroughOneLaneInEveryOtherLane() {
        final long a = add(0, 0);
        final long b = add(1, 0);
        final long c = add(0, 1);

        assertEquals(b, take(1, 0));
        assertEquals(a, take(ANY_SOURCE, 0));
        assertEquals(Optional.empty(), matcher.takeOldest(ANY_SOURCE, 0));
        assertEquals(c, take(ANY_SOURCE, ANY_TAG));
        assertEquals(Optional.empty(), matcher.takeOldest(ANY_SOURCE, ANY_TAG));
        assertEquals(Optional.empty(), matcher.takeOldest(0, ANY_TAG));
    }

    @Test
    void shouldCountMatchesForEveryKindOfPattern() {
        add(1, 5);
        add(1, 6);
        add(2, 5);
        add(1, 5);

        assertEquals(2, matcher.count(1, 5));
        assertEquals(3, matcher.count(1, ANY_TAG));
        assertEquals(3, matcher.count(ANY_SOURCE, 5));
        assertEquals(4, matcher.count(ANY_SOURCE, ANY_TAG));
        assertEquals(0, matcher.count(9, 9));
        assertEquals(0, matcher.count(9, ANY_TAG));

        take(ANY_SOURCE, 5);
        assertEquals(1, matcher.count(1, 5));
        assertEquals(2, matcher.count(1, ANY_TAG));
        assertEquals(2, matcher.count(ANY_SOURCE, 5));
        assertEquals(3, matcher.size());
    }

    @Test
    void shouldPeekWithoutTaking() {
        final long a = add(4, 4);
        assertEquals(a, matcher.peekOldest(ANY_SOURCE, 4).orElseThrow().displacement());
        assertEquals(1, matcher.count(4, 4));
        assertEquals(a, take(4, 4));
        assertEquals(Optional.empty(), matcher.peekOldest(4, ANY_TAG));
    }

    @Test
    void shouldFindExactPairsAmongManyOthersWithoutScanningThem() {
        final int others = 100_000;
        final List<Long> wanted = new ArrayList<>();
        long firstOfFive = -1;
        for (int i = 0; i < others; i++) {
            final long arrival = add(i % 100, 1000 + i % 997);
            if (i == 5) {
                firstOfFive = arrival;
            }
            if (i % 10_000 == 0) {
                wanted.add(add(7, 3));
            }
        }
        assertEquals(wanted.size(), matcher.count(7, 3));

        final long inspectedBefore = matcher.inspectedNodes();
        for (final long arrival : wanted) {
            assertEquals(arrival, take(7, 3));
        }
        assertEquals(Optional.empty(), matcher.takeOldest(7, 3));
        assertTrue(matcher.inspectedNodes() - inspectedBefore <= 2L * (wanted.size() + 1),
            (matcher.inspectedNodes() - inspectedBefore) + " nodes inspected for " + wanted.size() + " exact takes");
        assertEquals(others, matcher.size());
        assertEquals(firstOfFive, take(5, 1005));
    }

    @Test
    void shouldAgreeWithALinearScanOverRandomAddsAndTakes() {
        final Random random = new Random(42);
        final List<long[]> reference = new ArrayList<>();
        for (int step = 0; step < 50_000; step++) {
            if (random.nextInt(100) < 52) {
                final int source = random.nextInt(6);
                final int tag = random.nextInt(6);
                reference.add(new long[] {add(source, tag), source, tag});
                continue;
            }
            final int source = random.nextInt(7) - 1;
            final int tag = random.nextInt(7) - 1;
            final Optional<Notification> got = matcher.takeOldest(source, tag);
            final Optional<Long> expected = takeByScan(reference, source, tag);
            assertEquals(expected, got.map(Notification::displacement), "step " + step);
            assertEquals(countByScan(reference, source, tag), matcher.count(source, tag), "count at step " + step);
            assertEquals(reference.size(), matcher.size());
        }
    }

    private static Optional<Long> takeByScan(final List<long[]> queue, final int source, final int tag) {
        final Iterator<long[]> it = queue.iterator();
        while (it.hasNext()) {
            final long[] entry = it.next();
            if ((source == ANY_SOURCE || entry[1] == source) && (tag == ANY_TAG || entry[2] == tag)) {
                it.remove();
                return Optional.of(entry[0]);
            }
        }
        return Optional.empty();
    }

    private static int countByScan(final List<long[]> queue, final int source, final int tag) {
        return (int)queue.stream()
            .filter(e -> (source == ANY_SOURCE || e[1] == source) && (tag == ANY_TAG || e[2] == tag)).count();
    }

    @Test
    void shouldRejectPatternsBelowTheWildcards() {
        assertThrows(IllegalArgumentException.class, () -> matcher.takeOldest(-2, 0));
        assertThrows(IllegalArgumentException.class, () -> matcher.count(0, -2));
        assertThrows(IllegalArgumentException.class, () -> matcher.peekOldest(-5, -5));
    }

    @Test
    void shouldReturnEmptyWhenNothingIsQueued() {
        assertEquals(Optional.empty(), matcher.takeOldest(ANY_SOURCE, ANY_TAG));
        assertEquals(Optional.empty(), matcher.takeOldest(3, 3));
        assertEquals(0, matcher.size());
        assertTrue(matcher.isEmpty());
    }

    @Test
    void shouldCopyViewsOutOfTheLaneBeforeTheSlotIsReused() {
        final MemorySegment segment = files.createLanes("lanes", 1, 1);
        final NotifyLanes lanes = new NotifyLanes(segment, LaneFiles.LANES_OFFSET, 1, 1);
        final LaneProducer lane = new LaneProducer(segment, LaneFiles.LANES_OFFSET, 1, 1, 0);
        assertTrue(lane.offer(1, 1, 100, 1, 0, MemorySegment.ofArray(new byte[] {42})));
        assertEquals(1, lanes.drain(matcher::add, 10));
        assertTrue(lane.offer(2, 2, 200, 1, 0, MemorySegment.ofArray(new byte[] {43})));
        assertEquals(1, lanes.drain(matcher::add, 10));

        final Notification first = matcher.takeOldest(1, ANY_TAG).orElseThrow();
        assertTrue(first.isDetached());
        assertEquals(100, first.displacement());
        assertEquals(42, first.inlinePayload().get(ValueLayout.JAVA_BYTE, 0));
        assertEquals(200, matcher.takeOldest(ANY_SOURCE, 2).orElseThrow().displacement());
        assertFalse(matcher.takeOldest(ANY_SOURCE, ANY_TAG).isPresent());
    }
}
