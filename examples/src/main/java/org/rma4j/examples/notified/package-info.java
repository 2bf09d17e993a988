/**
 * The applications of Belli and Hoefler, "Notified Access: Extending Remote Memory Access Programming
 * Models for Producer-Consumer Synchronization" (IPDPS 2015), sections V and VI, each written once per
 * synchronization scheme the paper compares ({@link org.rma4j.examples.notified.Sync}) so that the
 * schemes can be measured against each other on the same problem:
 *
 * <ul>
 *   <li>{@link org.rma4j.examples.notified.PingPong}: half round trip between two ranks, 8 B to 1 MiB
 *   (section V-A, Listing 1).</li>
 *   <li>{@link org.rma4j.examples.notified.PipelinedStencil}: the Sync_p2p kernel of the Parallel
 *   Research Kernels, a wavefront pipelined over the ranks (section VI-A).</li>
 *   <li>{@link org.rma4j.examples.notified.TreeReduction}: a 16-ary reduction tree; the notified
 *   parent waits for all its children with one counting request (section VI-B).</li>
 *   <li>{@link org.rma4j.examples.notified.TileCholesky}: a tile Cholesky factorization run as a task
 *   DAG; a notification's tag names the tile that arrived (section VI-C).</li>
 * </ul>
 *
 * Each program separates the computation from its communication, an interface per program with one
 * implementation per variant ({@code PingPongChannel}, {@code PipelineChannel},
 * {@code ReductionChannel}, {@code TileTransport}); the window layouts are described by the
 * {@code *Layout} classes. The message-passing variants use {@link org.rma4j.messaging.Messaging}.
 *
 * <h2>Promises</h2>
 * Every program verifies its numerical result (echoed payloads, PRK's corner value, exact sums, the
 * Cholesky residual), prints at rank 0 one line per variant ending in VERIFIED or FAILED, and exits with
 * status 1 if a result is wrong, 2 for bad arguments. Every program takes the variant to run as its
 * first argument ({@code all} by default) and runs under {@code bin/rmarun}, alone as a job of one rank
 * (except the ping-pong, which needs two) and in thread mode from its tests. Timings are medians or
 * means measured by rank 0; on a machine with fewer cores than ranks they measure the scheduler as much
 * as the synchronization.
 *
 * <h2>Waiting</h2>
 * The notified, send/recv, PSCW and fence variants block in the runtime's calls, which spin, yield and
 * then sleep on a futex as {@code rma4j.wait} configures ({@link org.rma4j.WaitOptions}); the
 * putflush variants poll a flag with fetch_and_op(NO_OP) and never sleep. For latency comparisons with
 * no more ranks than cores, run every variant busy-spinning:
 * {@code bin/rmarun --jvm-opt -Drma4j.wait=busy-spin ...}.
 */
package org.rma4j.examples.notified;
