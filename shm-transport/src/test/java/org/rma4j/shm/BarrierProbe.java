package org.rma4j.shm;

import java.lang.foreign.MemorySegment;

/**
 * Reads the region of a {@link DisseminationBarrier} from outside its parties, whichever barrier the region holds on
 * this machine (the central counter barrier with more parties than CPUs).
 */
final class BarrierProbe {
    private BarrierProbe() {
    }

    /**
     * @return the episodes the barrier of {@code parties} (two or more) at {@code offset} has completed, as far as
     *         party 0 has seen: the generation of the central barrier, or the last flag party 0 waited on.
     */
    static int completed(final MemorySegment segment, final long offset, final int parties) {
        if (DisseminationBarrier.central(parties)) {
            return Words.getIntVolatile(segment, offset + BarrierLayout.GENERATION_OFFSET);
        }
        return Words.getIntVolatile(segment,
            offset + DisseminationBarrierLayout.flagOffset(parties, 0, DisseminationBarrierLayout.rounds(parties) - 1));
    }

    /**
     * @return whether party 0 has arrived at the first episode of a barrier of two parties at {@code offset} while
     *         party 1 has not: the central barrier counts one arrival, the dissemination barrier has party 1's flag
     *         of round 0 at episode 1 and party 0's at 0.
     */
    static boolean onlyFirstArrived(final MemorySegment segment, final long offset) {
        if (DisseminationBarrier.central(2)) {
            return Words.getIntVolatile(segment, offset + BarrierLayout.ARRIVALS_OFFSET) == 1;
        }
        return Words.getIntVolatile(segment, offset + DisseminationBarrierLayout.flagOffset(2, 1, 0)) == 1
            && Words.getIntVolatile(segment, offset + DisseminationBarrierLayout.flagOffset(2, 0, 0)) == 0;
    }
}
