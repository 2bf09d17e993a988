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
 *   | attach table (dynamic windows): ranks x 640 B, block r written by r only:|
 *   |   0 changes (long, release): attaches + detaches rank r has made         |
 *   |   8 chunks (int, release): attach chunk files rank r has created         |
 *   |   128 change log: ATTACH_LOG_CAPACITY ints, entry c % capacity = the     |
 *   |       slot change c rewrote (release); the slots themselves are in       |
 *   |       the chunk files, AttachChunkLayout                                 |
 *   +-------------------------------------------------------------------------+
 *   | pair locks: PAIR_LOCK_STRIPES wait words, one per 128 B line (value:     |
 *   |   0 free, holder's rank + 1 held; sleepers): MINLOC / MAXLOC and the     |
 *   |   other accumulates of 16-byte pair types, stripe = hash(file offset)    |
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
 * Words written by different processes are 128 bytes apart (lock words, barrier words, pair locks,
 * attach blocks).
 *
 * <p>Attach table (MPI_WIN_ATTACH, section 11.2.4): rank r keeps the regions it attached in slots of its
 * chunk files ({@link AttachChunkLayout}; chunk c holds {@code 64 << c} slots, so the table grows without
 * moving a slot). An attach or detach rewrites one slot under its sequence word, writes the slot's
 * number to log entry {@code changes % ATTACH_LOG_CAPACITY} (release) and then increments
 * {@code changes} (release); a new chunk is published in {@code chunks} before its first slot is used.
 * An origin that read {@code changes} = n (acquire) re-reads only the slots of the log entries since the
 * last n it applied; if more than the log's capacity happened since, it rescans every slot. A slot's
 * sequence word makes each slot read consistent against a concurrent rewrite; MPI requires the region
 * of an access to be attached before the access's synchronization, so a concurrent attach or detach of
 * another region never disturbs it (section 11.2.4).
 *
 * <p>Pair locks: MPI_LONG_INT and MPI_DOUBLE_INT elements are 16 bytes, beyond one 64-bit
 * compare-and-set, so every accumulate-family update of one (and of a 2INT, FLOAT_INT or SHORT_INT pair
 * that is not 8-byte aligned) holds the stripe of its file offset while it reads and writes the pair
 * (section 11.7.1). The stripe is a function of the offset in the file alone, the same in every
 * process; pairs 8-byte aligned of 8 bytes use one compare-and-set and no stripe.
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
     * Format version: 5 holds notification lanes (one per origin and target) where 4 held one multi-producer
     * ring per target; 4 has the growable attach table and the pair locks (3 had 64 fixed attach slots per rank;
     * 2 stored the flavor as its enum ordinal).
     */
    public static final int VERSION = 5;

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

    /** Attach block: attaches and detaches its rank has made (long, written by that rank, release). */
    public static final int ATTACH_CHANGES_OFFSET = 0;
    /** Attach block: chunk files its rank has created and published (int, release). */
    public static final int ATTACH_CHUNKS_OFFSET = ATTACH_CHANGES_OFFSET + Long.BYTES;
    /** Attach block: the change log, {@link #ATTACH_LOG_CAPACITY} slot numbers (int, release). */
    public static final int ATTACH_LOG_OFFSET = Align.PAD;
    /** Entries of the change log: changes an origin can catch up with without a rescan. */
    public static final int ATTACH_LOG_CAPACITY = 128;
    /** Bytes of one rank's attach block. */
    public static final int ATTACH_BLOCK_LENGTH = ATTACH_LOG_OFFSET + ATTACH_LOG_CAPACITY * Integer.BYTES;

    /** Stripes of the pair lock table. */
    public static final int PAIR_LOCK_STRIPES = 64;
    /** Bytes of one stripe: a wait word on its own pair of cache lines. */
    public static final int PAIR_LOCK_LINE_LENGTH = Align.PAD;

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
     * @return offset of the attach block (change count, chunk count, change log) of {@code rank}.
     */
    public static long attachBlockOffset(final long attachTable, final int rank) {
        return attachTable + (long)rank * ATTACH_BLOCK_LENGTH;
    }

    /**
     * @return offset of the change log entry of change number {@code change} in an attach block.
     */
    public static long attachLogEntryOffset(final long attachBlock, final long change) {
        return attachBlock + ATTACH_LOG_OFFSET + (change % ATTACH_LOG_CAPACITY) * Integer.BYTES;
    }

    public static long pairLockTableOffset(final int ranks) {
        return attachTableOffset(ranks) + (long)ranks * ATTACH_BLOCK_LENGTH;
    }

    /**
     * @return offset of the pair lock that guards the pair at {@code fileOffset} of any file: the same
     *         stripe in every process for the same offset.
     */
    public static long pairLockOffset(final long pairLockTable, final long fileOffset) {
        // NOTE: pairs are at least 4-byte aligned; mixing the higher bits spreads neighbouring pairs.
        final long mixed = (fileOffset >>> 2) * 0x9E3779B97F4A7C15L;
        return pairLockTable
            + (mixed >>> (Long.SIZE - Integer.numberOfTrailingZeros(PAIR_LOCK_STRIPES))) * PAIR_LOCK_LINE_LENGTH;
    }

    /**
     * @return offset of the notification section: every rank's lanes, in rank order.
     */
    public static long notifyLanesOffset(final int ranks) {
        return Align.up(pairLockTableOffset(ranks) + (long)PAIR_LOCK_STRIPES * PAIR_LOCK_LINE_LENGTH, Align.PAD);
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
