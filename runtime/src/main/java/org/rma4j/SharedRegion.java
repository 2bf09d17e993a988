package org.rma4j;

import java.lang.foreign.MemorySegment;

/**
 * The result of {@link Window#sharedQuery}: a rank's part of a shared window, for direct loads and
 * stores (MPI_WIN_SHARED_QUERY, MPI-3.1 section 11.2.3).
 *
 * @param rank     the rank whose part this is.
 * @param segment  that rank's memory in this process's mapping ({@code sizeBytes} long).
 * @param sizeBytes the size the rank passed at creation.
 * @param dispUnit the rank's displacement unit.
 */
public record SharedRegion(int rank, MemorySegment segment, long sizeBytes, int dispUnit) {
}
