package org.rma4j.internal;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.rma4j.shm.Align;
import org.rma4j.shm.DisseminationBarrierLayout;
import org.rma4j.shm.FileHeader;
import org.rma4j.shm.ShmFormatException;
import org.rma4j.shm.Words;

/**
 * Layout of a communicator file ({@code comm-<creator>-<n>} in the job directory): the collective
 * machinery of one communicator in shared memory, created by its rank 0 and mapped by each member.
 *
 * <pre>
 *   0                   24        28        32        36        40        44                          128
 *   +-------------------+---------+---------+---------+---------+---------+---------------------------+
 *   | FileHeader        | members | slot    | half    | creator | creator | padding                   |
 *   |                   | (int)   | length  | length  | (int)   | number  |                           |
 *   +-------------------+---------+---------+---------+---------+---------+---------------------------+ 128
 *   | member table: members x int, the job rank of each member in communicator order (128-aligned)     |
 *   +--------------------------------------------------------------------------------------------------+
 *   | slots: members x slot length, slot m written by member m only:                                   |
 *   |     0 call word, even sequence (long) | 8 call word, odd sequence (long) | padding to 128        |
 *   |   128 record (256 B): window and communicator creation records                                   |
 *   |   384 exchange half 0 (half length B) | 384 + half length: exchange half 1                       |
 *   |       each half: 0 total (long) | 8 status (int) | 12 root (int) | 16 agreement (long) | pad to 64 |
 *   |                  64 chunk (half length - 64 B)                                                    |
 *   +--------------------------------------------------------------------------------------------------+
 *   | barrier: DisseminationBarrierLayout for members parties                                          |
 *   +--------------------------------------------------------------------------------------------------+
 * </pre>
 *
 * <p>Publication rule. The creator writes the fields, the member table and the zeroed barrier and slots
 * (a new file is zero) with plain stores and publishes the file with {@link FileHeader#publish} (release
 * store of the ready flag); a member opens the file only after the creating exchange told it the file
 * exists, reads the fields after the header's acquire load and checks them, the member table included,
 * against what that exchange told it ({@link #check}); nobody writes them afterwards. Each member writes
 * only its own slot, and slots are 128-byte multiples apart, so words of different writers never share
 * a cache line or an adjacent-line pair.
 * <ul>
 *   <li>Call words: as the control file's ({@code ControlLayout}): a member publishes the collective call
 *   it enters with a volatile store into the word of its sequence number's parity; peers read them with
 *   volatile loads.</li>
 *   <li>Record: written by its member between two barriers of a creation protocol, read by the others
 *   after the later barrier ({@code CreationRecordLayout}, {@link CommRecordLayout}).</li>
 *   <li>Exchange halves: in round k of the communicator's exchanges a member writes half k mod 2 (plain
 *   stores), then enters the round's barrier, whose full fences order the stores before every peer's
 *   loads after it. A peer reads round k before it enters the barrier of round k + 1, and the member
 *   writes the same half again only in round k + 2, after that barrier: no half is written while it is
 *   read.</li>
 * </ul>
 */
public final class CommunicatorLayout {
    /** "RMA4JCOM" in ASCII. */
    public static final long MAGIC = 0x524D41344A434F4DL;
    /** Layout version; 3 made the barrier a dissemination barrier after the slots. */
    public static final int VERSION = 3;

    /** Number of members (int). */
    public static final int MEMBERS_OFFSET = FileHeader.LENGTH;
    /** Bytes of one member's slot (int), checked by openers. */
    public static final int SLOT_LENGTH_FIELD_OFFSET = MEMBERS_OFFSET + Integer.BYTES;
    /** Bytes of one exchange half (int), checked by openers. */
    public static final int HALF_LENGTH_FIELD_OFFSET = SLOT_LENGTH_FIELD_OFFSET + Integer.BYTES;
    /** Job rank of the member that created the file (int). */
    public static final int CREATOR_OFFSET = HALF_LENGTH_FIELD_OFFSET + Integer.BYTES;
    /** The creator's number of this communicator among those it created (int). */
    public static final int CREATOR_NUMBER_OFFSET = CREATOR_OFFSET + Integer.BYTES;
    /** The member table: one int per member. */
    public static final int MEMBER_TABLE_OFFSET = Align.PAD;

    /** Offset in a slot of the two call words (long each, even then odd sequence). */
    public static final int SLOT_CALLS_OFFSET = 0;
    /** Offset in a slot of the creation record. */
    public static final int SLOT_RECORD_OFFSET = Align.PAD;
    /** Bytes of the creation record: room for the longer of the two records, padded (checked below). */
    public static final int RECORD_LENGTH = 2 * Align.PAD;
    /** Offset in a slot of exchange half 0. */
    public static final int SLOT_EXCHANGE_OFFSET = SLOT_RECORD_OFFSET + RECORD_LENGTH;

    /** Offset in a half of the total bytes its member streams in the current exchange (long). */
    public static final int HALF_TOTAL_OFFSET = 0;
    /** Offset in a half of its member's argument status: 0, or an error-class code (int). */
    public static final int HALF_STATUS_OFFSET = HALF_TOTAL_OFFSET + Long.BYTES;
    /** Offset in a half of the root its member passed (int; -1 for a collective without root). */
    public static final int HALF_ROOT_OFFSET = HALF_STATUS_OFFSET + Integer.BYTES;
    /** Offset in a half of the value every member must pass alike (long: type, op, count as the call says). */
    public static final int HALF_AGREEMENT_OFFSET = HALF_ROOT_OFFSET + Integer.BYTES;
    /** Offset in a half of the chunk of the stream carried in this round. */
    public static final int HALF_CHUNK_OFFSET = Align.CACHE_LINE;

    /** Bytes all halves of a communicator together aim at, split over its members. */
    static final int HALVES_BUDGET = 512 * 1024;
    /** Smallest half. */
    public static final int MIN_HALF_LENGTH = 1024;
    /** Largest half. */
    public static final int MAX_HALF_LENGTH = 32 * 1024;

    private CommunicatorLayout() {
    }

    /**
     * @return the bytes of one exchange half for {@code members} members: 512 KiB over the members, within
     *         {@link #MIN_HALF_LENGTH}..{@link #MAX_HALF_LENGTH}, a multiple of 128.
     */
    public static int halfLength(final int members) {
        final long share = Align.up(HALVES_BUDGET / Math.max(1, members), Align.PAD);
        return (int)Math.max(MIN_HALF_LENGTH, Math.min(MAX_HALF_LENGTH, share));
    }

    /**
     * @return the bytes of a chunk: what one member streams in one round.
     */
    public static int chunkLength(final int halfLength) {
        return halfLength - HALF_CHUNK_OFFSET;
    }

    public static int slotLength(final int halfLength) {
        return SLOT_EXCHANGE_OFFSET + 2 * halfLength;
    }

    public static long slotsOffset(final int members) {
        return Align.up(MEMBER_TABLE_OFFSET + (long)members * Integer.BYTES, Align.PAD);
    }

    public static long slotOffset(final int members, final int halfLength, final int member) {
        return slotsOffset(members) + (long)member * slotLength(halfLength);
    }

    /**
     * @return offset of {@code member}'s call word for sequence numbers of {@code parity}.
     */
    public static long callOffset(final int members, final int halfLength, final int member, final int parity) {
        return slotOffset(members, halfLength, member) + SLOT_CALLS_OFFSET + (long)(parity & 1) * Long.BYTES;
    }

    public static long recordOffset(final int members, final int halfLength, final int member) {
        return slotOffset(members, halfLength, member) + SLOT_RECORD_OFFSET;
    }

    public static long halfOffset(final int members, final int halfLength, final int member, final int half) {
        return slotOffset(members, halfLength, member) + SLOT_EXCHANGE_OFFSET + (long)(half & 1) * halfLength;
    }

    /**
     * @return offset of the communicator's {@link DisseminationBarrierLayout}, after the last slot (a multiple of
     *         {@link Align#PAD}, as the barrier needs).
     */
    public static long barrierOffset(final int members) {
        return slotOffset(members, halfLength(members), members);
    }

    public static long fileLength(final int members) {
        return barrierOffset(members) + DisseminationBarrierLayout.length(members);
    }

    /**
     * Writes the fields and the member table of a new file (before {@link FileHeader#publish}).
     */
    public static void write(final MemorySegment segment, final int[] jobRanks, final int creator,
        final int creatorNumber) {
        Words.putInt(segment, MEMBERS_OFFSET, jobRanks.length);
        final int half = halfLength(jobRanks.length);
        Words.putInt(segment, SLOT_LENGTH_FIELD_OFFSET, slotLength(half));
        Words.putInt(segment, HALF_LENGTH_FIELD_OFFSET, half);
        Words.putInt(segment, CREATOR_OFFSET, creator);
        Words.putInt(segment, CREATOR_NUMBER_OFFSET, creatorNumber);
        for (int m = 0; m < jobRanks.length; m++) {
            Words.putInt(segment, MEMBER_TABLE_OFFSET + (long)m * Integer.BYTES, jobRanks[m]);
        }
    }

    /**
     * Checks the header and every field against what the creating exchange told the opener.
     *
     * @throws ShmFormatException naming the file, the field, the expected and the found value.
     */
    public static void check(final MemorySegment segment, final Path path, final int[] jobRanks, final int creator,
        final int creatorNumber) {
        FileHeader.check(segment, path, MAGIC, VERSION);
        final int members = jobRanks.length;
        final int half = halfLength(members);
        expect(segment, path, "members", MEMBERS_OFFSET, members);
        expect(segment, path, "slot length", SLOT_LENGTH_FIELD_OFFSET, slotLength(half));
        expect(segment, path, "half length", HALF_LENGTH_FIELD_OFFSET, half);
        expect(segment, path, "creator", CREATOR_OFFSET, creator);
        expect(segment, path, "creator number", CREATOR_NUMBER_OFFSET, creatorNumber);
        if (segment.byteSize() != fileLength(members)) {
            throw new ShmFormatException(path, "size " + segment.byteSize() + " does not fit a communicator of "
                + members + " members (" + fileLength(members) + " bytes)");
        }
        for (int m = 0; m < members; m++) {
            expect(segment, path, "job rank of member " + m, MEMBER_TABLE_OFFSET + (long)m * Integer.BYTES,
                jobRanks[m]);
        }
    }

    private static void expect(final MemorySegment segment, final Path path, final String field, final long offset,
        final int expected) {
        final int found = Words.getInt(segment, offset);
        if (found != expected) {
            throw ShmFormatException.mismatch(path, field, expected, found);
        }
    }
}
