package org.rma4j.examples.notified;

import java.lang.foreign.MemorySegment;

/**
 * How {@link TileCholesky} moves a factored panel tile from the rank that computed it to the ranks
 * whose tasks need it, in one synchronization variant. A tile is named by its tag
 * ({@link CholeskyLayout#tag}); a consumer cannot know which tile comes next, so it learns the name
 * from the arrival (Belli and Hoefler, section VI-C).
 */
interface TileTransport extends AutoCloseable {
    /**
     * Delivers {@code tile} (b x b doubles) to each rank of {@code consumers}.
     */
    void publish(int tag, double[] tile, int[] consumers);

    /**
     * Blocks until a tile addressed to this rank has arrived.
     *
     * @return the arrival: the tile's tag and a view of its b x b doubles, valid until the next call.
     */
    Arrival receive();

    /**
     * Collective: releases what the transport holds (not the tile window, which it borrows).
     */
    @Override
    void close();

    /**
     * One arrived tile.
     *
     * @param tag  the tile's name.
     * @param data its b x b doubles, row by row.
     */
    record Arrival(int tag, MemorySegment data) {
    }
}
