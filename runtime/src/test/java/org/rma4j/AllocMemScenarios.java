package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Programs run at every rank of a two-rank job by {@link AllocMemContractTest}: memory from
 * {@link RmaJob#allocMem} of every small size, exposed to the other rank.
 */
final class AllocMemScenarios {
    /** Every size from 0 to this is tried, each as its own allocation. */
    static final int LARGEST_SIZE = 64;

    private AllocMemScenarios() {
    }

    /**
     * Each rank exposes allocMem(n) through {@code create}; the other rank puts n bytes into it and reads
     * them back, and the owner finds them in its memory.
     */
    static void createOverEverySmallSize(final RmaJob job) {
        final int me = job.rank();
        final int other = 1 - me;
        for (int n = 0; n <= LARGEST_SIZE; n++) {
            final MemorySegment memory = job.allocMem(n);
            try (Window window = job.create(memory, 1, null)) {
                assertEquals(n, window.size());
                window.fence(0);
                window.put(pattern(other, n), 0, n, other, 0);
                final byte[] readBack = new byte[n];
                window.get(readBack, 0, n, other, 0);
                assertArrayEquals(pattern(other, n), readBack, "get after put, n=" + n);
                window.fence(0);
                assertArrayEquals(pattern(me, n), memory.toArray(ValueLayout.JAVA_BYTE), "the other's put, n=" + n);
                window.fence(0);
            }
            job.freeMem(memory);
        }
    }

    /**
     * Each rank attaches allocMem(n) to a dynamic window and publishes its address; the other rank puts n
     * bytes at that address (its first access to the region) and the owner finds them in its memory.
     */
    static void dynamicRegionOfEverySmallSize(final RmaJob job) {
        final int me = job.rank();
        final int other = 1 - me;
        try (Window dynamic = job.createDynamic(null); Window addresses = job.allocateShared(8, 8)) {
            for (int n = 0; n <= LARGEST_SIZE; n++) {
                final MemorySegment region = job.allocMem(n);
                dynamic.attach(region);
                addresses.segment().set(ValueLayout.JAVA_LONG, 0, Rma.address(region));
                job.barrier();
                final long otherAddress = addresses.sharedQuery(other).segment().get(ValueLayout.JAVA_LONG, 0);
                dynamic.lockAll();
                dynamic.put(pattern(other, n), 0, n, other, otherAddress);
                dynamic.flush(other);
                final byte[] readBack = new byte[n];
                dynamic.get(readBack, 0, n, other, otherAddress);
                dynamic.unlockAll();
                assertArrayEquals(pattern(other, n), readBack, "get after put, n=" + n);
                job.barrier();
                assertArrayEquals(pattern(me, n), region.toArray(ValueLayout.JAVA_BYTE), "the other's put, n=" + n);
                // NOTE: both ranks have read what they check before either detaches and frees its region.
                job.barrier();
                dynamic.detach(region);
                job.freeMem(region);
            }
        }
    }

    /**
     * @return the n bytes put into rank {@code target}'s memory: distinct per size, rank and position, none 0.
     */
    private static byte[] pattern(final int target, final int n) {
        final byte[] bytes = new byte[n];
        for (int i = 0; i < n; i++) {
            bytes[i] = (byte)(1 + i + 64 * target + 3 * n);
        }
        return bytes;
    }
}
