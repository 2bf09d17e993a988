package org.rma4j.internal;

import org.rma4j.shm.Align;
import org.rma4j.shm.DisseminationBarrierLayout;
import org.rma4j.notify.NotifyRingLayout;
import org.rma4j.shm.FileHeader;

/**
 * Layout of a window file: one file per window, created by rank 0, mapped by every rank.
 *
 * <pre>
 *   0                                                                          128
 *   +-------------------------------------------------------------------------+
 *   | FileHeader (24 B) | ranks | flavor | flags | pad | section offsets      |
 *   |   24 ranks (int)  28 flavor (int)  32 flags (int)                        |
 *   |   40 barrier  48 lock table  56 sync table  64 data  72 post matrix      |
 *   |   80 complete matrix  (long offsets)                                     |
 *   +-------------------------------------------------------------------------+ 128
 *   | rank table: ranks x 32 B: dataOffset (long) | size (long) | dispUnit     |
 *   |   (written by the creator before publication, read-only afterwards)      |
 *   +------------------------------------------------ aligned to 128 ---------+
 *   | fence barrier: DisseminationBarrierLayout, ranks x ceil(log2 ranks)      |
 *   |   flags of 128 B (at least one)                                          |
 *   +-------------------------------------------------------------------------+
 *   | lock table: ranks x 128 B, one line per target:                          |
 *   |   0 lock word (wait word: int value, int sleepers)                       |
 *   +-------------------------------------------------------------------------+
 *   | sync table: ranks x 256 B, two lines per rank:                           |
 *   |   0 post signal (wait word)  64 exposed flag (int, written by the rank) |
 *   |   128 complete signal (wait word)                                       |
 *   +-------------------------------------------------------------------------+
 *   | post matrix: ranks rows (128-aligned) of ranks ints:                     |
 *   |   row o, column t = posts target t has made to origin o (written by t)   |
 *   +-------------------------------------------------------------------------+
 *   | complete matrix: ranks rows of ranks ints:                               |
 *   |   row t, column o = completes origin o has made to target t (by o)       |
 *   +-------------------------------------------------------------------------+
 *   | attach table (dynamic windows): per rank, written by that rank only:     |
 *   |   0 version (long) | pad to 128 | ATTACH_SLOTS x 32 B entries:           |
 *   |   0 address (long) 8 length (long) 16 fileOffset (long)                  |
 *   |   24 allocation sequence (int) 28 state (int: 0 free, 1 attached)        |
 *   +-------------------------------------------------------------------------+
 *   | notification rings: per target rank, one NotifyRingLayout ring of        |
 *   |   notifyCapacity 64-byte entries (header at 88), 128-aligned             |
 *   +------------------------------------------------ aligned to 4096 --------+
 *   | data: the ranks' segments, contiguous in rank order, or each page-      |
 *   |   aligned and padded when FLAG_NONCONTIG is set                          |
 *   +-------------------------------------------------------------------------+
 * </pre>
 *
 * PSCW (MPI-3.1 section 11.5.2) counts messages as the standard's matching rules describe them:
 * post increments a counter per (origin, target) pair and signals the origin, start waits until
 * each target's counter exceeds the posts it consumed; complete and wait do the same with the
 * complete matrix. Counters of one row are written by different processes (false sharing is
 * accepted there: each is written once per epoch).
 *
 * Words written by different processes are 128 bytes apart (lock words, barrier words). The creator
 * writes the whole header and tables, then publishes the file with {@link FileHeader#publish}.
 */
public final class WindowLayout {
    /** "RMA4JWIN" in ASCII. */
    public static final long MAGIC = 0x524D41344A57494EL;
    public static final int VERSION = 2;

    public static final int RANKS_OFFSET = FileHeader.LENGTH;
    public static final int FLAVOR_OFFSET = 28;
    public static final int FLAGS_OFFSET = 32;
    public static final int BARRIER_SECTION_OFFSET = 40;
    public static final int LOCK_SECTION_OFFSET = 48;
    public static final int SYNC_SECTION_OFFSET = 56;
    public static final int DATA_SECTION_OFFSET = 64;
    public static final int POST_SECTION_OFFSET = 72;
    public static final int COMPLETE_SECTION_OFFSET = 80;
    public static final int NOTIFY_CAPACITY_OFFSET = 88;
    public static final int NOTIFY_SECTION_OFFSET = 96;

    public static final int RANK_TABLE_OFFSET = Align.PAD;
    public static final int RANK_ENTRY_LENGTH = 32;
    public static final int ENTRY_DATA_OFFSET = 0;
    public static final int ENTRY_SIZE_OFFSET = 8;
    public static final int ENTRY_DISP_UNIT_OFFSET = 16;

    public static final int LOCK_LINE_LENGTH = Align.PAD;
    public static final int SYNC_LINES_LENGTH = 2 * Align.PAD;
    public static final int POST_SIGNAL_OFFSET = 0;
    /** 1 while the rank has a post epoch open; checked by lockers (MPI-3.1 section 11.5.3). */
    public static final int EXPOSED_OFFSET = Align.CACHE_LINE;
    public static final int COMPLETE_SIGNAL_OFFSET = Align.PAD;

    /** Regions one rank may have attached to a dynamic window at once. */
    public static final int ATTACH_SLOTS = 64;
    public static final int ATTACH_ENTRY_LENGTH = 32;
    public static final int ATTACH_HEADER_LENGTH = Align.PAD;
    public static final int ATTACH_BLOCK_LENGTH = ATTACH_HEADER_LENGTH + ATTACH_SLOTS * ATTACH_ENTRY_LENGTH;
    public static final int ENTRY_ADDRESS_OFFSET = 0;
    public static final int ENTRY_LENGTH_OFFSET = 8;
    public static final int ENTRY_FILE_OFFSET_OFFSET = 16;
    public static final int ENTRY_SEQUENCE_OFFSET = 24;
    public static final int ENTRY_STATE_OFFSET = 28;

    /** Alignment of the data section and, when non-contiguous, of each rank's segment. */
    public static final int DATA_ALIGNMENT = 4096;

    /** Flag: segments are page-aligned and padded rather than contiguous. */
    public static final int FLAG_NONCONTIG = 1;

    private WindowLayout() {
    }

    public static long rankEntryOffset(final int rank) {
        return RANK_TABLE_OFFSET + (long)rank * RANK_ENTRY_LENGTH;
    }

    public static long barrierOffset(final int ranks) {
        return Align.up(rankEntryOffset(ranks), Align.PAD);
    }

    public static long lockTableOffset(final int ranks) {
        return barrierOffset(ranks) + DisseminationBarrierLayout.length(ranks);
    }

    public static long lockWordOffset(final long lockTable, final int target) {
        return lockTable + (long)target * LOCK_LINE_LENGTH;
    }

    public static long syncTableOffset(final int ranks) {
        return lockTableOffset(ranks) + (long)ranks * LOCK_LINE_LENGTH;
    }

    public static long syncLinesOffset(final long syncTable, final int rank) {
        return syncTable + (long)rank * SYNC_LINES_LENGTH;
    }

    public static long matrixRowLength(final int ranks) {
        return Align.up((long)ranks * Integer.BYTES, Align.PAD);
    }

    public static long postMatrixOffset(final int ranks) {
        return syncTableOffset(ranks) + (long)ranks * SYNC_LINES_LENGTH;
    }

    public static long completeMatrixOffset(final int ranks) {
        return postMatrixOffset(ranks) + ranks * matrixRowLength(ranks);
    }

    /**
     * @return offset of counter (row, column) of a matrix starting at {@code matrix}.
     */
    public static long counterOffset(final long matrix, final int ranks, final int row, final int column) {
        return matrix + row * matrixRowLength(ranks) + (long)column * Integer.BYTES;
    }

    public static long attachTableOffset(final int ranks) {
        return completeMatrixOffset(ranks) + ranks * matrixRowLength(ranks);
    }

    /**
     * @return offset of the attach block (version word, then entries) of {@code rank}.
     */
    public static long attachBlockOffset(final long attachTable, final int rank) {
        return attachTable + (long)rank * ATTACH_BLOCK_LENGTH;
    }

    public static long attachEntryOffset(final long attachBlock, final int slot) {
        return attachBlock + ATTACH_HEADER_LENGTH + (long)slot * ATTACH_ENTRY_LENGTH;
    }

    public static long notifyRingsOffset(final int ranks) {
        return Align.up(attachTableOffset(ranks) + (long)ranks * ATTACH_BLOCK_LENGTH, Align.PAD);
    }

    public static long notifyRingLength(final int capacity) {
        return Align.up(NotifyRingLayout.lengthFor(capacity), Align.PAD);
    }

    /**
     * @return offset of the notification ring that {@code target} consumes.
     */
    public static long notifyRingOffset(final int ranks, final int capacity, final int target) {
        return notifyRingsOffset(ranks) + target * notifyRingLength(capacity);
    }

    public static long dataSectionOffset(final int ranks, final int notifyCapacity) {
        return Align.up(notifyRingOffset(ranks, notifyCapacity, ranks), DATA_ALIGNMENT);
    }

    /**
     * Computes where each rank's segment starts.
     *
     * @param sizes       the ranks' sizes in bytes.
     * @param notifyCapacity entries of each notification ring.
     * @param noncontig   whether to page-align each segment.
     * @param dataOffsets receives each rank's data offset.
     * @return the file length.
     */
    public static long placeSegments(
        final long[] sizes, final int notifyCapacity, final boolean noncontig, final long[] dataOffsets) {
        long cursor = dataSectionOffset(sizes.length, notifyCapacity);
        for (int rank = 0; rank < sizes.length; rank++) {
            if (noncontig) {
                cursor = Align.up(cursor, DATA_ALIGNMENT);
            }
            dataOffsets[rank] = cursor;
            cursor = Math.addExact(cursor, sizes[rank]);
        }
        // A file is never empty, even when every rank exposes zero bytes.
        return Math.max(Align.up(cursor, DATA_ALIGNMENT), DATA_ALIGNMENT);
    }
}
