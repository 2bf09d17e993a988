package org.rma4j;

import java.nio.file.Path;
import org.rma4j.shm.ShmSpaceException;

/**
 * The {@link RmaException}s that failures of the job's shared files become at the public API: too
 * little space in the job's file system is NO_MEM (the class of MPI_ALLOC_MEM when memory is exhausted,
 * used for windows too, since their memory is allocated the same way), with the directory, the bytes
 * asked and free, and how to get more.
 */
final class SharedFileErrors {
    private SharedFileErrors() {
    }

    /**
     * @param what   the failed call and what it could not create, e.g. {@code "allocMem size=4096"}.
     * @param cause  the failure (null at a rank that learnt of it from another rank).
     */
    static RmaException noSpace(final String what, final Path directory, final long requestedBytes,
        final long usableBytes, final Throwable cause) {
        return new RmaException(ErrorClass.NO_MEM, what + ": " + requestedBytes + " bytes of shared memory asked, "
            + (usableBytes < 0 ? "an unknown number of" : Long.toString(usableBytes)) + " bytes free in " + directory
            + "; give the job a directory with more room (rmarun --shm-dir DIR) or, in a container, more shared"
            + " memory (docker run --shm-size=SIZE)", cause);
    }

    static RmaException noSpace(final String what, final ShmSpaceException cause) {
        return noSpace(what, cause.directory(), cause.requestedBytes(), cause.usableBytes(), cause);
    }
}
