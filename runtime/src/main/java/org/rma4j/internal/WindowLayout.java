package org.rma4j.internal;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.rma4j.notify.NotifyLanesLayout;
import org.rma4j.shm.Align;
import org.rma4j.shm.DisseminationBarrierLayout;
import org.rma4j.shm.FileHeader;
import org.rma4j.shm.ShmFormatException;
import org.rma4j.shm.Words;

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
 *   | notification lanes: per target rank, one NotifyLanesLayout region of     |
 *   |   ranks single-producer lanes (one per origin) of notifyCapacity 64-byte |
 *   |   entries each (lane capacity at 88), 128-aligned                        |
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
 * Words written by different processes are 128 bytes apart (lock words, barrier words).
 *
 * <p>Publication: rank 0 creates the file, writes the whole header, the rank table and the formatted
 * lanes, then publishes it with {@link FileHeader#publish} (magic last, release). The others open it
 * only after the creation's second barrier and check every header field and rank entry against what
 * the creation's exchange told them ({@link #checkHeader}) before they use any section.
 */
public final class WindowLayout {
    /** "RMA4JWIN" in ASCII. */
    public static final long MAGIC = 0x524D41344A57494EL;
    /**
     * Format version: 4 holds notification lanes (one per origin and target) where 3 held one multi-producer ring
     * per target; 3 stores the flavor as an explicit code (2 stored its enum ordinal).
     */
    public static final int VERSION = 4;

    /** Ranks of the window (int), right after the {@link FileHeader}. */
    public static final int RANKS_OFFSET = FileHeader.LENGTH;
    /** Length of {@link #RANKS_OFFSET}'s field. */
    public static final int RANKS_LENGTH = Integer.BYTES;
    /** Flavor of the window (int): a code of {@code WindowFlavor}, never its ordinal. */
    public static final int FLAVOR_OFFSET = RANKS_OFFSET + RANKS_LENGTH;
    /** Length of {@link #FLAVOR_OFFSET}'s field. */
    public static final int FLAVOR_LENGTH = Integer.BYTES;
    /** Flags (int): {@link #FLAG_NONCONTIG}. */
    public static final int FLAGS_OFFSET = FLAVOR_OFFSET + FLAVOR_LENGTH;
    /** Length of {@link #FLAGS_OFFSET}'s field. */
    public static final int FLAGS_LENGTH = Integer.BYTES;
    /** Offset of the fence barrier section (long, 8-aligned), {@link #barrierOffset}. */
    public static final int BARRIER_SECTION_OFFSET = (int)Align.up(FLAGS_OFFSET + FLAGS_LENGTH, Long.BYTES);
    /** Length of each section offset field (long). */
    public static final int SECTION_OFFSET_LENGTH = Long.BYTES;
    /** Offset of the lock table (long), {@link #lockTableOffset}. */
    public static final int LOCK_SECTION_OFFSET = BARRIER_SECTION_OFFSET + SECTION_OFFSET_LENGTH;
    /** Offset of the sync table (long), {@link #syncTableOffset}. */
    public static final int SYNC_SECTION_OFFSET = LOCK_SECTION_OFFSET + SECTION_OFFSET_LENGTH;
    /** Offset of the data section (long), {@link #dataSectionOffset}. */
    public static final int DATA_SECTION_OFFSET = SYNC_SECTION_OFFSET + SECTION_OFFSET_LENGTH;
    /** Offset of the post matrix (long), {@link #postMatrixOffset}. */
    public static final int POST_SECTION_OFFSET = DATA_SECTION_OFFSET + SECTION_OFFSET_LENGTH;
    /** Offset of the complete matrix (long), {@link #completeMatrixOffset}. */
    public static final int COMPLETE_SECTION_OFFSET = POST_SECTION_OFFSET + SECTION_OFFSET_LENGTH;
    /** Entries of each notification lane (int, a power of two): the lane capacity. */
    public static final int NOTIFY_CAPACITY_OFFSET = COMPLETE_SECTION_OFFSET + SECTION_OFFSET_LENGTH;
    /** Length of {@link #NOTIFY_CAPACITY_OFFSET}'s field. */
    public static final int NOTIFY_CAPACITY_LENGTH = Integer.BYTES;
    /** Offset of the notification lanes (long, 8-aligned), {@link #notifyLanesOffset(int)}. */
    public static final int NOTIFY_SECTION_OFFSET = (int)Align.up(NOTIFY_CAPACITY_OFFSET + NOTIFY_CAPACITY_LENGTH,
        Long.BYTES);
    /** End of the header fields; the rank table starts at the next {@link Align#PAD} boundary. */
    public static final int HEADER_LENGTH = NOTIFY_SECTION_OFFSET + SECTION_OFFSET_LENGTH;

    /** The rank table: one entry per rank, written by the creator, read-only afterwards. */
    public static final int RANK_TABLE_OFFSET = (int)Align.up(HEADER_LENGTH, Align.PAD);
    /** A rank's entry: offset of its data in the file (long). */
    public static final int ENTRY_DATA_OFFSET = 0;
    /** A rank's entry: its size in bytes (long); 0 for flavors CREATE and DYNAMIC, whose data is elsewhere. */
    public static final int ENTRY_SIZE_OFFSET = ENTRY_DATA_OFFSET + Long.BYTES;
    /** A rank's entry: its displacement unit (int). */
    public static final int ENTRY_DISP_UNIT_OFFSET = ENTRY_SIZE_OFFSET + Long.BYTES;
    /** Length of a rank's entry: its fields padded to 32 bytes. */
    public static final int RANK_ENTRY_LENGTH = (int)Align.up(ENTRY_DISP_UNIT_OFFSET + Integer.BYTES, 32);

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

    /**
     * Checks, at a rank that opens the window file, everything its creator wrote into the header and the
     * rank table against what this rank expects from the creation's exchange: the file header (magic,
     * version), ranks, flavor, flags, notification capacity, every section offset, and each rank's size,
     * displacement unit and data offset.
     *
     * @param sizes the sizes the creator placed (zeros for flavors whose data is not in the file).
     * @throws ShmFormatException naming the file, the field, the expected and the found value.
     */
    public static void checkHeader(final MemorySegment segment, final Path path, final int flavorCode, final int flags,
        final int notifyCapacity, final long[] sizes, final int[] dispUnits) {
        FileHeader.check(segment, path, MAGIC, VERSION);
        final int ranks = sizes.length;
        expect(segment, path, "ranks", RANKS_OFFSET, ranks);
        expect(segment, path, "flavor", FLAVOR_OFFSET, flavorCode);
        expect(segment, path, "flags", FLAGS_OFFSET, flags);
        expect(segment, path, "notify capacity", NOTIFY_CAPACITY_OFFSET, notifyCapacity);
        expect(segment, path, "barrier section offset", BARRIER_SECTION_OFFSET, barrierOffset(ranks));
        expect(segment, path, "lock section offset", LOCK_SECTION_OFFSET, lockTableOffset(ranks));
        expect(segment, path, "sync section offset", SYNC_SECTION_OFFSET, syncTableOffset(ranks));
        expect(segment, path, "data section offset", DATA_SECTION_OFFSET, dataSectionOffset(ranks, notifyCapacity));
        expect(segment, path, "post section offset", POST_SECTION_OFFSET, postMatrixOffset(ranks));
        expect(segment, path, "complete section offset", COMPLETE_SECTION_OFFSET, completeMatrixOffset(ranks));
        expect(segment, path, "notify section offset", NOTIFY_SECTION_OFFSET, notifyLanesOffset(ranks));
        final long[] dataOffsets = new long[ranks];
        final long length = placeSegments(sizes, notifyCapacity, (flags & FLAG_NONCONTIG) != 0, dataOffsets);
        if (segment.byteSize() < length) {
            throw new ShmFormatException(path,
                "file length: expected at least " + length + ", found " + segment.byteSize());
        }
        for (int rank = 0; rank < ranks; rank++) {
            final long entry = rankEntryOffset(rank);
            expect(segment, path, "data offset of rank " + rank, entry + ENTRY_DATA_OFFSET, dataOffsets[rank]);
            expect(segment, path, "size of rank " + rank, entry + ENTRY_SIZE_OFFSET, sizes[rank]);
            expect(segment, path, "disp unit of rank " + rank, entry + ENTRY_DISP_UNIT_OFFSET, dispUnits[rank]);
        }
    }

    private static void expect(final MemorySegment segment, final Path path, final String field, final long offset,
        final int expected) {
        final int found = Words.getInt(segment, offset);
        if (found != expected) {
            throw new ShmFormatException(path,
                field + " at offset " + offset + ": expected " + expected + ", found " + found);
        }
    }

    private static void expect(final MemorySegment segment, final Path path, final String field, final long offset,
        final long expected) {
        final long found = Words.getLong(segment, offset);
        if (found != expected) {
            throw new ShmFormatException(path,
                field + " at offset " + offset + ": expected " + expected + ", found " + found);
        }
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

    /**
     * @return offset of the notification section: every rank's lanes, in rank order.
     */
    public static long notifyLanesOffset(final int ranks) {
        return Align.up(attachTableOffset(ranks) + (long)ranks * ATTACH_BLOCK_LENGTH, Align.PAD);
    }

    /**
     * @return bytes of one rank's lanes: {@code ranks} lanes (one per origin) of {@code laneCapacity} entries,
     *         padded to {@link Align#PAD}.
     */
    public static long notifyLanesLength(final int ranks, final int laneCapacity) {
        return Align.up(NotifyLanesLayout.lengthFor(ranks, laneCapacity), Align.PAD);
    }

    /**
     * @return offset of the notification lanes that {@code target} consumes (its {@code NotifyLanes} region).
     */
    public static long notifyLanesOffset(final int ranks, final int laneCapacity, final int target) {
        return notifyLanesOffset(ranks) + target * notifyLanesLength(ranks, laneCapacity);
    }

    public static long dataSectionOffset(final int ranks, final int notifyCapacity) {
        return Align.up(notifyLanesOffset(ranks, notifyCapacity, ranks), DATA_ALIGNMENT);
    }

    /**
     * Computes where each rank's segment starts.
     *
     * @param sizes       the ranks' sizes in bytes.
     * @param notifyCapacity entries of each notification lane.
     * @param noncontig   whether to page-align each segment.
     * @param dataOffsets receives each rank's data offset.
     * @return the file length.
     */
    public static long placeSegments(final long[] sizes, final int notifyCapacity, final boolean noncontig,
        final long[] dataOffsets) {
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
