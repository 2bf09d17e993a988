package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class ControlLayoutTest {
    @Test
    void shouldPlaceJobFieldsAfterTheFileHeaderAndBeforeTheBarrier() {
        assertTrue(ControlLayout.RANKS_OFFSET >= FileHeader.LENGTH);
        assertTrue(ControlLayout.LAUNCHER_PID_OFFSET >= ControlLayout.RANKS_OFFSET + Integer.BYTES);
        assertTrue(ControlLayout.CREATED_MILLIS_OFFSET >= ControlLayout.LAUNCHER_PID_OFFSET + Long.BYTES);
        assertTrue(ControlLayout.CREATED_MILLIS_OFFSET + Long.BYTES <= ControlLayout.BARRIER_OFFSET);
        assertEquals(0, ControlLayout.LAUNCHER_PID_OFFSET % Long.BYTES);
        assertEquals(0, ControlLayout.CREATED_MILLIS_OFFSET % Long.BYTES);
    }

    @Test
    void shouldStartRankTableAfterTheBarrier() {
        assertEquals(0, ControlLayout.BARRIER_OFFSET % Align.PAD);
        assertEquals(ControlLayout.BARRIER_OFFSET + BarrierLayout.LENGTH, ControlLayout.RANK_TABLE_OFFSET);
        assertEquals(ControlLayout.RANK_TABLE_OFFSET, ControlLayout.rowOffset(0));
    }

    @Test
    void shouldPutEveryRowOnItsOwnPairOfCacheLines() {
        assertEquals(Align.PAD, ControlLayout.ROW_LENGTH);
        for (int rank = 0; rank < 10; rank++) {
            assertEquals(ControlLayout.RANK_TABLE_OFFSET + rank * (long)Align.PAD, ControlLayout.rowOffset(rank));
            assertEquals(0, ControlLayout.rowOffset(rank) % Align.PAD);
        }
        assertTrue(ControlLayout.ROW_STATE_OFFSET + WaitWords.LENGTH <= ControlLayout.ROW_LENGTH,
            "the state wait word and its sleeper count fit in the row");
        assertTrue(ControlLayout.ROW_PID_OFFSET + Long.BYTES <= ControlLayout.ROW_START_MILLIS_OFFSET);
        assertTrue(ControlLayout.ROW_START_MILLIS_OFFSET + Long.BYTES <= ControlLayout.ROW_STATE_OFFSET);
    }

    @Test
    void shouldPlaceDisjointScratchSlotsAfterTheRankTable() {
        final int ranks = 5;
        assertEquals(ControlLayout.rowOffset(ranks), ControlLayout.scratchOffset(ranks, 0));
        for (int rank = 1; rank < ranks; rank++) {
            assertEquals(ControlLayout.SCRATCH_SLOT_LENGTH,
                ControlLayout.scratchOffset(ranks, rank) - ControlLayout.scratchOffset(ranks, rank - 1));
        }
        assertEquals(0, ControlLayout.SCRATCH_SLOT_LENGTH % Align.PAD);
        assertEquals(ControlLayout.scratchOffset(ranks, ranks - 1) + ControlLayout.SCRATCH_SLOT_LENGTH,
            ControlLayout.fileLength(ranks));
    }

    @Test
    void shouldComputeFileLengthOfTheLargestJobWithoutOverflow() {
        final long expected = ControlLayout.RANK_TABLE_OFFSET
            + (long)ControlLayout.MAX_RANKS * (ControlLayout.ROW_LENGTH + ControlLayout.SCRATCH_SLOT_LENGTH);

        assertEquals(expected, ControlLayout.fileLength(ControlLayout.MAX_RANKS));
    }

    @Test
    void shouldAcceptJobSizesFromOneToMax() {
        assertDoesNotThrow(() -> ControlLayout.checkRanks(1));
        assertDoesNotThrow(() -> ControlLayout.checkRanks(ControlLayout.MAX_RANKS));
    }

    @Test
    void shouldRejectJobSizesOutsideOneToMax() {
        for (final int ranks : new int[] {0, -1, ControlLayout.MAX_RANKS + 1, Integer.MIN_VALUE}) {
            final IllegalArgumentException thrown =
                assertThrows(IllegalArgumentException.class, () -> ControlLayout.checkRanks(ranks));
            assertTrue(thrown.getMessage().contains("job size " + ranks), thrown.getMessage());
        }
    }

    @Test
    void shouldSpellItsMagicInAscii() {
        final byte[] bytes = ByteBuffer.allocate(Long.BYTES).putLong(ControlLayout.MAGIC).array();

        assertEquals("RMA4JCTL", new String(bytes, StandardCharsets.US_ASCII));
    }
}
