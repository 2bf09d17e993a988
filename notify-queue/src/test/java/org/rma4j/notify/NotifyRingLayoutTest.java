package org.rma4j.notify;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rma4j.shm.Align;
import org.rma4j.shm.WaitWords;

class NotifyRingLayoutTest {
    @Test
    void shouldGiveEachHeaderWordItsOwnPaddedRegion() {
        final int[] words = {NotifyRingLayout.PRODUCER_INDEX_OFFSET, NotifyRingLayout.CONSUMER_INDEX_OFFSET,
            NotifyRingLayout.SIGNAL_OFFSET, NotifyRingLayout.CAPACITY_OFFSET};
        for (int i = 0; i < words.length; i++) {
            assertEquals(0, words[i] % Align.PAD, "word " + i + " starts a 128-byte region");
            if (i > 0) {
                assertTrue(words[i] - words[i - 1] >= Align.PAD, "word " + i + " is 128 bytes from the previous");
            }
        }
        assertTrue(NotifyRingLayout.SIGNAL_OFFSET + WaitWords.LENGTH <= NotifyRingLayout.CAPACITY_OFFSET);
        assertTrue(NotifyRingLayout.CAPACITY_OFFSET + Align.PAD <= NotifyRingLayout.HEADER_LENGTH);
        assertEquals(0, NotifyRingLayout.HEADER_LENGTH % Align.PAD);
    }

    @Test
    void shouldPackTheEntryFieldsNaturallyAlignedIntoOneCacheLine() {
        assertEquals(Align.CACHE_LINE, NotifyRingLayout.ENTRY_LENGTH);
        assertEquals(0, NotifyRingLayout.SEQUENCE_OFFSET);
        assertEquals(0, NotifyRingLayout.SEQUENCE_OFFSET % Long.BYTES);
        assertEquals(0, NotifyRingLayout.DISPLACEMENT_OFFSET % Long.BYTES);
        assertEquals(NotifyRingLayout.SEQUENCE_OFFSET + Long.BYTES, NotifyRingLayout.SOURCE_OFFSET);
        assertEquals(NotifyRingLayout.SOURCE_OFFSET + Integer.BYTES, NotifyRingLayout.TAG_OFFSET);
        assertEquals(NotifyRingLayout.TAG_OFFSET + Integer.BYTES, NotifyRingLayout.DISPLACEMENT_OFFSET);
        assertEquals(NotifyRingLayout.DISPLACEMENT_OFFSET + Long.BYTES, NotifyRingLayout.LENGTH_OFFSET);
        assertEquals(NotifyRingLayout.LENGTH_OFFSET + Integer.BYTES, NotifyRingLayout.FLAGS_OFFSET);
        assertEquals(NotifyRingLayout.FLAGS_OFFSET + Integer.BYTES, NotifyRingLayout.INLINE_OFFSET);
        assertEquals(32, NotifyRingLayout.INLINE_CAPACITY);
        assertEquals(NotifyRingLayout.ENTRY_LENGTH, NotifyRingLayout.INLINE_OFFSET + NotifyRingLayout.INLINE_CAPACITY);
    }

    @Test
    void shouldKeepTheInlineLengthOutOfTheCallersFlagBits() {
        assertEquals(0, NotifyRingLayout.USER_FLAGS_MASK >>> NotifyRingLayout.INLINE_LENGTH_SHIFT);
        final int shifted = NotifyRingLayout.INLINE_CAPACITY << NotifyRingLayout.INLINE_LENGTH_SHIFT;
        assertEquals(NotifyRingLayout.INLINE_CAPACITY, shifted >>> NotifyRingLayout.INLINE_LENGTH_SHIFT);
        assertEquals(0, shifted & NotifyRingLayout.USER_FLAGS_MASK);
    }

    @Test
    void shouldPlaceEntriesLineAlignedAfterTheHeaderAndWrapByCapacity() {
        assertEquals(NotifyRingLayout.HEADER_LENGTH, NotifyRingLayout.entryOffset(0, 8));
        assertEquals(NotifyRingLayout.HEADER_LENGTH + 7 * 64, NotifyRingLayout.entryOffset(7, 8));
        assertEquals(NotifyRingLayout.HEADER_LENGTH, NotifyRingLayout.entryOffset(8, 8));
        assertEquals(NotifyRingLayout.HEADER_LENGTH + 3 * 64, NotifyRingLayout.entryOffset(8L * 1_000_000 + 3, 8));
        for (int i = 0; i < 16; i++) {
            assertEquals(0, NotifyRingLayout.entryOffset(i, 16) % Align.CACHE_LINE);
        }
        assertEquals(NotifyRingLayout.HEADER_LENGTH + 64L * 64, NotifyRingLayout.lengthFor(64));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 3, 6, 100, 65, Integer.MIN_VALUE, 1 << 25})
    void shouldRejectCapacitiesThatAreNotPowersOfTwoInRange(final int capacity) {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> NotifyRingLayout.checkCapacity(capacity));
        assertTrue(e.getMessage().contains(Integer.toString(capacity)), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> NotifyRingLayout.lengthFor(capacity));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 64, 1024, 1 << 24})
    void shouldAcceptPowerOfTwoCapacities(final int capacity) {
        assertDoesNotThrow(() -> NotifyRingLayout.checkCapacity(capacity));
    }

    @Test
    void shouldRejectPlacementsThatAreMisalignedOrDoNotFit() {
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment segment = arena.allocate(4096, Align.PAD);
            assertDoesNotThrow(() -> NotifyRingLayout.checkPlacement(segment, 0, 8));
            assertDoesNotThrow(() -> NotifyRingLayout.checkPlacement(segment, 4096 - NotifyRingLayout.lengthFor(8), 8));
            assertThrows(IllegalArgumentException.class, () -> NotifyRingLayout.checkPlacement(segment, 64, 8));
            assertThrows(IllegalArgumentException.class, () -> NotifyRingLayout.checkPlacement(segment, -128, 8));
            final IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class,
                () -> NotifyRingLayout.checkPlacement(segment, 128, 64));
            assertTrue(tooBig.getMessage().contains("4096"), tooBig.getMessage());
            assertThrows(IllegalArgumentException.class,
                () -> NotifyRingLayout.checkPlacement(segment.asSlice(64), 0, 8), "start address not aligned");
        }
    }

    @Test
    void shouldMakeMarksSpecificToIndexAndDistinctFromPublishedValues() {
        final long index = 5L * 64 + 3;
        final long claim = NotifyRingLayout.claimMark(index, 42);
        final long skip = NotifyRingLayout.skipMark(index);
        assertTrue(NotifyRingLayout.isClaimMarkFor(claim, index));
        assertEquals(42, NotifyRingLayout.markedProducer(claim));
        assertTrue(NotifyRingLayout.isMarkFor(skip, index));
        assertFalse(NotifyRingLayout.isClaimMarkFor(skip, index));
        assertFalse(NotifyRingLayout.isMarkFor(claim, index - 64), "a mark of another lap");
        assertFalse(NotifyRingLayout.isMarkFor(claim, index + 64), "a mark of another lap");
        assertFalse(NotifyRingLayout.isMarkFor(NotifyRingLayout.publishedValue(index), index));
        assertFalse(NotifyRingLayout.isMarkFor(0, 0), "a never used slot");
        assertNotEquals(NotifyRingLayout.publishedValue(index), NotifyRingLayout.publishedValue(index + 64));
        assertEquals(Integer.MAX_VALUE,
            NotifyRingLayout.markedProducer(NotifyRingLayout.claimMark(index, NotifyRingLayout.MAX_PRODUCER_ID)));
    }

    @Test
    void shouldRejectInvalidEntryFieldsNamingTheValue() {
        assertDoesNotThrow(() -> NotifyRingLayout.checkEntry(0, 0, 0, NotifyRingLayout.USER_FLAGS_MASK, 32));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NotifyRingLayout.checkEntry(-3, 0, 0, 0, 0))
            .getMessage().contains("-3"));
        assertThrows(IllegalArgumentException.class, () -> NotifyRingLayout.checkEntry(0, -1, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> NotifyRingLayout.checkEntry(0, 0, -1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> NotifyRingLayout.checkEntry(0, 0, 0, 1 << 24, 0));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NotifyRingLayout.checkEntry(0, 0, 0, 0, 33))
            .getMessage().contains("33"));
        assertThrows(IllegalArgumentException.class, () -> NotifyRingLayout.checkProducerId(-1));
    }
}
