package org.rma4j.mpi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * What {@code MPI_Status} tells of a received or probed message (MPI-3.1 section 3.2.5).
 *
 * @param source the sender's rank ({@link Mpi#PROC_NULL} for a receive from it).
 * @param tag    the message's tag ({@link Mpi#ANY_TAG} for a receive from {@code MPI_PROC_NULL}).
 * @param error  the error code field.
 * @param count  the number of elements received ({@code MPI_Get_count}; bytes for a probe),
 *               {@link Mpi#UNDEFINED} if not a whole number of elements.
 */
public record MpiStatus(int source, int tag, int error, int count) {
    /** Reads the status the implementation wrote into {@code status}, counting in {@code type}. */
    static MpiStatus read(final MemorySegment status, final MpiDatatype type) {
        final Scratch scratch = Scratch.get();
        final int rc;
        try {
            rc = (int)MpiNative.GET_COUNT.invokeExact(status, type.handle(), scratch.int2);
        } catch (final Throwable t) {
            throw Errors.rethrow(t);
        }
        if (rc != 0) {
            throw Errors.of(rc, "MPI_Get_count", "datatype=" + type);
        }
        final int count = scratch.int2();
        return new MpiStatus(Predefined.portableRank(status.get(ValueLayout.JAVA_INT, Predefined.STATUS_SOURCE)),
            Predefined.portableTag(status.get(ValueLayout.JAVA_INT, Predefined.STATUS_TAG)),
            status.get(ValueLayout.JAVA_INT, Predefined.STATUS_ERROR),
            count == Predefined.UNDEFINED ? Mpi.UNDEFINED : count);
    }
}
