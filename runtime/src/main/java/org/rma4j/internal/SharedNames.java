package org.rma4j.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.rma4j.shm.Words;

/**
 * Short file names of the job directory in fixed fields of shared memory: an int length, then that many
 * ASCII bytes. A name read from shared memory is trusted only after {@link #isJobFileName} accepted it, so
 * a corrupted field never names a path outside the job directory.
 *
 * <pre>
 *   0              4
 *   +--------------+---------------------------------------------+
 *   | length (int) | ASCII bytes (field length - 4 at most)      |
 *   +--------------+---------------------------------------------+
 * </pre>
 */
public final class SharedNames {
    private static final Pattern JOB_FILE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]*");

    private SharedNames() {
    }

    /**
     * @return the longest name a field of {@code fieldLength} bytes holds.
     */
    public static int capacity(final int fieldLength) {
        return fieldLength - Integer.BYTES;
    }

    /**
     * Writes {@code name}, a job file name or "" for none (plain stores).
     *
     * @throws IllegalArgumentException if the name is longer than the field holds or not a job file name.
     */
    public static void put(final MemorySegment segment, final long offset, final int fieldLength, final String name) {
        if (!name.isEmpty() && !isJobFileName(name) || name.length() > capacity(fieldLength)) {
            throw new IllegalArgumentException(
                "file name '" + name + "' is not a job file name of at most " + capacity(fieldLength) + " characters");
        }
        final byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length > 0) {
            MemorySegment.copy(bytes, 0, segment, ValueLayout.JAVA_BYTE, offset + Integer.BYTES, bytes.length);
        }
        Words.putInt(segment, offset, bytes.length);
    }

    /**
     * Reads a name (plain loads); whatever the field holds, the result has at most the field's capacity of
     * characters (a torn or corrupted field reads as some string, never as an exception).
     */
    public static String get(final MemorySegment segment, final long offset, final int fieldLength) {
        final int length = Math.max(0, Math.min(Words.getInt(segment, offset), capacity(fieldLength)));
        if (length == 0) {
            // NOTE: no zero-length copy: it would teach the JIT that MemorySegment bounds checks see empty
            // ranges, and the slices of every put and get would then escape (no scalar replacement).
            return "";
        }
        final byte[] bytes = new byte[length];
        MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, offset + Integer.BYTES, bytes, 0, length);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /**
     * @return whether {@code name} can be a file of a job directory: letters, digits, '-' and '_', not
     *         starting with '-' or '_' (so never "..", "/" or an option).
     */
    public static boolean isJobFileName(final String name) {
        return name != null && JOB_FILE_NAME.matcher(name).matches();
    }
}
