package org.rma4j;

/**
 * The MPI_WIN_MODEL attribute (MPI-3.1 section 11.4). rma4j windows are always {@link #UNIFIED}: the
 * machine is cache-coherent, so the public and private copies of a window are the same memory.
 */
public enum MemoryModel {
    /** MPI_WIN_SEPARATE (never reported by rma4j). */
    SEPARATE,
    /** MPI_WIN_UNIFIED. */
    UNIFIED
}
