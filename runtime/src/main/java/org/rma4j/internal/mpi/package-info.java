/**
 * A rank's connection to MPI in a job that spans several nodes (not exported): the serialization of the
 * rank's MPI calls ({@code MPI_THREAD_SERIALIZED}), the progress it must drive so that peers' one-sided
 * operations and messages are served ({@link org.rma4j.internal.mpi.MpiLink#poll}, the progress thread), the
 * completion of nonblocking MPI operations by testing, and the active messages through which an origin asks
 * the node that holds a location to apply an operation there ({@link org.rma4j.internal.mpi.AmLayout},
 * {@link org.rma4j.internal.mpi.AmHandler}).
 *
 * <p>Every call into MPI of the runtime holds {@link org.rma4j.internal.mpi.MpiLink#lock()}; no thread waits
 * while holding it, so that a peer's request is always served by some thread of this rank within the progress
 * interval.
 */
package org.rma4j.internal.mpi;
