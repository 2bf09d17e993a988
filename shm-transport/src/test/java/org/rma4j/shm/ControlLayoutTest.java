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
    void shouldPlaceJobFieldsAfterTheFileHeaderAndBeforeTheRankTable() {
        assertTrue(ControlLayout.RANKS_OFFSET >= FileHeader.LENGTH);
        assertTrue(ControlLayout.LAUNCHER_PID_OFFSET >= ControlLayout.RANKS_OFFSET + Integer.BYTES);
        assertTrue(ControlLayout.CREATED_MILLIS_OFFSET >= ControlLayout.LAUNCHER_PID_OFFSET + Long.BYTES);
        assertTrue(ControlLayout.CREATED_MILLIS_OFFSET + Long.BYTES <= ControlLayout.ABORT_OFFSET);
        assertTrue(ControlLayout.ABORT_OFFSET + WaitWords.LENGTH <= ControlLayout.RANK_TABLE_OFFSET);
        assertEquals(0, ControlLayout.LAUNCHER_PID_OFFSET % Long.BYTES);
        assertEquals(0, ControlLayout.CREATED_MILLIS_OFFSET % Long.BYTES);
    }

    @Test
    void shouldStartRankTableOnALinePairAndEndWithTheBarrier() {
        assertEquals(0, ControlLayout.RANK_TABLE_OFFSET % Align.PAD);
        assertEquals(ControlLayout.RANK_TABLE_OFFSET, ControlLayout.rowOffset(0));
        for (final int ranks : new int[] {1, 2, 3, 8, 64, ControlLayout.MAX_RANKS}) {
            assertEquals(ControlLayout.scratchOffset(ranks, ranks), ControlLayout.barrierOffset(ranks),
                "the barrier follows the last scratch slot");
            assertEquals(0, ControlLayout.barrierOffset(ranks) % Align.PAD);
            assertEquals(ControlLayout.barrierOffset(ranks) + DisseminationBarrierLayout.length(ranks),
                ControlLayout.fileLength(ranks));
        }
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
            ControlLayout.barrierOffset(ranks));
    }

    @Test
    void shouldComputeFileLengthOfTheLargestJobWithoutOverflow() {
        // NOTE: 12 rounds of flags (ceil(log2 4096)) per rank in the barrier.
        final long expected = ControlLayout.RANK_TABLE_OFFSET
            + (long)ControlLayout.MAX_RANKS * (ControlLayout.ROW_LENGTH + ControlLayout.SCRATCH_SLOT_LENGTH
                + 12 * DisseminationBarrierLayout.FLAG_STRIDE);

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
            final IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
                () -> ControlLayout.checkRanks(ranks));
            assertTrue(thrown.getMessage().contains("job size " + ranks), thrown.getMessage());
        }
    }

    /**
     * The offsets of version 5 of the control file: a change of any of them needs a new {@link
     * ControlLayout#VERSION}, and this test changed with it.
     */
    @Test
    void shouldKeepTheOffsetsOfItsLayoutVersion() {
        assertEquals(5, ControlLayout.VERSION);
        assertEquals(24, ControlLayout.RANKS_OFFSET);
        assertEquals(28, ControlLayout.ROW_LENGTH_FIELD_OFFSET);
        assertEquals(32, ControlLayout.SCRATCH_SLOT_LENGTH_FIELD_OFFSET);
        assertEquals(40, ControlLayout.LAUNCHER_PID_OFFSET);
        assertEquals(48, ControlLayout.CREATED_MILLIS_OFFSET);
        assertEquals(64, ControlLayout.ABORT_OFFSET);
        assertEquals(128, ControlLayout.RANK_TABLE_OFFSET);
        assertEquals(128, ControlLayout.ROW_LENGTH);
        assertEquals(0, ControlLayout.ROW_PID_OFFSET);
        assertEquals(8, ControlLayout.ROW_START_MILLIS_OFFSET);
        assertEquals(16, ControlLayout.ROW_STATE_OFFSET);
        assertEquals(64, ControlLayout.ROW_CALL_OFFSET);
        assertEquals(80, ControlLayout.ROW_WAIT_CALL_OFFSET);
        assertEquals(84, ControlLayout.ROW_WAIT_WINDOW_OFFSET);
        assertEquals(88, ControlLayout.ROW_WAIT_PEER_OFFSET);
        assertEquals(92, ControlLayout.ROW_WAIT_CALL_NUMBER_OFFSET);
        assertEquals(96, ControlLayout.ROW_WAIT_SINCE_MILLIS_OFFSET);
        assertEquals(1024, ControlLayout.SCRATCH_SLOT_LENGTH);
        assertEquals(128 + 2 * 128 + 2 * 1024, ControlLayout.barrierOffset(2));
    }

    @Test
    void shouldKeepJobFieldsOffTheAbortWordsLineAndRowFieldsInsideTheRow() {
        assertTrue(ControlLayout.JOB_FIELDS_END <= ControlLayout.ABORT_OFFSET);
        assertEquals(0, ControlLayout.ABORT_OFFSET % Align.CACHE_LINE);
        assertTrue(ControlLayout.ABORT_OFFSET + WaitWords.LENGTH <= ControlLayout.RANK_TABLE_OFFSET);
        assertTrue(ControlLayout.ROW_FIELDS_END <= ControlLayout.ROW_LENGTH);
        assertEquals(0, ControlLayout.ROW_WAIT_SINCE_MILLIS_OFFSET % Long.BYTES);
        assertEquals(0, ControlLayout.ROW_CALL_OFFSET % Align.CACHE_LINE, "call words on the row's second line");
    }

    @Test
    void shouldSpellItsMagicInAscii() {
        final byte[] bytes = ByteBuffer.allocate(Long.BYTES).putLong(ControlLayout.MAGIC).array();

        assertEquals("RMA4JCTL", new String(bytes, StandardCharsets.US_ASCII));
    }
}
