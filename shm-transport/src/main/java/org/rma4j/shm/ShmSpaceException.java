package org.rma4j.shm;

import java.io.IOException;
import java.io.Serial;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * A shared file could not be created because its file system has too little free space for it (or, for
 * tmpfs, the memory limit of the process's cgroup was reached). Carries the directory, the bytes asked
 * and the bytes that were free, so a caller can say how to get more.
 */
public final class ShmSpaceException extends UncheckedIOException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final transient Path directory;
    private final long requestedBytes;
    private final long usableBytes;

    /**
     * @param file           the file that could not be given its space.
     * @param requestedBytes its size.
     * @param usableBytes    the free bytes of its file system after the attempt (-1: unknown).
     * @param cause          what the file system reported.
     */
    public ShmSpaceException(final Path file, final long requestedBytes, final long usableBytes,
        final IOException cause) {
        super("no space for shared file " + file + ": " + requestedBytes + " bytes asked, "
            + (usableBytes < 0 ? "unknown" : Long.toString(usableBytes)) + " bytes free in " + file.getParent() + " ("
            + cause.getMessage() + ")", cause);
        this.directory = file.getParent();
        this.requestedBytes = requestedBytes;
        this.usableBytes = usableBytes;
    }

    /**
     * @return the directory of the file.
     */
    public Path directory() {
        return directory;
    }

    /**
     * @return the size of the file that did not fit.
     */
    public long requestedBytes() {
        return requestedBytes;
    }

    /**
     * @return the bytes that were free in the directory's file system after the attempt, or -1 if unknown.
     */
    public long usableBytes() {
        return usableBytes;
    }
}
