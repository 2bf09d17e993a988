/**
 * An FFM binding ({@link java.lang.foreign}) of the MPI calls rma4j needs to run across nodes: environment,
 * communicators and groups, collectives, point-to-point, and the one-sided chapter (window creation,
 * communication and synchronization calls) of MPI-3.1.
 *
 * <p>{@link org.rma4j.mpi.Mpi} initializes the library; {@link org.rma4j.mpi.MpiComm},
 * {@link org.rma4j.mpi.MpiGroup}, {@link org.rma4j.mpi.MpiWin} and {@link org.rma4j.mpi.MpiRequest} are small
 * typed wrappers of the implementation's handles. Everything that differs between Open MPI and MPICH (handle
 * representation, predefined objects, {@code MPI_Status}, constants) is behind {@link org.rma4j.mpi.MpiAbi};
 * {@link org.rma4j.mpi.MpiLibraryLocator} finds the library.
 *
 * <p>A failing call throws {@link org.rma4j.mpi.MpiException} with the MPI error class. The calls allocate
 * nothing on the Java heap or in native memory on the success path of the communication and synchronization
 * calls: out parameters live in a per-thread preallocated area.
 *
 * <p>Nothing here knows rma4j's public API; the runtime builds its MPI transport on top.
 */
package org.rma4j.mpi;
