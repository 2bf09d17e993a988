package org.rma4j.notify;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;
import org.rma4j.shm.Align;
import org.rma4j.shm.WaitWords;

class NotifyLanesLayoutTest {
    @Test
    void shouldGiveEachPartyItsOwnRegionBeforeTheSummary() {
        assertEquals(0, NotifyLanesLayout.CONFIG_OFFSET);
        assertEquals(Align.PAD, NotifyLanesLayout.SIGNAL_OFFSET);
        assertEquals(2 * Align.PAD, NotifyLanesLayout.SUMMARY_OFFSET);
        assertTrue(WaitWords.LENGTH <= Align.PAD);
        assertEquals(Align.PAD, NotifyLanesLayout.LANE_ENTRIES_OFFSET, "a lane's head has its own region");
        assertEquals(Align.CACHE_LINE, NotifyLanesLayout.ENTRY_LENGTH);
    }

    @Test
    void shouldPackTheEntryFieldsNaturallyAlignedIntoOneCacheLine() {
        assertEquals(0, NotifyLanesLayout.STAMP_OFFSET);
        assertEquals(0, NotifyLanesLayout.DISPLACEMENT_OFFSET % Long.BYTES);
        assertEquals(NotifyLanesLayout.STAMP_OFFSET + Long.BYTES, NotifyLanesLayout.SOURCE_OFFSET);
        assertEquals(NotifyLanesLayout.SOURCE_OFFSET + Integer.BYTES, NotifyLanesLayout.TAG_OFFSET);
        assertEquals(NotifyLanesLayout.TAG_OFFSET + Integer.BYTES, NotifyLanesLayout.DISPLACEMENT_OFFSET);
        assertEquals(NotifyLanesLayout.DISPLACEMENT_OFFSET + Long.BYTES, NotifyLanesLayout.LENGTH_OFFSET);
        assertEquals(NotifyLanesLayout.LENGTH_OFFSET + Integer.BYTES, NotifyLanesLayout.FLAGS_OFFSET);
        assertEquals(NotifyLanesLayout.FLAGS_OFFSET + Integer.BYTES, NotifyLanesLayout.INLINE_OFFSET);
        assertEquals(32, NotifyLanesLayout.INLINE_CAPACITY);
        assertEquals(NotifyLanesLayout.ENTRY_LENGTH,
            NotifyLanesLayout.INLINE_OFFSET + NotifyLanesLayout.INLINE_CAPACITY);
    }

    @Test
    void shouldKeepTheInlineLengthOutOfTheCallersFlagBits() {
        assertEquals(0, NotifyLanesLayout.USER_FLAGS_MASK >>> NotifyLanesLayout.INLINE_LENGTH_SHIFT);
        final int shifted = NotifyLanesLayout.INLINE_CAPACITY << NotifyLanesLayout.INLINE_LENGTH_SHIFT;
        assertEquals(NotifyLanesLayout.INLINE_CAPACITY, shifted >>> NotifyLanesLayout.INLINE_LENGTH_SHIFT);
        assertEquals(0, shifted & NotifyLanesLayout.USER_FLAGS_MASK);
    }

    @Test
    void shouldStampEachLapWithItsOwnValue() {
        assertEquals(1, NotifyLanesLayout.stamp(0));
        assertNotEquals(NotifyLanesLayout.stamp(3), NotifyLanesLayout.stamp(3 + 64), "a later lap's stamp");
        assertNotEquals(0, NotifyLanesLayout.stamp(0), "a never used slot holds 0");
    }

    @Test
    void shouldRejectInvalidEntryFieldsNamingTheValue() {
        assertDoesNotThrow(() -> NotifyLanesLayout.checkEntry(0, 0, 0, NotifyLanesLayout.USER_FLAGS_MASK, 32));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NotifyLanesLayout.checkEntry(-3, 0, 0, 0, 0))
            .getMessage().contains("-3"));
        assertThrows(IllegalArgumentException.class, () -> NotifyLanesLayout.checkEntry(0, -1, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> NotifyLanesLayout.checkEntry(0, 0, -1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> NotifyLanesLayout.checkEntry(0, 0, 0, 1 << 24, 0));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NotifyLanesLayout.checkEntry(0, 0, 0, 0, 33))
            .getMessage().contains("33"));
    }

    @Test
    void shouldPollTheStampsOfFewLanesAndTheSummaryOfMany() {
        assertEquals(NotifyLanesLayout.POLL_STAMPS, NotifyLanesLayout.pollModeFor(1));
        assertEquals(NotifyLanesLayout.POLL_STAMPS,
            NotifyLanesLayout.pollModeFor(NotifyLanesLayout.STAMP_POLLED_LANES_MAX));
        assertEquals(NotifyLanesLayout.POLL_SUMMARY,
            NotifyLanesLayout.pollModeFor(NotifyLanesLayout.STAMP_POLLED_LANES_MAX + 1));
        assertEquals(NotifyLanesLayout.POLL_SUMMARY, NotifyLanesLayout.pollModeFor(NotifyLanesLayout.MAX_LANES));
        assertTrue(NotifyLanesLayout.POLL_MODE_OFFSET + Integer.BYTES <= NotifyLanesLayout.SIGNAL_OFFSET,
            "the poll mode is part of the configuration region");
    }

    @Test
    void shouldPutThirtyTwoDoorbellsInOneSummaryLine() {
        assertEquals(32, NotifyLanesLayout.LANES_PER_SUMMARY_LINE);
        assertEquals(Align.PAD, NotifyLanesLayout.summaryLength(1));
        assertEquals(Align.PAD, NotifyLanesLayout.summaryLength(32));
        assertEquals(Align.PAD, NotifyLanesLayout.summaryLength(64), "two lines, still one 128-byte region");
        assertEquals(2 * Align.PAD, NotifyLanesLayout.summaryLength(65));
        assertEquals(NotifyLanesLayout.SUMMARY_OFFSET + Align.PAD, NotifyLanesLayout.lanesOffset(64));
        assertEquals(NotifyLanesLayout.SUMMARY_OFFSET + 2 * 31, NotifyLanesLayout.doorbellOffset(31));
    }

    @Test
    void shouldSizeLanesAndPlaceThemBackToBack() {
        assertEquals(Align.PAD + 32 * 64, NotifyLanesLayout.laneLength(32));
        assertEquals(3 * Align.PAD + 2 * (Align.PAD + 32 * 64L), NotifyLanesLayout.lengthFor(2, 32));
        assertEquals(4_736, NotifyLanesLayout.lengthFor(2, 32));
        assertEquals(17_792, NotifyLanesLayout.lengthFor(8, 32));
        assertEquals(139_648, NotifyLanesLayout.lengthFor(64, 32));
        assertEquals(NotifyLanesLayout.lanesOffset(8) + 3 * NotifyLanesLayout.laneLength(16),
            NotifyLanesLayout.laneOffset(8, 16, 3));
        assertEquals(Align.PAD + 5 * 64, NotifyLanesLayout.entryOffset(13, 8));
        assertEquals(0, NotifyLanesLayout.lanesOffset(8) % Align.PAD);
        assertEquals(0, NotifyLanesLayout.laneLength(1) % Align.CACHE_LINE);
    }

    @Test
    void shouldCountPendingEntriesModulo65536AcrossTheWrap() {
        for (long head = 65_536 - 20_000; head < 65_536 + 20_000; head += 997) {
            for (int published = 0; published <= NotifyLanesLayout.MAX_LANE_CAPACITY; published += 7) {
                final int doorbell = Short.toUnsignedInt(NotifyLanesLayout.doorbell(head + published));
                assertEquals(published, NotifyLanesLayout.pending(doorbell, head), "head " + head);
            }
        }
    }

    @Test
    void shouldKeepPendingCountsApartFromDoorbellLags() {
        final int capacity = NotifyLanesLayout.MAX_LANE_CAPACITY;
        for (long head = 0; head < 70_000; head += 1999) {
            for (int lag = 1; lag <= capacity; lag += 3) {
                final int doorbell = Short.toUnsignedInt(NotifyLanesLayout.doorbell(head - lag));
                assertTrue(NotifyLanesLayout.pending(doorbell, head) > capacity, "lag " + lag + " at head " + head);
            }
        }
    }

    @Test
    void shouldRejectBadDimensions() {
        for (final int capacity : new int[] {0, 3, 1 << 15, 100, -1}) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NotifyLanesLayout.checkLaneCapacity(capacity));
            assertTrue(e.getMessage().contains("lane capacity " + capacity), e.getMessage());
        }
        NotifyLanesLayout.checkLaneCapacity(1 << 14);
        NotifyLanesLayout.checkLaneCapacity(64);
        NotifyLanesLayout.checkLaneCapacity(1);
        assertThrows(IllegalArgumentException.class, () -> NotifyLanesLayout.checkLanes(0));
        assertThrows(IllegalArgumentException.class,
            () -> NotifyLanesLayout.checkLanes(NotifyLanesLayout.MAX_LANES + 1));
        assertThrows(IllegalArgumentException.class, () -> NotifyLanesLayout.checkLane(4, 4));
        assertThrows(IllegalArgumentException.class, () -> NotifyLanesLayout.checkLane(4, -1));
    }

    @Test
    void shouldRejectPlacementsThatDoNotFitOrAreMisaligned() {
        try (Arena arena = Arena.ofConfined()) {
            final long length = NotifyLanesLayout.lengthFor(4, 8);
            final MemorySegment segment = arena.allocate(length + Align.PAD, Align.PAD);
            NotifyLanesLayout.checkPlacement(segment, 0, 4, 8);
            NotifyLanesLayout.checkPlacement(segment, Align.PAD, 4, 8);
            final IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class,
                () -> NotifyLanesLayout.checkPlacement(segment, 2 * Align.PAD, 4, 8));
            assertTrue(tooBig.getMessage().contains("exceed the segment size"), tooBig.getMessage());
            final IllegalArgumentException odd = assertThrows(IllegalArgumentException.class,
                () -> NotifyLanesLayout.checkPlacement(segment, 64, 4, 8));
            assertTrue(odd.getMessage().contains("multiple of " + Align.PAD), odd.getMessage());
            assertThrows(IllegalArgumentException.class,
                () -> NotifyLanesLayout.checkPlacement(segment.asSlice(64), 0, 1, 1));
        }
    }
}
