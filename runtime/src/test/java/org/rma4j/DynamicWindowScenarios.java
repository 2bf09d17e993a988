package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.rma4j.AccumulateScenarios.expect;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The programs of the dynamic-window contract tests ({@link DynamicWindowContractTest}): many attached
 * regions on one rank (MPI_WIN_ATTACH, MPI-3.1 section 11.2.4, without a fixed limit) reached by every
 * other rank, detach and re-attach, and attach and detach of other regions while origins access the
 * regions attached before their synchronization.
 */
final class DynamicWindowScenarios {
    /** Regions rank 0 attaches: half of them allocations of their own, half slices of one allocation. */
    static final int REGIONS = 1_000;
    /** Attaches plus detaches rank 0 makes while the origins access: many more than the change log holds. */
    static final int CHURN = 2_000;
    /** Bytes of every region, by region number: a counter word, then one word for each of ranks 1 to 3. */
    private static final int[] SIZES = {32, 40, 48, 64};

    private DynamicWindowScenarios() {
    }

    /**
     * Rank 0 attaches {@link #REGIONS} regions and publishes their addresses; every other rank writes its
     * own word of every region (put) and adds to the region's first word (accumulate), reads each region
     * back (get), and rank 0 checks every byte. Then rank 0 detaches every even region: origins get
     * RMA_RANGE for those and still reach the odd ones; rank 0 attaches the even ones again (each at its old
     * address) and the origins reach all of them.
     */
    static void thousandRegions(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        assertTrue(n <= 4, "every region has words for ranks 1 to 3 only");
        final MemorySegment pool = me == 0 ? job.allocMem(REGIONS / 2 * 128L) : MemorySegment.NULL;
        final List<MemorySegment> regions = new ArrayList<>();
        try (Window dynamic = job.createDynamic(null);
            Window directory = job.allocate(me == 0 ? 16L * REGIONS : 0, 16)) {
            if (me == 0) {
                for (int i = 0; i < REGIONS; i++) {
                    final int size = SIZES[i % SIZES.length];
                    final MemorySegment region = i % 2 == 0 ? job.allocMem(size) : pool.asSlice(128L * (i / 2), size);
                    region.fill((byte)0);
                    dynamic.attach(region);
                    regions.add(region);
                    directory.segment().set(ValueLayout.JAVA_LONG, 16L * i, Rma.address(region));
                    directory.segment().set(ValueLayout.JAVA_LONG, 16L * i + 8, size);
                }
                expect(ErrorClass.RMA_ATTACH, () -> dynamic.attach(regions.get(REGIONS - 1).asSlice(8, 8)),
                    "overlaps the attached region");
            }
            job.barrier();
            final long[] addresses = new long[REGIONS];
            final long[] sizes = new long[REGIONS];
            directory.lockAll();
            for (int i = 0; i < REGIONS; i++) {
                final long[] entry = new long[2];
                directory.get(entry, 0, 2, 0, i);
                addresses[i] = entry[0];
                sizes[i] = entry[1];
            }
            directory.unlockAll();

            // Every origin: one word of its own in each region, and +1 on its first word.
            dynamic.lockAll();
            if (me > 0) {
                for (int i = 0; i < REGIONS; i++) {
                    // from the middle of a longer array: the transport's path takes a slice of it
                    dynamic.put(new long[] {-1, stamp(me, i), -1}, 1, 1, 0, addresses[i] + 8L * me);
                    dynamic.accumulate(MemorySegment.ofArray(new long[] {1}), 1, Datatype.LONG, 0, addresses[i], 1,
                        Datatype.LONG, Op.SUM);
                }
                for (int i = 0; i < REGIONS; i++) {
                    final long[] back = new long[3];
                    dynamic.get(back, 2, 1, 0, addresses[i] + 8L * me);
                    assertArrayEquals(new long[] {0, 0, stamp(me, i)}, back,
                        "region " + i + " read back by rank " + me);
                    final long end = addresses[i] + sizes[i];
                    expect(ErrorClass.RMA_RANGE, () -> dynamic.put(new long[1], 0, 1, 0, end - 4),
                        "is not inside a region attached by rank 0");
                }
            }
            dynamic.unlockAll();
            job.barrier();
            if (me == 0) {
                for (int i = 0; i < REGIONS; i++) {
                    final MemorySegment region = regions.get(i);
                    for (int origin = 1; origin < n; origin++) {
                        assertEquals(stamp(origin, i), region.get(ValueLayout.JAVA_LONG, 8L * origin),
                            "rank " + origin + "'s word in region " + i);
                    }
                    assertEquals(n - 1, region.get(ValueLayout.JAVA_LONG, 0), "accumulates into region " + i);
                }
                for (int i = 0; i < REGIONS; i += 2) {
                    dynamic.detach(regions.get(i));
                }
                expect(ErrorClass.RMA_ATTACH, () -> dynamic.detach(regions.get(0)), "no region attached by rank 0");
            }
            job.barrier();
            dynamic.lockAll();
            if (me > 0) {
                for (int i = 0; i < REGIONS; i++) {
                    final int region = i;
                    if (i % 2 == 0) {
                        expect(ErrorClass.RMA_RANGE, () -> dynamic.get(new long[1], 0, 1, 0, addresses[region]),
                            "is not inside a region attached by rank 0");
                    } else {
                        final long[] back = new long[1];
                        dynamic.get(back, 0, 1, 0, addresses[i] + 8L * me);
                        assertEquals(stamp(me, i), back[0], "region " + i + " after the even ones left");
                    }
                }
            }
            dynamic.unlockAll();
            job.barrier();
            if (me == 0) {
                for (int i = 0; i < REGIONS; i += 2) {
                    dynamic.attach(regions.get(i));
                }
            }
            job.barrier();
            dynamic.lockAll();
            if (me > 0) {
                for (int i = 0; i < REGIONS; i++) {
                    assertEquals(n - 1, dynamic.fetchAndOp(0L, 0, addresses[i], Op.NO_OP),
                        "counter of region " + i + " after re-attach");
                    final long[] back = new long[1];
                    dynamic.get(back, 0, 1, 0, addresses[i] + 8L * me);
                    assertEquals(stamp(me, i), back[0], "region " + i + " after re-attach");
                }
            }
            dynamic.unlockAll();
            job.barrier();
            if (me == 0) {
                regions.forEach(dynamic::detach);
            }
        }
        if (me == 0) {
            for (int i = 0; i < REGIONS; i += 2) {
                job.freeMem(regions.get(i));
            }
            job.freeMem(pool);
        }
    }

    /**
     * Rank 0 attaches a few stable regions, publishes them, then attaches and detaches {@link #CHURN}
     * other regions (each churned region with its own allocation) while every other rank keeps accessing
     * the stable ones, until rank 0 raises a flag after its last change: no access to a stable region ever
     * fails or reads another region's bytes (MPI requires the region of an access attached before the
     * access's synchronization, not the absence of other attaches, section 11.2.4).
     */
    static void attachWhileAccessing(final RmaJob job) {
        final int me = job.rank();
        final int stable = 8;
        final List<MemorySegment> regions = new ArrayList<>();
        try (Window dynamic = job.createDynamic(null);
            Window shared = job.allocate(me == 0 ? 8L * (stable + 1) : 0, 8)) {
            if (me == 0) {
                for (int i = 0; i < stable; i++) {
                    final MemorySegment region = job.allocMem(64);
                    region.set(ValueLayout.JAVA_LONG, 0, 1000 + i);
                    dynamic.attach(region);
                    regions.add(region);
                    shared.segment().set(ValueLayout.JAVA_LONG, 8L * i, Rma.address(region));
                }
            }
            job.barrier();
            final long[] addresses = new long[stable];
            shared.lockAll();
            shared.get(addresses, 0, stable, 0, 0);
            dynamic.lockAll();
            if (me == 0) {
                final MemorySegment churn = job.allocMem(64L * CHURN / 2);
                for (int c = 0; c < CHURN / 2; c++) {
                    final MemorySegment region = churn.asSlice(64L * c, 64);
                    dynamic.attach(region);
                    if (c % 3 != 0) {
                        dynamic.detach(region);
                    }
                }
                shared.accumulate(MemorySegment.ofArray(new long[] {1}), 1, Datatype.LONG, 0, stable, 1, Datatype.LONG,
                    Op.REPLACE);
                shared.flush(0);
                job.barrier();
                for (int c = 0; c < CHURN / 2; c += 3) {
                    dynamic.detach(churn.asSlice(64L * c, 64));
                }
                job.freeMem(churn);
            } else {
                long rounds = 0;
                while (shared.fetchAndOp(0L, 0, stable, Op.NO_OP) == 0 || rounds == 0) {
                    for (int i = 0; i < stable; i++) {
                        final long value = dynamic.fetchAndOp(0L, 0, addresses[i], Op.NO_OP);
                        if (value != 1000 + i) {
                            fail("stable region " + i + " read " + value + " in round " + rounds);
                        }
                    }
                    rounds++;
                }
                job.barrier();
            }
            dynamic.unlockAll();
            shared.unlockAll();
            job.barrier();
            if (me == 0) {
                regions.forEach(dynamic::detach);
            }
        }
        regions.forEach(job::freeMem);
    }

    private static long stamp(final int origin, final int region) {
        return 1_000_000L * origin + region;
    }
}
