package org.rma4j.shm;

/**
 * Layout of a job's control file.
 *
 * <pre>
 *   0                                                                      128
 *   +---------------------------------------------------------------------+
 *   | FileHeader (24 B) | ranks (int) | pad | launcherPid (long) | created  |
 *   | 64 abort status (wait word: 0, or ABORT_FLAG | status; set once)      |
 *   +---------------------------------------------------------------------+ 128
 *   | BarrierLayout: arrivals line, generation line (256 B)               |
 *   +---------------------------------------------------------------------+ 384
 *   | rank table: one 128 B row per rank                                   |
 *   |   0 pid (long) | 8 startMillis (long) | 16 state (wait word)         |
 *   |  64 collective call, even sequence (long) | 72 odd sequence (long)  |
 *   +---------------------------------------------------------------------+
 *   | scratch: one SCRATCH_SLOT_LENGTH slot per rank, for collective       |
 *   | exchanges (each slot written by its rank only, between barriers)    |
 *   +---------------------------------------------------------------------+
 * </pre>
 *
 * Each rank writes only its own row and slot; rows and slots are 128 bytes apart. A row is
 * published by a volatile store of its state word after pid and start time. A rank publishes the
 * collective call it enters (an opaque long the runtime encodes: kind, object, job-wide sequence
 * number) with a volatile store into the call word of the sequence's parity before it waits, so that
 * peers that finished the same collective can compare it while this rank already enters the next.
 * A rank publishes what it is blocked in ({@link WaitState}) on the slow path of a wait: it stores
 * window, peer, call number and time, then the wait call code with a volatile store; it clears the
 * call code (volatile store of 0) when the wait ends. A reader loads the code, the fields, and the
 * code and time again, and keeps the state only if they did not change (diagnostics, not synchronization).
 * The abort status is set at most once, by a compare-and-set from 0, and woken.
 */
public final class ControlLayout {
    /** "RMA4JCTL" in ASCII. */
    public static final long MAGIC = 0x524D41344A43544CL;
    public static final int VERSION = 2;

    public static final int RANKS_OFFSET = FileHeader.LENGTH;
    public static final int LAUNCHER_PID_OFFSET = 32;
    public static final int CREATED_MILLIS_OFFSET = 40;
    /** Wait word: 0 while the job runs; {@link #ABORT_FLAG} | status once a rank aborted the job. */
    public static final int ABORT_OFFSET = 64;
    /** Marks the abort word as set (so that status 0 can be told apart from "not aborted"). */
    public static final int ABORT_FLAG = 1 << 30;
    public static final int BARRIER_OFFSET = Align.PAD;
    public static final int RANK_TABLE_OFFSET = BARRIER_OFFSET + BarrierLayout.LENGTH;

    public static final int ROW_LENGTH = Align.PAD;
    public static final int ROW_PID_OFFSET = 0;
    public static final int ROW_START_MILLIS_OFFSET = 8;
    public static final int ROW_STATE_OFFSET = 16;
    /** Two longs: the collective call the rank entered last with an even, then odd, sequence number. */
    public static final int ROW_CALL_OFFSET = 64;

    /** Wait call code ({@link WaitState.Call} ordinal + 1; 0: not blocked), then window, peer, call number. */
    public static final int ROW_WAIT_CALL_OFFSET = 80;
    public static final int ROW_WAIT_WINDOW_OFFSET = 84;
    public static final int ROW_WAIT_PEER_OFFSET = 88;
    public static final int ROW_WAIT_CALL_NUMBER_OFFSET = 92;
    /** Epoch milliseconds at which the wait state was published. */
    public static final int ROW_WAIT_SINCE_MILLIS_OFFSET = 96;

    /** Bytes of collective scratch space per rank. */
    public static final int SCRATCH_SLOT_LENGTH = 1024;

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

    public static long fileLength(final int ranks) {
        return scratchOffset(ranks, ranks);
    }

    /**
     * @throws IllegalArgumentException if ranks is outside 1..MAX_RANKS.
     */
    public static void checkRanks(final int ranks) {
        if (ranks < 1 || ranks > MAX_RANKS) {
            throw new IllegalArgumentException("job size " + ranks + " is outside 1.." + MAX_RANKS);
        }
    }
}
