package org.rma4j.internal;

/**
 * The record each member of a parent communicator writes into its record area (the control file's
 * scratch slot for the world, {@link CommunicatorLayout#SLOT_RECORD_OFFSET} of a communicator file
 * otherwise) while new communicators are made from the parent (dup, split, create, Cartesian
 * constructors): what it asks for, and how the creation went at it.
 *
 * <pre>
 *   0         4         8         12        16                  24        28        32
 *   +---------+---------+---------+---------+-------------------+---------+---------+
 *   | color   | key     | number  | status  | agreement (long)  | create  | (pad)   |
 *   | (int)   | (int)   | (int)   | (int)   |                   | status  |         |
 *   +---------+---------+---------+---------+-------------------+---------+---------+
 *   32                  40                  48                  64        68
 *   +-------------------+-------------------+-------------------+---------+
 *   | create: asked     | create: free      | (pad)             | open    |
 *   | bytes (long)      | bytes (long)      |                   | status  |
 *   +-------------------+-------------------+-------------------+---------+
 * </pre>
 *
 * <p>Publication: the barriers of the creation protocol order every write before every read (see
 * {@code CommCreation}): color, key, number, status, agreement and a zero create status before barrier
 * 1, read by every member after it; a creator's create status and space fields before barrier 2, read
 * between barriers 2 and 3; the open status between barriers 2 and 3, written and read with volatile
 * access, read after barrier 3. The open status sits at the offset of the window creation record's
 * ({@link CreationRecordLayout#OPEN_STATUS_OFFSET}), and neither protocol writes that field before its
 * barrier 2, so a member that starts the next creation at once never overwrites what a slower member
 * still reads after barrier 3. Statuses are error-class codes, 0 for success.
 */
public final class CommRecordLayout {
    /** The color the member passed to split, or {@link #UNDEFINED_COLOR} (int). */
    public static final int COLOR_OFFSET = 0;
    /** The key the member passed to split (int). */
    public static final int KEY_OFFSET = COLOR_OFFSET + Integer.BYTES;
    /** The number the member gives the next communicator it creates (int). */
    public static final int NUMBER_OFFSET = KEY_OFFSET + Integer.BYTES;
    /** Outcome of the member's argument checks: 0, or the error-class code of its error (int). */
    public static final int STATUS_OFFSET = NUMBER_OFFSET + Integer.BYTES;
    /** A value every member must pass alike, e.g. a digest of the group of create (long). */
    public static final int AGREEMENT_OFFSET = STATUS_OFFSET + Integer.BYTES;
    /** A creator only: 0 if it created the file, else the error-class code of the failure (int). */
    public static final int CREATE_STATUS_OFFSET = AGREEMENT_OFFSET + Long.BYTES;
    /** A creator only, when the file did not fit: the bytes it asked for (long). */
    public static final int CREATE_ASKED_BYTES_OFFSET = CREATE_STATUS_OFFSET + 2 * Integer.BYTES;
    /** A creator only, when the file did not fit: the free bytes of the file system (long). */
    public static final int CREATE_FREE_BYTES_OFFSET = CREATE_ASKED_BYTES_OFFSET + Long.BYTES;
    /** 0 if the member mapped its new communicator's file (or has none), 1 if it could not (int, volatile). */
    public static final int OPEN_STATUS_OFFSET = CreationRecordLayout.OPEN_STATUS_OFFSET;
    /** Bytes of the record. */
    public static final int RECORD_LENGTH = OPEN_STATUS_OFFSET + Integer.BYTES;

    /** The color of a member that joins no new communicator (MPI_UNDEFINED). */
    public static final int UNDEFINED_COLOR = -32766;

    static {
        if (CREATE_FREE_BYTES_OFFSET + Long.BYTES > OPEN_STATUS_OFFSET) {
            throw new ExceptionInInitializerError("the communicator record overlaps the open status");
        }
        if (Math.max(RECORD_LENGTH, CreationRecordLayout.RECORD_LENGTH) > CommunicatorLayout.RECORD_LENGTH) {
            throw new ExceptionInInitializerError("a creation record exceeds the record area of a communicator slot");
        }
    }

    private CommRecordLayout() {
    }
}
