/**
 * Runnable rma4j programs that verify their own results, one package per kind of program:
 * {@link org.rma4j.examples.stencil} (Jacobi stencils with each synchronization mode of MPI-3 RMA) and
 * {@link org.rma4j.examples.mcs} (the MCS mutex built from atomic operations in a passive-target
 * epoch). Each program runs under {@code bin/rmarun} as a job of processes, alone as a job of one
 * rank, and in thread mode from its tests; rank 0 prints one summary line ending in VERIFIED or
 * FAILED and the job exits with status 1 on FAILED.
 *
 * <p>{@link org.rma4j.examples.SpinWait} is the idle step the polling loops share.
 */
package org.rma4j.examples;
