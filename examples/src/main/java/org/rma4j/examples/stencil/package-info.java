/**
 * Jacobi stencils on a 2-D grid, one per synchronization mode of MPI-3 RMA, all verified bit for bit
 * against a sequential reference ({@link org.rma4j.examples.stencil.Jacobi#sequential}).
 *
 * <ul>
 *   <li>{@link org.rma4j.examples.stencil.JacobiFence}: horizontal strips, halos put in fence epochs
 *   (the first example of the README).</li>
 *   <li>{@link org.rma4j.examples.stencil.JacobiPscw}: the same with post / start / complete / wait
 *   over neighbour groups.</li>
 *   <li>{@link org.rma4j.examples.stencil.JacobiPassive}: the same in one lock_all epoch, halos
 *   announced by flushed atomic counters.</li>
 *   <li>{@link org.rma4j.examples.stencil.JacobiColumns}: vertical strips, column halos moved with
 *   vector datatypes, in fence epochs.</li>
 * </ul>
 * They share the kernel ({@code Jacobi}), the decomposition and window layout ({@code StripLayout}) and
 * the run ({@link org.rma4j.examples.stencil.StripStencil}); each differs only in its
 * {@code HaloExchange}.
 *
 * <h2>Promises</h2>
 * Every program prints at rank 0 one line
 * {@code stencil <name>: grid NXxNY, I iterations, R ranks, T ms, max |diff| vs sequential = D: VERIFIED}
 * (FAILED and exit status 1 when D exceeds {@link org.rma4j.examples.stencil.StripStencil#TOLERANCE}).
 * Within a synchronization phase no location is both put and loaded, nor both put and stored
 * (MPI-3.1 section 11.7).
 */
package org.rma4j.examples.stencil;
