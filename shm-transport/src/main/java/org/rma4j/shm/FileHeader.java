package org.rma4j.shm;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * The prefix every rma4j shared file starts with, and its validation on open.
 *
 * <pre>
 *   0                   8         12        16                  24
 *   +-------------------+---------+---------+-------------------+
 *   | magic (long)      | version | ready   | size (long)       |
 *   |                   | (int)   | (int)   |                   |
 *   +-------------------+---------+---------+-------------------+
 * </pre>
 *
 * Publication rule: the creator (the only writer) fills every other field of the file, then magic,
 * version and size with plain stores, then {@code ready = 1} with a release store; an opener reads
 * {@code ready} with an acquire load ({@link #check}) before it trusts anything else in the file, so
 * it sees every store the creator made before publishing. Nobody writes the header afterwards.
 */
public final class FileHeader {
    /** Offset of the file type's magic number (long), e.g. {@link ControlLayout#MAGIC}. */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the file type's layout version (int); an opener accepts only its own version. */
    public static final int VERSION_OFFSET = MAGIC_OFFSET + Long.BYTES;
    /** Offset of the ready flag (int): {@link #READY} once the creator published the file, 0 before. */
    public static final int READY_OFFSET = VERSION_OFFSET + Integer.BYTES;
    /** Offset of the file's size in bytes (long) as the creator made it. */
    public static final int SIZE_OFFSET = READY_OFFSET + Integer.BYTES;
    /** Bytes of the common prefix; a file type's own fields start here. */
    public static final int LENGTH = SIZE_OFFSET + Long.BYTES;

    /** Value of the ready flag of a published file. */
    public static final int READY = 1;

    private FileHeader() {
    }

    /**
     * Writes the header and publishes the file as ready. Call after every other field of the file is written.
     */
    public static void publish(final MemorySegment segment, final long magic, final int version) {
        Words.putLong(segment, MAGIC_OFFSET, magic);
        Words.putInt(segment, VERSION_OFFSET, version);
        Words.putLong(segment, SIZE_OFFSET, segment.byteSize());
        Words.putIntRelease(segment, READY_OFFSET, READY);
    }

    /**
     * Checks size, readiness, magic, version and recorded size of a mapped file, in that order.
     *
     * @throws ShmFormatException naming the file, the field, the expected and the found value.
     */
    public static void check(final MemorySegment segment, final Path path, final long magic, final int version) {
        if (segment.byteSize() < LENGTH) {
            throw new ShmFormatException(path,
                "size " + segment.byteSize() + " is smaller than its header (" + LENGTH + " bytes)");
        }
        final int ready = Words.getIntAcquire(segment, READY_OFFSET);
        if (ready != READY) {
            throw new ShmFormatException(path,
                "was never completely initialised: its ready flag is " + ready + ", expected " + READY);
        }
        final long actualMagic = Words.getLong(segment, MAGIC_OFFSET);
        if (actualMagic != magic) {
            throw new ShmFormatException(path,
                String.format("magic 0x%016x is not the expected 0x%016x", actualMagic, magic));
        }
        final int actualVersion = Words.getInt(segment, VERSION_OFFSET);
        if (actualVersion != version) {
            throw new ShmFormatException(path, "layout version " + actualVersion + " is not the supported " + version);
        }
        final long recordedSize = Words.getLong(segment, SIZE_OFFSET);
        if (recordedSize != segment.byteSize()) {
            throw new ShmFormatException(path,
                "size " + segment.byteSize() + " differs from the recorded " + recordedSize);
        }
    }
}
