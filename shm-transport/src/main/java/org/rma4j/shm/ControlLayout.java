package org.rma4j.shm;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * Layout of a job's control file: job fields, the abort word, one row per rank, one collective scratch
 * slot per rank and the job-wide barrier.
 *
 * <pre>
 *   0                   24        28        32        36        40                  48                  56     64
 *   +-------------------+---------+---------+---------+---------+-------------------+-------------------+------+
 *   | FileHeader        | ranks   | row     | scratch | (pad)   | launcherPid       | createdMillis     | pad  |
 *   |                   | (int)   | length  | slot    |         | (long)            | (long)            |      |
 *   |                   |         | (int)   | length  |         |                   |                   |      |
 *   +-------------------+---------+---------+---------+---------+-------------------+-------------------+------+ 64
 *   | abort (wait word: 0, or ABORT_FLAG ORed with the status; set once) | padding                             |
 *   +----------------------------------------------------------------------------------------------------------+ 128
 *   | rank table: ranks rows of ROW_LENGTH (128 B), row r written by rank r (and the launcher, state only)     |
 *   |   0 pid (long) | 8 startMillis (long) | 16 state (wait word: RankState code, sleepers) | padding         |
 *   |  64 call word, even sequence (long) | 72 call word, odd sequence (long)                                  |
 *   |  80 wait call code (int) | 84 window (int) | 88 peer (int) | 92 call number (int) | 96 since (long)      |
 *   +----------------------------------------------------------------------------------------------------------+
 *   | scratch: ranks slots of SCRATCH_SLOT_LENGTH (1024 B), slot r written by rank r only                      |
 *   +----------------------------------------------------------------------------------------------------------+
 *   | job-wide barrier: DisseminationBarrierLayout for ranks parties                                           |
 *   +----------------------------------------------------------------------------------------------------------+
 * </pre>
 *
 * <p>Publication rule. The creator writes the job fields with plain stores and publishes the file with
 * {@link FileHeader#publish} (release store of the ready flag); every opener reads them back after the
 * header's acquire load and checks them ({@link #checkJobFields}); nobody writes them afterwards. Each rank
 * writes only its own row and slot; rows and slots are {@link Align#PAD} bytes apart, so that words of
 * different writers never share a cache line or an adjacent-line pair.
 * <ul>
 *   <li>State: a rank claims its row with a compare-and-set of the state from EMPTY to JOINING, writes pid
 *   and start time with plain stores, then publishes JOINED with a compare-and-set (a volatile access); a
 *   liveness reader loads the state with a volatile load before it reads pid and start time. The launcher
 *   or a thread runner may also write the state (FAILED) with a compare-and-set. The creator of a node's file
 *   in a job of several nodes marks the rows of the other nodes' ranks ELSEWHERE (compare-and-set from EMPTY)
 *   before any rank joins. The codes are {@link RankState#code()}.</li>
 *   <li>Call words: a rank publishes the collective call it enters (an opaque long the runtime encodes:
 *   kind, object, job-wide sequence number) with a volatile store into the call word of the sequence's
 *   parity before it waits; peers that finished the same collective compare it with volatile loads while
 *   this rank may already enter the next.</li>
 *   <li>Wait state ({@link WaitState}), on the slow path of a wait only: the rank stores 0 into the wait
 *   call code (volatile), window, peer, call number and time (plain), then the code (volatile,
 *   {@link WaitState.Call#code()}); it clears the code (volatile store of 0) when the wait ends. A reader
 *   loads the code, the fields, then the code and time again, and keeps the state only if they did not
 *   change (diagnostics, not synchronization).</li>
 *   <li>Abort: set at most once, by a compare-and-set from 0, then its sleepers are woken; read with
 *   volatile loads.</li>
 *   <li>Scratch: written by its rank between two barriers of a collective exchange, read by the peers
 *   after the second barrier (whose fences order the accesses).</li>
 *   <li>Barrier: {@link DisseminationBarrierLayout}'s rule (each flag has one writer and one reader; with more
 *   ranks than CPUs the region holds a central counter barrier instead).</li>
 * </ul>
 */
public final class ControlLayout {
    /** "RMA4JCTL" in ASCII. */
    public static final long MAGIC = 0x524D41344A43544CL;
    /**
     * Layout version; 3 added the row and scratch slot lengths to the job fields, 4 the state ELSEWHERE (a rank
     * of another node), 5 made the job-wide barrier a dissemination barrier after the scratch slots.
     */
    public static final int VERSION = 5;

    /** Job size (int), 1..{@link #MAX_RANKS}. */
    public static final int RANKS_OFFSET = FileHeader.LENGTH;
    /** {@link #ROW_LENGTH} as the creator laid the file out (int), checked by openers. */
    public static final int ROW_LENGTH_FIELD_OFFSET = RANKS_OFFSET + Integer.BYTES;
    /** {@link #SCRATCH_SLOT_LENGTH} as the creator laid the file out (int), checked by openers. */
    public static final int SCRATCH_SLOT_LENGTH_FIELD_OFFSET = ROW_LENGTH_FIELD_OFFSET + Integer.BYTES;
    /** Pid of the process that owns the job (long; 0: none), for the liveness check of ranks not yet joined. */
    public static final int LAUNCHER_PID_OFFSET = Align.alignedOffset(SCRATCH_SLOT_LENGTH_FIELD_OFFSET + Integer.BYTES,
        Long.BYTES);
    /** Epoch milliseconds at which the file was created (long), to tell a reused launcher pid. */
    public static final int CREATED_MILLIS_OFFSET = LAUNCHER_PID_OFFSET + Long.BYTES;
    /** End of the job fields, which the creator alone writes. */
    public static final int JOB_FIELDS_END = CREATED_MILLIS_OFFSET + Long.BYTES;

    /**
     * Wait word, on the cache line after the job fields: 0 while the job runs; {@link #ABORT_FLAG} | status
     * once a rank aborted the job.
     */
    public static final int ABORT_OFFSET = Align.alignedOffset(JOB_FIELDS_END, Align.CACHE_LINE);
    /** Marks the abort word as set (so that status 0 can be told apart from "not aborted"). */
    public static final int ABORT_FLAG = 1 << 30;
    /** The first row of the rank table, on the first line pair after the abort word. */
    public static final int RANK_TABLE_OFFSET = Align.alignedOffset(ABORT_OFFSET + WaitWords.LENGTH, Align.PAD);

    /** Bytes of one row of the rank table: one line pair. */
    public static final int ROW_LENGTH = Align.PAD;
    /** Pid of the rank's process (long), written before the state becomes JOINED. */
    public static final int ROW_PID_OFFSET = 0;
    /** Start time of the rank's process in epoch milliseconds (long), to tell a reused pid. */
    public static final int ROW_START_MILLIS_OFFSET = ROW_PID_OFFSET + Long.BYTES;
    /** Wait word holding the rank's {@link RankState#code()}. */
    public static final int ROW_STATE_OFFSET = ROW_START_MILLIS_OFFSET + Long.BYTES;
    /**
     * Two longs, on the row's second cache line: the collective call the rank entered last with an even, then
     * odd, sequence number.
     */
    public static final int ROW_CALL_OFFSET = Align.alignedOffset(ROW_STATE_OFFSET + WaitWords.LENGTH,
        Align.CACHE_LINE);
    /** Wait call code (int): {@link WaitState.Call#code()}, 0 while not blocked on a slow path. */
    public static final int ROW_WAIT_CALL_OFFSET = ROW_CALL_OFFSET + 2 * Long.BYTES;
    /** Window the rank waits on (int), -1 for a call on the job. */
    public static final int ROW_WAIT_WINDOW_OFFSET = ROW_WAIT_CALL_OFFSET + Integer.BYTES;
    /** Rank the rank waits for (int), -1 for a collective call. */
    public static final int ROW_WAIT_PEER_OFFSET = ROW_WAIT_WINDOW_OFFSET + Integer.BYTES;
    /** Job-wide sequence number of the collective call waited in (int), or 0. */
    public static final int ROW_WAIT_CALL_NUMBER_OFFSET = ROW_WAIT_PEER_OFFSET + Integer.BYTES;
    /** Epoch milliseconds at which the wait state was published (long). */
    public static final int ROW_WAIT_SINCE_MILLIS_OFFSET = ROW_WAIT_CALL_NUMBER_OFFSET + Integer.BYTES;
    /** End of the fields of a row; the rest up to {@link #ROW_LENGTH} is padding. */
    public static final int ROW_FIELDS_END = ROW_WAIT_SINCE_MILLIS_OFFSET + Long.BYTES;

    /** Bytes of collective scratch space per rank. */
    public static final int SCRATCH_SLOT_LENGTH = 8 * Align.PAD;

    /** Upper bound of ranks in one job. */
    public static final int MAX_RANKS = 4096;

    private ControlLayout() {
    }

    public static long rowOffset(final int rank) {
        return RANK_TABLE_OFFSET + (long)rank * ROW_LENGTH;
    }

    /**
     * @return offset of the call word of {@code rank} for sequence numbers of {@code parity} (0 or 1).
     */
    public static long callOffset(final int rank, final int parity) {
        return rowOffset(rank) + ROW_CALL_OFFSET + (long)(parity & 1) * Long.BYTES;
    }

    public static long scratchOffset(final int ranks, final int rank) {
        return rowOffset(ranks) + (long)rank * SCRATCH_SLOT_LENGTH;
    }

    /**
     * @return offset of the job-wide {@link DisseminationBarrierLayout}, after the last scratch slot (a multiple of
     *         {@link Align#PAD}, as the barrier needs).
     */
    public static long barrierOffset(final int ranks) {
        return scratchOffset(ranks, ranks);
    }

    public static long fileLength(final int ranks) {
        return barrierOffset(ranks) + DisseminationBarrierLayout.length(ranks);
    }

    /**
     * @throws IllegalArgumentException if ranks is outside 1..MAX_RANKS.
     */
    public static void checkRanks(final int ranks) {
        if (ranks < 1 || ranks > MAX_RANKS) {
            throw new IllegalArgumentException("job size " + ranks + " is outside 1.." + MAX_RANKS);
        }
    }

    /**
     * Writes the job fields of a new file (before {@link FileHeader#publish}).
     */
    public static void writeJobFields(final MemorySegment segment, final int ranks, final long launcherPid,
        final long createdMillis) {
        Words.putInt(segment, RANKS_OFFSET, ranks);
        Words.putInt(segment, ROW_LENGTH_FIELD_OFFSET, ROW_LENGTH);
        Words.putInt(segment, SCRATCH_SLOT_LENGTH_FIELD_OFFSET, SCRATCH_SLOT_LENGTH);
        Words.putLong(segment, LAUNCHER_PID_OFFSET, launcherPid);
        Words.putLong(segment, CREATED_MILLIS_OFFSET, createdMillis);
    }

    /**
     * Reads back and checks every job field the creator wrote, and the file's size against the job size.
     * Call after {@link FileHeader#check}.
     *
     * @return the job size.
     * @throws ShmFormatException naming the file, the field, the expected and the found value.
     */
    public static int checkJobFields(final MemorySegment segment, final Path path) {
        final int ranks = Words.getInt(segment, RANKS_OFFSET);
        if (ranks < 1 || ranks > MAX_RANKS) {
            throw new ShmFormatException(path, "job size " + ranks + " is outside 1.." + MAX_RANKS);
        }
        final int rowLength = Words.getInt(segment, ROW_LENGTH_FIELD_OFFSET);
        if (rowLength != ROW_LENGTH) {
            throw ShmFormatException.mismatch(path, "row length", ROW_LENGTH, rowLength);
        }
        final int slotLength = Words.getInt(segment, SCRATCH_SLOT_LENGTH_FIELD_OFFSET);
        if (slotLength != SCRATCH_SLOT_LENGTH) {
            throw ShmFormatException.mismatch(path, "scratch slot length", SCRATCH_SLOT_LENGTH, slotLength);
        }
        final long launcherPid = Words.getLong(segment, LAUNCHER_PID_OFFSET);
        if (launcherPid < 0) {
            throw new ShmFormatException(path, "launcher pid " + launcherPid + " is negative");
        }
        final long createdMillis = Words.getLong(segment, CREATED_MILLIS_OFFSET);
        if (createdMillis <= 0) {
            throw new ShmFormatException(path,
                "creation time " + createdMillis + " is not a time in epoch milliseconds (> 0)");
        }
        if (segment.byteSize() != fileLength(ranks)) {
            throw new ShmFormatException(path, "size " + segment.byteSize() + " does not fit a job of " + ranks
                + " ranks (" + fileLength(ranks) + " bytes)");
        }
        return ranks;
    }
}
