package org.rma4j.internal;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.rma4j.shm.Align;
import org.rma4j.shm.DisseminationBarrierLayout;
import org.rma4j.shm.FileHeader;
import org.rma4j.shm.ShmFormatException;
import org.rma4j.shm.Words;

/**
 * The offsets of {@link CommunicatorLayout} keep different writers apart, and an opener's check finds
 * every field that differs from what the creating exchange said.
 */
class CommunicatorLayoutTest {
    private static final Path PATH = Path.of("/dev/shm/comm-test");

    @Test
    void shouldSizeHalvesWithinBoundsAndKeepEachMembersSlotOnItsOwnLinePairs() {
        for (final int members : new int[] {1, 2, 3, 6, 17, 100, 4096}) {
            final int half = CommunicatorLayout.halfLength(members);
            assertTrue(half >= CommunicatorLayout.MIN_HALF_LENGTH && half <= CommunicatorLayout.MAX_HALF_LENGTH);
            assertEquals(0, half % Align.PAD, "halves are line-pair multiples");
            assertEquals(0, CommunicatorLayout.slotsOffset(members) % Align.PAD);
            assertEquals(0, CommunicatorLayout.slotLength(half) % Align.PAD);
            assertTrue(CommunicatorLayout.slotsOffset(members) >= CommunicatorLayout.MEMBER_TABLE_OFFSET
                + (long)members * Integer.BYTES);
            assertEquals(0, CommunicatorLayout.chunkLength(half) % Long.BYTES, "chunks never split an element");
            final long last = CommunicatorLayout.halfOffset(members, half, members - 1, 1) + half;
            assertEquals(CommunicatorLayout.barrierOffset(members), last, "the barrier follows the last slot");
            assertEquals(0, CommunicatorLayout.barrierOffset(members) % Align.PAD);
            assertEquals(CommunicatorLayout.fileLength(members), last + DisseminationBarrierLayout.length(members));
        }
        assertTrue(CommunicatorLayout.MEMBER_TABLE_OFFSET >= FileHeader.LENGTH + 5 * Integer.BYTES);
        assertEquals(0, CommunicatorLayout.SLOT_RECORD_OFFSET % Align.PAD);
        assertEquals(0, CommunicatorLayout.SLOT_EXCHANGE_OFFSET % Align.PAD);
        assertTrue(CommRecordLayout.RECORD_LENGTH <= CommunicatorLayout.RECORD_LENGTH);
        assertTrue(CreationRecordLayout.RECORD_LENGTH <= CommunicatorLayout.RECORD_LENGTH);
        assertTrue(CommunicatorLayout.HALF_AGREEMENT_OFFSET + Long.BYTES <= CommunicatorLayout.HALF_CHUNK_OFFSET);
    }

    @Test
    void shouldAcceptAFileAsWrittenAndNameEachFieldThatDiffers() {
        final int[] members = {4, 1, 7};
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment file = arena.allocate(CommunicatorLayout.fileLength(members.length), 8);
            CommunicatorLayout.write(file, members, 4, 9);
            FileHeader.publish(file, CommunicatorLayout.MAGIC, CommunicatorLayout.VERSION);
            assertDoesNotThrow(() -> CommunicatorLayout.check(file, PATH, members, 4, 9));

            assertTrue(message(file, new int[] {4, 7, 1}, 4, 9).contains("job rank of member 1"));
            assertTrue(message(file, members, 1, 9).contains("creator"));
            assertTrue(message(file, members, 4, 8).contains("creator number"));
            assertTrue(message(file, new int[] {4, 1}, 4, 9).contains("members"));
            Words.putInt(file, CommunicatorLayout.HALF_LENGTH_FIELD_OFFSET, 64);
            assertTrue(message(file, members, 4, 9).contains("half length"));
        }
    }

    private static String message(final MemorySegment file, final int[] members, final int creator, final int number) {
        return assertThrows(ShmFormatException.class,
            () -> CommunicatorLayout.check(file, PATH, members, creator, number)).getMessage();
    }
}
