package org.rma4j.examples.notified;

/**
 * One rank's communication in {@link PipelinedStencil} for one synchronization variant: the boundary
 * value of each row from the left neighbour, to the right neighbour, and the corner value from the
 * last rank to rank 0 at the end of each pass. A pass at rank r of P:
 * <pre>
 *   beginPass(pass)
 *   for row 1 .. n-1:  [r > 0] left = receiveLeft(row);  compute row;  [r < P-1] sendRight(row, last value)
 *   [r = P-1] sendCorner(-corner)          [r = 0] A(0,0) = receiveCorner()          (P > 1 only)
 *   endPass()
 * </pre>
 */
interface PipelineChannel extends AutoCloseable {
    /**
     * Starts pass {@code pass} (0, 1, ...).
     */
    void beginPass(int pass);

    /**
     * Blocks until A(lo-1, row) has arrived from the left neighbour and returns it.
     */
    double receiveLeft(int row);

    /**
     * Delivers A(hi-1, row) to the right neighbour.
     */
    void sendRight(int row, double value);

    /**
     * At the last rank: delivers the next A(0, 0) to rank 0.
     */
    void sendCorner(double value);

    /**
     * At rank 0: blocks until the next A(0, 0) has arrived from the last rank and returns it.
     */
    double receiveCorner();

    /**
     * Ends the pass.
     */
    default void endPass() {
    }

    /**
     * Collective: releases the window and requests.
     */
    @Override
    void close();
}
