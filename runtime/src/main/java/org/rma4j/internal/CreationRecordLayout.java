package org.rma4j.internal;

import org.rma4j.shm.Align;

/**
 * The record each rank writes into its collective scratch slot of the control file
 * ({@code ControlLayout.SCRATCH_SLOT_LENGTH} bytes per rank) while a window is created: what it
 * proposes, and how the creation went at it. Every field is read by every rank (rank 0's
 * create-status and space fields by all others) after the barrier that follows its writing.
 *
 * <pre>
 *   0                   8         12        16        20        24                  32
 *   +-------------------+---------+---------+---------+---------+-------------------+
 *   | size (long)       | disp    | status  | flags   | create  | (pad)             |
 *   |                   | unit    |         |         | status  |                   |
 *   +-------------------+---------+---------+---------+---------+-------------------+
 *   32                  40        44        48                  56                  64        68
 *   +-------------------+---------+---------+-------------------+-------------------+---------+
 *   | memory offset     | notify  | key     | create: asked     | create: free      | open    |
 *   | (long)            | capacity| number  | bytes (long)      | bytes (long)      | status  |
 *   +-------------------+---------+---------+-------------------+-------------------+---------+
 *   72                                                                                        136
 *   +-----------------------------------------------------------------------------------------+
 *   | memory file: name of the job file holding this rank's memory (SharedNames, 64 B), or "" |
 *   +-----------------------------------------------------------------------------------------+
 *   136                 144
 *   +-------------------+
 *   | base address      |  a window across nodes: where this rank's memory is, in its process
 *   | (long)            |
 *   +-------------------+
 * </pre>
 *
 * <p>Publication: the barriers of the creation protocol order every write before every read (see
 * {@code WindowCreation}): fields up to memory offset and notify capacity before barrier 1, the file
 * creator's (rank 0's; in a window across nodes the first rank of each node) create status and space fields
 * before barrier 2, the base address and the open status between barriers 2 and 3, the open status written
 * and read with volatile access. Statuses are error-class codes ({@code ErrorClass}), 0 for success.
 */
public final class CreationRecordLayout {
    /** Bytes this rank exposes (long). */
    public static final int SIZE_OFFSET = 0;
    /** Length of {@link #SIZE_OFFSET}'s field. */
    public static final int SIZE_LENGTH = Long.BYTES;
    /** Displacement unit of this rank (int). */
    public static final int DISP_UNIT_OFFSET = SIZE_OFFSET + SIZE_LENGTH;
    /** Length of {@link #DISP_UNIT_OFFSET}'s field. */
    public static final int DISP_UNIT_LENGTH = Integer.BYTES;
    /** Outcome of this rank's argument checks: 0, or the error-class code of its error (int). */
    public static final int STATUS_OFFSET = DISP_UNIT_OFFSET + DISP_UNIT_LENGTH;
    /** Length of {@link #STATUS_OFFSET}'s field. */
    public static final int STATUS_LENGTH = Integer.BYTES;
    /** {@link #FLAG_NONCONTIG} if this rank asked for alloc_shared_noncontig (int). */
    public static final int FLAGS_OFFSET = STATUS_OFFSET + STATUS_LENGTH;
    /** Length of {@link #FLAGS_OFFSET}'s field. */
    public static final int FLAGS_LENGTH = Integer.BYTES;
    /** The file's creator only: 0 if it created the window file, else the error-class code of the failure (int). */
    public static final int CREATE_STATUS_OFFSET = FLAGS_OFFSET + FLAGS_LENGTH;
    /** Length of {@link #CREATE_STATUS_OFFSET}'s field. */
    public static final int CREATE_STATUS_LENGTH = Integer.BYTES;
    /** Flavor CREATE: offset of this rank's memory in its memory file (long, 8-aligned). */
    public static final int MEMORY_OFFSET_OFFSET = (int)Align.up(CREATE_STATUS_OFFSET + CREATE_STATUS_LENGTH,
        Long.BYTES);
    /** Length of {@link #MEMORY_OFFSET_OFFSET}'s field. */
    public static final int MEMORY_OFFSET_LENGTH = Long.BYTES;
    /** Entries of each notification ring this rank asks for; rank 0's is used (int). */
    public static final int NOTIFY_CAPACITY_OFFSET = MEMORY_OFFSET_OFFSET + MEMORY_OFFSET_LENGTH;
    /** Length of {@link #NOTIFY_CAPACITY_OFFSET}'s field. */
    public static final int NOTIFY_CAPACITY_LENGTH = Integer.BYTES;
    /**
     * A number the rank took for the windows it names; rank 0's and its job rank make the key of a window across
     * nodes in its requests (int).
     */
    public static final int KEY_NUMBER_OFFSET = NOTIFY_CAPACITY_OFFSET + NOTIFY_CAPACITY_LENGTH;
    /** Length of {@link #KEY_NUMBER_OFFSET}'s field. */
    public static final int KEY_NUMBER_LENGTH = Integer.BYTES;
    /** Rank 0 only, when the window file did not fit: the bytes it asked for (long, 8-aligned). */
    public static final int CREATE_ASKED_BYTES_OFFSET = (int)Align.up(KEY_NUMBER_OFFSET + KEY_NUMBER_LENGTH,
        Long.BYTES);
    /** Length of {@link #CREATE_ASKED_BYTES_OFFSET}'s field. */
    public static final int CREATE_ASKED_BYTES_LENGTH = Long.BYTES;
    /** Rank 0 only, when the window file did not fit: the free bytes of the file system (long). */
    public static final int CREATE_FREE_BYTES_OFFSET = CREATE_ASKED_BYTES_OFFSET + CREATE_ASKED_BYTES_LENGTH;
    /** Length of {@link #CREATE_FREE_BYTES_OFFSET}'s field. */
    public static final int CREATE_FREE_BYTES_LENGTH = Long.BYTES;
    /** 0 if this rank mapped the window, 1 if it could not (int, volatile). */
    public static final int OPEN_STATUS_OFFSET = CREATE_FREE_BYTES_OFFSET + CREATE_FREE_BYTES_LENGTH;
    /** Length of {@link #OPEN_STATUS_OFFSET}'s field. */
    public static final int OPEN_STATUS_LENGTH = Integer.BYTES;
    /**
     * Flavor CREATE: the name of the job file that holds this rank's memory ({@link SharedNames}): an
     * {@code allocMem} file or the file of a window whose memory it is; empty for none.
     */
    public static final int MEMORY_FILE_NAME_OFFSET = (int)Align.up(OPEN_STATUS_OFFSET + OPEN_STATUS_LENGTH,
        Long.BYTES);
    /** Length of {@link #MEMORY_FILE_NAME_OFFSET}'s field. */
    public static final int MEMORY_FILE_NAME_LENGTH = 64;
    /**
     * A window across nodes: the address of this rank's memory in its process (long), where origins on other
     * nodes put and get through MPI, and by which they check the alignment of their atomics at the call.
     */
    public static final int BASE_ADDRESS_OFFSET = MEMORY_FILE_NAME_OFFSET + MEMORY_FILE_NAME_LENGTH;
    /** Length of {@link #BASE_ADDRESS_OFFSET}'s field. */
    public static final int BASE_ADDRESS_LENGTH = Long.BYTES;
    /** Bytes of the record; at most the scratch slot's length. */
    public static final int RECORD_LENGTH = BASE_ADDRESS_OFFSET + BASE_ADDRESS_LENGTH;

    /** Bit of {@link #FLAGS_OFFSET}: the rank asked for alloc_shared_noncontig. */
    public static final int FLAG_NONCONTIG = 1;

    private CreationRecordLayout() {
    }
}
