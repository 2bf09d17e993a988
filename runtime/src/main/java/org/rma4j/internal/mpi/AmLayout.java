package org.rma4j.internal.mpi;

import java.lang.foreign.MemorySegment;
import org.rma4j.shm.Words;

/**
 * Layout of an active message (a request an origin sends to the rank that holds the target memory, on the
 * link's message communicator with tag {@link #REQUEST_TAG}) and of its reply (tag: the request's reply tag).
 *
 * <pre>
 *   request
 *   0       4       8               16      20      24              32              40              48
 *   +-------+-------+---------------+-------+-------+---------------+---------------+---------------+
 *   | kind  | reply | window (long) | target| origin| offset (long) | arg0 (long)   | arg1 (long)   |
 *   | (int) | tag   |               | (int) | (int) |               |               |               |
 *   +-------+-------+---------------+-------+-------+---------------+---------------+---------------+
 *   48              56              64
 *   +---------------+---------------+-----------------------------------------------------------+
 *   | arg2 (long)   | payload bytes | payload                                                     |
 *   |               | (long)        |                                                             |
 *   +---------------+---------------+-----------------------------------------------------------+
 *
 *   reply
 *   0       4       8               16
 *   +-------+-------+---------------+-----------------------------------------------------------+
 *   | status| flags | payload bytes | payload (of an error: its message, UTF-8, at most          |
 *   | (int) | (int) | (long)        | MAX_ERROR_TEXT bytes)                                      |
 *   +-------+-------+---------------+-----------------------------------------------------------+
 * </pre>
 *
 * <p>The kind, window, target, origin (ranks of the window), offset and arguments are the handler's
 * ({@link AmHandler}); the link reads the reply tag (0: no reply), the window (which handler) and the payload
 * length. A message is one MPI message, written completely before it is sent: MPI's delivery orders it, no
 * field is read before the receive completed. Messages from one rank to another are handled in the order they
 * were sent (MPI's non-overtaking rule for one source, communicator and tag), also when one of them must wait
 * at the target ({@link AmHandler#handle} returned false).
 */
public final class AmLayout {
    /** Tag of requests on the message communicator. */
    public static final int REQUEST_TAG = 1;
    /** Smallest reply tag; tags up to {@link #MAX_REPLY_TAG} are given to calls in turn. */
    public static final int MIN_REPLY_TAG = 2;
    /** Largest reply tag (the smallest MPI_TAG_UB the standard allows is 32767). */
    public static final int MAX_REPLY_TAG = 32767;

    /** Kind of request, the handler's (int). */
    public static final int KIND_OFFSET = 0;
    /** Tag of the reply the origin waits for, or 0 (int). */
    public static final int REPLY_TAG_OFFSET = 4;
    /** Key of the window the request is for (long). */
    public static final int WINDOW_OFFSET = 8;
    /** Target rank, of the window (int). */
    public static final int TARGET_OFFSET = 16;
    /** Origin rank, of the window (int). */
    public static final int ORIGIN_OFFSET = 20;
    /** Byte offset in the target's memory, or an address (long). */
    public static final int OFFSET_OFFSET = 24;
    /** First argument (long). */
    public static final int ARG0_OFFSET = 32;
    /** Second argument (long). */
    public static final int ARG1_OFFSET = 40;
    /** Third argument (long). */
    public static final int ARG2_OFFSET = 48;
    /** Bytes of payload after the header (long). */
    public static final int PAYLOAD_LENGTH_OFFSET = 56;
    /** Bytes of the request header; the payload starts here. */
    public static final int HEADER_LENGTH = 64;

    /** Status of a reply: 0, or the error class code of what went wrong at the target (int). */
    public static final int REPLY_STATUS_OFFSET = 0;
    /** Flags of a reply: {@link #REPLY_FLAG_ERROR} (int). */
    public static final int REPLY_FLAGS_OFFSET = 4;
    /** Flag of a reply that reports an error: its status is the error class, its payload the message. */
    public static final int REPLY_FLAG_ERROR = 1;
    /** Longest message of an error reply, in bytes; a caller's reply buffer holds at least this payload. */
    public static final int MAX_ERROR_TEXT = 480;
    /** Bytes of payload after the reply header (long). */
    public static final int REPLY_PAYLOAD_LENGTH_OFFSET = 8;
    /** Bytes of the reply header. */
    public static final int REPLY_HEADER_LENGTH = 16;

    private AmLayout() {
    }

    /**
     * Writes a request header (the payload length included; the payload is the caller's).
     */
    public static void writeHeader(final MemorySegment message, final int kind, final long window, final int target,
        final int origin, final long offset, final long arg0, final long arg1, final long arg2,
        final long payloadBytes) {
        Words.putInt(message, KIND_OFFSET, kind);
        Words.putInt(message, REPLY_TAG_OFFSET, 0);
        Words.putLong(message, WINDOW_OFFSET, window);
        Words.putInt(message, TARGET_OFFSET, target);
        Words.putInt(message, ORIGIN_OFFSET, origin);
        Words.putLong(message, OFFSET_OFFSET, offset);
        Words.putLong(message, ARG0_OFFSET, arg0);
        Words.putLong(message, ARG1_OFFSET, arg1);
        Words.putLong(message, ARG2_OFFSET, arg2);
        Words.putLong(message, PAYLOAD_LENGTH_OFFSET, payloadBytes);
    }

    /**
     * @throws IllegalStateException if {@code length} bytes cannot hold the header and the payload it announces.
     */
    static void checkRequest(final MemorySegment message, final long length, final int source) {
        if (length < HEADER_LENGTH || Words.getLong(message, PAYLOAD_LENGTH_OFFSET) != length - HEADER_LENGTH) {
            throw new IllegalStateException("active message of " + length + " bytes from rank " + source + " announces "
                + (length < HEADER_LENGTH
                    ? "no header"
                    : Words.getLong(message, PAYLOAD_LENGTH_OFFSET) + " payload bytes"));
        }
    }
}
