package org.rma4j.shm;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * The prefix every rma4j shared file starts with, and its validation on open.
 *
 * <pre>
 *   0               8       12      16              24
 *   +---------------+-------+-------+---------------+
 *   | magic (long)  |version| ready | size (long)   |
 *   +---------------+-------+-------+---------------+
 * </pre>
 *
 * The creator writes every other field of the file, then the header, then {@code ready = 1} with a
 * release store; an opener reads {@code ready} with an acquire load before trusting anything else.
 */
public final class FileHeader {
    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 8;
    public static final int READY_OFFSET = 12;
    public static final int SIZE_OFFSET = 16;
    /** Bytes of the common prefix. */
    public static final int LENGTH = 24;

    private FileHeader() {
    }

    /**
     * Writes the header and publishes the file as ready.
     */
    public static void publish(final MemorySegment segment, final long magic, final int version) {
        Words.putLong(segment, MAGIC_OFFSET, magic);
        Words.putInt(segment, VERSION_OFFSET, version);
        Words.putLong(segment, SIZE_OFFSET, segment.byteSize());
        Words.putIntRelease(segment, READY_OFFSET, 1);
    }

    /**
     * Checks magic, version, readiness and size of a mapped file.
     *
     * @throws ShmFormatException naming the file and the offending value.
     */
    public static void check(final MemorySegment segment, final Path path, final long magic, final int version) {
        if (segment.byteSize() < LENGTH) {
            throw new ShmFormatException(path, "size " + segment.byteSize() + " is smaller than its header");
        }
        if (Words.getIntAcquire(segment, READY_OFFSET) != 1) {
            throw new ShmFormatException(path, "was never completely initialised (ready flag not set)");
        }
        final long actualMagic = Words.getLong(segment, MAGIC_OFFSET);
        if (actualMagic != magic) {
            throw new ShmFormatException(path, String.format(
                "magic 0x%016x is not the expected 0x%016x", actualMagic, magic));
        }
        final int actualVersion = Words.getInt(segment, VERSION_OFFSET);
        if (actualVersion != version) {
            throw new ShmFormatException(path, "layout version " + actualVersion + " is not the supported " + version);
        }
        final long recordedSize = Words.getLong(segment, SIZE_OFFSET);
        if (recordedSize != segment.byteSize()) {
            throw new ShmFormatException(path, "size " + segment.byteSize() + " differs from the recorded " + recordedSize);
        }
    }
}
