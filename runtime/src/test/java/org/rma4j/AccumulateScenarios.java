package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The programs of the accumulate contract tests ({@link AccumulateContractTest}): each runs at every
 * rank of a job, in thread mode or as real processes, and fails by throwing. Races use
 * {@code rma4j.test.atomicIncrements} operations per rank (10,000 unless set).
 */
final class AccumulateScenarios {
    /** Operations per rank in the races; process mode raises it. */
    static final String INCREMENTS_PROP_NAME = "rma4j.test.atomicIncrements";
    static final int INCREMENTS_DEFAULT = 10_000;

    private AccumulateScenarios() {
    }

    /** Runs the scenario of that name at this rank. */
    static void run(final String name, final RmaJob job) throws Throwable {
        Scenarios.invoke(AccumulateScenarios.class, name, job);
    }

    private static int increments() {
        return Integer.getInteger(INCREMENTS_PROP_NAME, INCREMENTS_DEFAULT);
    }

    // ---------------------------------------------------------------- races (section 11.7.1)

    /**
     * Every rank adds 1 to a long, a double and a float at rank 0 with fetch_and_op SUM. Totals are
     * exact; each rank sees its own previous values strictly increase; and the previous values of the
     * long, summed over all ranks, are 0 + 1 + ... + (total - 1): each was returned once.
     */
    static void sumCounters(final RmaJob job) {
        final int n = job.size();
        final int increments = increments();
        final long total = (long)n * increments;
        // Slots (disp unit 8): 0 long, 1 double, 2 float, 3 sum of long previous values, 4 the same for double.
        try (Arena arena = Arena.ofConfined(); Window window = job.allocate(job.rank() == 0 ? 40 : 0, 8)) {
            final MemorySegment floatOne = arena.allocate(ValueLayout.JAVA_FLOAT);
            floatOne.set(ValueLayout.JAVA_FLOAT, 0, 1.0f);
            final MemorySegment floatResult = arena.allocate(ValueLayout.JAVA_FLOAT);
            window.lockAll();
            long lastLong = -1;
            double lastDouble = -1;
            float lastFloat = -1;
            long sumLong = 0;
            double sumDouble = 0;
            for (int i = 0; i < increments; i++) {
                final long previousLong = window.fetchAndOp(1L, 0, 0, Op.SUM);
                final double previousDouble = window.fetchAndOp(1.0, 0, 1, Op.SUM);
                window.fetchAndOp(floatOne, floatResult, Datatype.FLOAT, 0, 2, Op.SUM);
                final float previousFloat = floatResult.get(ValueLayout.JAVA_FLOAT, 0);
                if (previousLong <= lastLong || previousLong >= total) {
                    fail("long counter returned " + previousLong + " after " + lastLong + " (total " + total + ")");
                }
                if (previousDouble <= lastDouble || previousDouble >= total) {
                    fail("double counter returned " + previousDouble + " after " + lastDouble);
                }
                if (previousFloat <= lastFloat || previousFloat >= total) {
                    fail("float counter returned " + previousFloat + " after " + lastFloat);
                }
                lastLong = previousLong;
                lastDouble = previousDouble;
                lastFloat = previousFloat;
                sumLong += previousLong;
                sumDouble += previousDouble;
            }
            window.accumulate(longs(arena, sumLong), 1, Datatype.LONG, 0, 3, 1, Datatype.LONG, Op.SUM);
            window.accumulate(doubles(arena, sumDouble), 1, Datatype.DOUBLE, 0, 4, 1, Datatype.DOUBLE, Op.SUM);
            window.flush(0);
            job.barrier();
            assertEquals(total, window.fetchAndOp(0L, 0, 0, Op.NO_OP), "long total");
            assertEquals((double)total, window.fetchAndOp(0.0, 0, 1, Op.NO_OP), "double total");
            window.fetchAndOp(null, floatResult, Datatype.FLOAT, 0, 2, Op.NO_OP);
            assertEquals((float)total, floatResult.get(ValueLayout.JAVA_FLOAT, 0), "float total");
            assertEquals(total * (total - 1) / 2, window.fetchAndOp(0L, 0, 3, Op.NO_OP),
                "every previous value of the long counter was returned exactly once");
            assertEquals(total * (total - 1) / 2.0, window.fetchAndOp(0.0, 0, 4, Op.NO_OP),
                "every previous value of the double counter was returned exactly once");
            window.unlockAll();
        }
    }

    /**
     * A short and a char at rank 0 that every rank adds to, while ranks 0..3 each count in their own
     * byte inside the same ints, and every rank counts a short with a compare_and_swap retry loop:
     * sub-word updates lose nothing and never touch the neighbours. Layout (disp unit 1):
     * [short all | byte r0 | byte r1] [char all | byte r2 | byte r3] [short by CAS | 2 untouched bytes].
     */
    static void subWordNeighbours(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int increments = increments();
        final long own = me < 4 ? 2 + (me % 2) + 4 * (me / 2) : -1;
        try (Arena arena = Arena.ofConfined(); Window window = Scenarios.allocate(job, me == 0 ? 12 : 0, 1)) {
            final MemorySegment compare = arena.allocate(ValueLayout.JAVA_SHORT);
            final MemorySegment value = arena.allocate(ValueLayout.JAVA_SHORT);
            final MemorySegment result = arena.allocate(ValueLayout.JAVA_SHORT);
            short expectedShort = 0;
            final MemorySegment oneShort = arena.allocate(ValueLayout.JAVA_SHORT);
            oneShort.set(ValueLayout.JAVA_SHORT, 0, (short)1);
            final MemorySegment oneChar = arena.allocate(ValueLayout.JAVA_CHAR);
            oneChar.set(ValueLayout.JAVA_CHAR, 0, (char)1);
            final MemorySegment oneByte = arena.allocate(ValueLayout.JAVA_BYTE);
            oneByte.set(ValueLayout.JAVA_BYTE, 0, (byte)1);
            final MemorySegment byteResult = arena.allocate(ValueLayout.JAVA_BYTE);
            window.lockAll();
            for (int i = 0; i < increments; i++) {
                window.accumulate(oneShort, 1, Datatype.SHORT, 0, 0, 1, Datatype.SHORT, Op.SUM);
                window.accumulate(oneChar, 1, Datatype.CHAR, 0, 4, 1, Datatype.CHAR, Op.SUM);
                if (own >= 0) {
                    window.fetchAndOp(oneByte, byteResult, Datatype.BYTE, 0, own, Op.SUM);
                    if (byteResult.get(ValueLayout.JAVA_BYTE, 0) != (byte)i) {
                        fail(
                            "rank " + me + "'s own byte at " + own + " held " + byteResult.get(ValueLayout.JAVA_BYTE, 0)
                                + " before its increment " + i + ": a neighbour's update overwrote it");
                    }
                }
                while (true) {
                    compare.set(ValueLayout.JAVA_SHORT, 0, expectedShort);
                    value.set(ValueLayout.JAVA_SHORT, 0, (short)(expectedShort + 1));
                    window.compareAndSwap(value, compare, result, Datatype.SHORT, 0, 8);
                    final short previous = result.get(ValueLayout.JAVA_SHORT, 0);
                    if (previous == expectedShort) {
                        expectedShort++;
                        break;
                    }
                    expectedShort = previous;
                }
            }
            window.flush(0);
            job.barrier();
            final MemorySegment expected = arena.allocate(12, 8);
            expected.set(ValueLayout.JAVA_SHORT, 0, (short)((long)n * increments));
            expected.set(ValueLayout.JAVA_CHAR, 4, (char)((long)n * increments));
            expected.set(ValueLayout.JAVA_SHORT, 8, (short)((long)n * increments));
            for (int r = 0; r < Math.min(n, 4); r++) {
                expected.set(ValueLayout.JAVA_BYTE, 2 + (r % 2) + 4 * (r / 2), (byte)increments);
            }
            final MemorySegment actual = arena.allocate(12, 8);
            window.getAccumulate(null, 0, Datatype.BYTE, actual, 12, Datatype.BYTE, 0, 0, 12, Datatype.BYTE, Op.NO_OP);
            assertBytes(expected, actual, "rank 0's 12 bytes");
            window.unlockAll();
        }
    }

    /**
     * MIN and MAX races on long, int and double at rank 0: every rank offers distinct values (an odd
     * multiplier makes i * n + rank a bijection); the results are the global extremes, and the
     * previous values returned by fetch_and_op MAX never decrease (MIN: never increase).
     */
    static void minMaxRaces(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int rounds = Math.max(1, increments() / 4);
        // Layout (disp unit 1): long max @0, long min @8, int max @16, int min @20, double max @24, double min @32.
        try (Arena arena = Arena.ofConfined(); Window window = job.allocate(me == 0 ? 40 : 0, 1)) {
            if (me == 0) {
                final MemorySegment mine = window.segment();
                mine.set(ValueLayout.JAVA_LONG, 0, Long.MIN_VALUE);
                mine.set(ValueLayout.JAVA_LONG, 8, Long.MAX_VALUE);
                mine.set(ValueLayout.JAVA_INT, 16, Integer.MIN_VALUE);
                mine.set(ValueLayout.JAVA_INT, 20, Integer.MAX_VALUE);
                mine.set(ValueLayout.JAVA_DOUBLE, 24, Double.NEGATIVE_INFINITY);
                mine.set(ValueLayout.JAVA_DOUBLE, 32, Double.POSITIVE_INFINITY);
            }
            job.barrier();
            final MemorySegment intOrigin = arena.allocate(ValueLayout.JAVA_INT);
            final MemorySegment doubleOrigin = arena.allocate(ValueLayout.JAVA_DOUBLE);
            final MemorySegment doubleResult = arena.allocate(ValueLayout.JAVA_DOUBLE);
            window.lockAll();
            long lastMax = Long.MIN_VALUE;
            long lastMin = Long.MAX_VALUE;
            double lastDoubleMin = Double.POSITIVE_INFINITY;
            for (int i = 0; i < rounds; i++) {
                final long k = (long)i * n + me + 1;
                final long offeredLong = offeredLong(k);
                final long previousMax = window.fetchAndOp(offeredLong, 0, 0, Op.MAX);
                final long previousMin = window.fetchAndOp(offeredLong, 0, 8, Op.MIN);
                if (previousMax < lastMax || previousMin > lastMin) {
                    fail("MAX returned " + previousMax + " after " + lastMax + ", MIN " + previousMin + " after "
                        + lastMin);
                }
                lastMax = previousMax;
                lastMin = previousMin;
                intOrigin.set(ValueLayout.JAVA_INT, 0, offeredInt(k));
                window.accumulate(intOrigin, 1, Datatype.INT, 0, 16, 1, Datatype.INT, Op.MAX);
                window.accumulate(intOrigin, 1, Datatype.INT, 0, 20, 1, Datatype.INT, Op.MIN);
                window.fetchAndOp(offeredDouble(k), 0, 24, Op.MAX);
                doubleOrigin.set(ValueLayout.JAVA_DOUBLE, 0, offeredDouble(k));
                window.getAccumulate(doubleOrigin, 1, Datatype.DOUBLE, doubleResult, 1, Datatype.DOUBLE, 0, 32, 1,
                    Datatype.DOUBLE, Op.MIN);
                final double previousDoubleMin = doubleResult.get(ValueLayout.JAVA_DOUBLE, 0);
                if (previousDoubleMin > lastDoubleMin) {
                    fail("double MIN returned " + previousDoubleMin + " after " + lastDoubleMin);
                }
                lastDoubleMin = previousDoubleMin;
            }
            window.flush(0);
            job.barrier();
            long maxLong = Long.MIN_VALUE;
            long minLong = Long.MAX_VALUE;
            int maxInt = Integer.MIN_VALUE;
            int minInt = Integer.MAX_VALUE;
            double maxDouble = Double.NEGATIVE_INFINITY;
            double minDouble = Double.POSITIVE_INFINITY;
            for (long k = 1; k <= (long)rounds * n; k++) {
                maxLong = Math.max(maxLong, offeredLong(k));
                minLong = Math.min(minLong, offeredLong(k));
                maxInt = Math.max(maxInt, offeredInt(k));
                minInt = Math.min(minInt, offeredInt(k));
                maxDouble = Math.max(maxDouble, offeredDouble(k));
                minDouble = Math.min(minDouble, offeredDouble(k));
            }
            assertEquals(maxLong, window.fetchAndOp(0L, 0, 0, Op.NO_OP), "long MAX");
            assertEquals(minLong, window.fetchAndOp(0L, 0, 8, Op.NO_OP), "long MIN");
            final MemorySegment ints = arena.allocate(8, 8);
            window.getAccumulate(null, 0, Datatype.INT, ints, 2, Datatype.INT, 0, 16, 2, Datatype.INT, Op.NO_OP);
            assertEquals(maxInt, ints.get(ValueLayout.JAVA_INT, 0), "int MAX");
            assertEquals(minInt, ints.get(ValueLayout.JAVA_INT, 4), "int MIN");
            assertEquals(maxDouble, window.fetchAndOp(0.0, 0, 24, Op.NO_OP), "double MAX");
            assertEquals(minDouble, window.fetchAndOp(0.0, 0, 32, Op.NO_OP), "double MIN");
            window.unlockAll();
        }
    }

    private static long offeredLong(final long k) {
        return k * 0x9E3779B97F4A7C15L;
    }

    private static int offeredInt(final long k) {
        return (int)k * 0x9E3779B9;
    }

    private static double offeredDouble(final long k) {
        return (double)(offeredLong(k) >> 11);
    }

    /**
     * Counters built from compare_and_swap retry loops on a long and an int at rank 0: the totals are
     * exact.
     */
    static void compareAndSwapCounters(final RmaJob job) {
        final int n = job.size();
        final int increments = increments();
        // Layout (disp unit 1): long @0, int @8, int @12 untouched.
        try (Window window = Scenarios.allocate(job, job.rank() == 0 ? 16 : 0, 1)) {
            window.lockAll();
            long expectedLong = window.fetchAndOp(0L, 0, 0, Op.NO_OP);
            int expectedInt = window.fetchAndOp(0, 0, 8, Op.NO_OP);
            for (int i = 0; i < increments; i++) {
                while (true) {
                    final long previous = window.compareAndSwap(expectedLong, expectedLong + 1, 0, 0);
                    if (previous == expectedLong) {
                        expectedLong++;
                        break;
                    }
                    expectedLong = previous;
                }
                while (true) {
                    final int previous = window.compareAndSwap(expectedInt, expectedInt + 1, 0, 8);
                    if (previous == expectedInt) {
                        expectedInt++;
                        break;
                    }
                    expectedInt = previous;
                }
            }
            window.flush(0);
            job.barrier();
            final long total = (long)n * increments;
            assertEquals(total, window.fetchAndOp(0L, 0, 0, Op.NO_OP), "long counter");
            assertEquals((int)total, window.fetchAndOp(0, 0, 8, Op.NO_OP), "int counter");
            assertEquals(0, window.fetchAndOp(0, 0, 12, Op.NO_OP), "int beside the counters");
            window.unlockAll();
        }
    }

    /**
     * Atomic reads: ranks 1..n-1 add (1 << 32) + 1 to a long at rank 0 while every rank reads it with
     * get_accumulate NO_OP and fetch_and_op NO_OP. Every value read has equal halves (it was really
     * there, not torn), reads at one rank never go backwards, and rank 0 reads until the total.
     */
    static void atomicReads(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int increments = increments();
        final long step = (1L << 32) + 1;
        final long writes = (long)(n - 1) * increments;
        try (Arena arena = Arena.ofConfined(); Window window = job.allocate(me == 0 ? 8 : 0, 8)) {
            final MemorySegment origin = longs(arena, step);
            final MemorySegment result = arena.allocate(ValueLayout.JAVA_LONG);
            final Reader reader = new Reader(window, result, writes);
            window.lockAll();
            if (me == 0) {
                while (reader.read() != writes * step) {
                    Thread.onSpinWait();
                }
            } else {
                for (int i = 0; i < increments; i++) {
                    window.accumulate(origin, 1, Datatype.LONG, 0, 0, 1, Datatype.LONG, Op.SUM);
                    if (i % 4 == 0) {
                        reader.read();
                    }
                }
            }
            window.flush(0);
            job.barrier();
            assertEquals(writes * step, reader.read(), "final value");
            assertTrue(reader.reads > 0);
            window.unlockAll();
        }
    }

    /** Reads rank 0's long with NO_OP, alternating get_accumulate and fetch_and_op, checking each value. */
    private static final class Reader {
        private final Window window;
        private final MemorySegment result;
        private final long writes;
        private long last;
        private long reads;

        Reader(final Window window, final MemorySegment result, final long writes) {
            this.window = window;
            this.result = result;
            this.writes = writes;
        }

        long read() {
            final long value;
            if ((reads++ & 1) == 0) {
                window.getAccumulate(null, 0, Datatype.LONG, result, 1, Datatype.LONG, 0, 0, 1, Datatype.LONG,
                    Op.NO_OP);
                value = result.get(ValueLayout.JAVA_LONG, 0);
            } else {
                value = window.fetchAndOp(0L, 0, 0, Op.NO_OP);
            }
            if (value >>> 32 != (value & 0xFFFF_FFFFL)) {
                fail("read 0x" + Long.toHexString(value) + ": its halves differ, so no accumulate wrote it");
            }
            if (value < last || value >>> 32 > writes) {
                fail("read " + (value >>> 32) + " increments after " + (last >>> 32) + " (at most " + writes + ")");
            }
            last = value;
            return value;
        }
    }

    /**
     * Typed accumulates: every rank adds a vector-shaped origin into an indexed layout at rank 0, and
     * get_accumulates a contiguous origin into a vector target with a strided result, many times; the
     * totals are exact and no byte outside the target elements changes.
     */
    static void typedAccumulate(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int rounds = 200;
        final Datatype originInts = Datatype.vector(4, 2, 3, Datatype.INT);
        final int[] originIntIndex = {0, 1, 3, 4, 6, 7, 9, 10};
        final Datatype targetInts = Datatype.indexed(new int[] {2, 1, 3, 2}, new int[] {7, 0, 3, 12}, Datatype.INT);
        final int[] targetIntIndex = {7, 8, 0, 3, 4, 5, 12, 13};
        final long intBase = 8;
        final Datatype targetDoubles = Datatype.vector(3, 2, 4, Datatype.DOUBLE);
        final int[] targetDoubleIndex = {0, 1, 4, 5, 8, 9};
        final long doubleBase = 128;
        final Datatype resultDoubles = Datatype.vector(2, 3, 5, Datatype.DOUBLE);
        final int[] resultDoubleIndex = {0, 1, 2, 5, 6, 7};
        final double sentinel = -7.0;
        try (Arena arena = Arena.ofConfined(); Window window = job.allocate(me == 0 ? 256 : 0, 4)) {
            final MemorySegment expected = arena.allocate(256, 8);
            expected.fill((byte)0xFF);
            for (int e = 0; e < 8; e++) {
                expected.set(ValueLayout.JAVA_INT, intBase + 4L * targetIntIndex[e], 0);
            }
            for (int e = 0; e < 6; e++) {
                expected.set(ValueLayout.JAVA_DOUBLE, doubleBase + 8L * targetDoubleIndex[e], 0.0);
            }
            if (me == 0) {
                window.segment().copyFrom(expected);
            }
            job.barrier();

            final MemorySegment intOrigin = arena.allocate(originInts.extent(), 8);
            for (int e = 0; e < 8; e++) {
                intOrigin.set(ValueLayout.JAVA_INT, 4L * originIntIndex[e], (me + 1) * (e + 1));
            }
            final MemorySegment doubleOrigin = arena.allocate(48, 8);
            for (int e = 0; e < 6; e++) {
                doubleOrigin.set(ValueLayout.JAVA_DOUBLE, 8L * e, 0.5 * (e + 1));
            }
            final MemorySegment result = arena.allocate(resultDoubles.extent(), 8);
            final double[] lastPrevious = new double[6];
            window.lockAll();
            for (int round = 0; round < rounds; round++) {
                window.accumulate(intOrigin, 1, originInts, 0, intBase / 4, 1, targetInts, Op.SUM);
                for (long i = 0; i < result.byteSize() / 8; i++) {
                    result.setAtIndex(ValueLayout.JAVA_DOUBLE, i, sentinel);
                }
                window.getAccumulate(doubleOrigin, 6, Datatype.DOUBLE, result, 1, resultDoubles, 0, doubleBase / 4, 1,
                    targetDoubles, Op.SUM);
                for (int e = 0; e < 6; e++) {
                    final double previous = result.get(ValueLayout.JAVA_DOUBLE, 8L * resultDoubleIndex[e]);
                    if (previous < lastPrevious[e] || previous % (0.5 * (e + 1)) != 0) {
                        fail("element " + e + " returned " + previous + " after " + lastPrevious[e]);
                    }
                    lastPrevious[e] = previous;
                }
                assertEquals(sentinel, result.get(ValueLayout.JAVA_DOUBLE, 24), "result gap");
                assertEquals(sentinel, result.get(ValueLayout.JAVA_DOUBLE, 32), "result gap");
            }
            window.flush(0);
            job.barrier();
            for (int e = 0; e < 8; e++) {
                expected.set(ValueLayout.JAVA_INT, intBase + 4L * targetIntIndex[e],
                    rounds * (e + 1) * n * (n + 1) / 2);
            }
            for (int e = 0; e < 6; e++) {
                expected.set(ValueLayout.JAVA_DOUBLE, doubleBase + 8L * targetDoubleIndex[e],
                    rounds * n * 0.5 * (e + 1));
            }
            final MemorySegment actual = arena.allocate(256, 8);
            window.get(actual, 0, 0);
            assertBytes(expected, actual, "rank 0's window");
            window.unlockAll();
        }
    }

    // ---------------------------------------------------------------- epochs (section 11.5)

    /**
     * Accumulates inside fence, lock_all and lock epochs reach their targets; outside every epoch
     * (before the first fence and after a NOSUCCEED fence) they raise RMA_SYNC and change nothing.
     */
    static void accumulateEpochs(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int right = (me + 1) % n;
        final int left = (me + n - 1) % n;
        final long triangle = (long)n * (n + 1) / 2;
        try (Arena arena = Arena.ofConfined(); Window window = Scenarios.allocate(job, 8L * (n + 1), 8)) {
            final MemorySegment mine = window.segment();
            final MemorySegment one = longs(arena, 1);
            final MemorySegment result = arena.allocate(ValueLayout.JAVA_LONG);
            job.barrier();

            expectOutsideEpoch(window, one, result, right);

            window.fence(Rma.MODE_NOPRECEDE);
            for (int target = 0; target < n; target++) {
                window.accumulate(longs(arena, me + 1), 1, Datatype.LONG, target, 0, 1, Datatype.LONG, Op.SUM);
                window.accumulate(longs(arena, 10L * me), 1, Datatype.LONG, target, 1 + me, 1, Datatype.LONG,
                    Op.REPLACE);
            }
            window.fence(0);
            assertEquals(triangle, mine.get(ValueLayout.JAVA_LONG, 0), "sum of the fence epoch's accumulates");
            for (int origin = 0; origin < n; origin++) {
                assertEquals(10L * origin, mine.get(ValueLayout.JAVA_LONG, 8L * (1 + origin)),
                    "REPLACE from " + origin);
            }
            job.barrier();
            // In the epoch this fence opened, each rank's slot 0 has one writer: its left neighbour.
            window.getAccumulate(one, 1, Datatype.LONG, result, 1, Datatype.LONG, right, 0, 1, Datatype.LONG, Op.SUM);
            assertEquals(triangle, result.get(ValueLayout.JAVA_LONG, 0));
            window.fence(Rma.MODE_NOSUCCEED);
            assertEquals(triangle + 1, mine.get(ValueLayout.JAVA_LONG, 0));

            expectOutsideEpoch(window, one, result, right);
            job.barrier();

            window.lockAll();
            for (int target = 0; target < n; target++) {
                window.fetchAndOp(1L, target, 0, Op.SUM);
            }
            window.flushAll();
            window.unlockAll();
            job.barrier();
            assertEquals(triangle + 1 + n, mine.get(ValueLayout.JAVA_LONG, 0), "fetch_and_op in lock_all");
            job.barrier();

            window.lock(LockType.SHARED, 0);
            window.accumulate(one, 1, Datatype.LONG, 0, 0, 1, Datatype.LONG, Op.SUM);
            window.unlock(0);
            window.lock(LockType.EXCLUSIVE, right);
            assertEquals(10L * me, window.compareAndSwap(10L * me, -me - 1L, right, 1 + me), "swap in exclusive lock");
            window.unlock(right);
            job.barrier();
            assertEquals(triangle + 1 + n + (me == 0 ? n : 0), mine.get(ValueLayout.JAVA_LONG, 0),
                "accumulate in lock");
            assertEquals(-left - 1L, mine.get(ValueLayout.JAVA_LONG, 8L * (1 + left)), "compare_and_swap from " + left);
        }
    }

    private static void expectOutsideEpoch(final Window window, final MemorySegment one, final MemorySegment result,
        final int right) {
        final byte[] before = bytesOf(window.segment());
        expect(ErrorClass.RMA_SYNC, () -> window.accumulate(one, 1, Datatype.LONG, right, 0, 1, Datatype.LONG, Op.SUM),
            "accumulate");
        expect(ErrorClass.RMA_SYNC, () -> window.getAccumulate(one, 1, Datatype.LONG, result, 1, Datatype.LONG, right,
            0, 1, Datatype.LONG, Op.SUM), "getAccumulate");
        expect(ErrorClass.RMA_SYNC, () -> window.fetchAndOp(1L, right, 0, Op.SUM), "fetchAndOp");
        expect(ErrorClass.RMA_SYNC, () -> window.fetchAndOp(one, result, Datatype.LONG, right, 0, Op.NO_OP),
            "fetchAndOp");
        expect(ErrorClass.RMA_SYNC, () -> window.compareAndSwap(0L, 1L, right, 0), "compareAndSwap");
        expect(ErrorClass.RMA_SYNC, () -> window.raccumulate(one, 1, Datatype.LONG, right, 0, 1, Datatype.LONG, Op.SUM),
            "raccumulate");
        assertBytes(before, bytesOf(window.segment()), "own window after RMA_SYNC errors");
    }

    // ---------------------------------------------------------------- errors (section 11.3.4)

    /**
     * Every (op, type) pair the op does not accept raises OP naming both, in every call of the
     * accumulate family; compare_and_swap on floating point and fetch_and_op on a derived type raise
     * TYPE; misaligned targets raise DISP; and the windows are unchanged afterwards.
     */
    static void opTypeErrors(final RmaJob job) {
        final int n = job.size();
        final int right = (job.rank() + 1) % n;
        try (Arena arena = Arena.ofConfined(); Window window = job.allocate(64, 1)) {
            window.segment().fill((byte)0x5A);
            final MemorySegment origin = arena.allocate(64, 8);
            final MemorySegment compare = arena.allocate(64, 8);
            final MemorySegment result = arena.allocate(64, 8);
            job.barrier();
            window.lockAll();

            final List<String> invalid = new ArrayList<>();
            for (final Op op : Op.values()) {
                for (final Datatype.Basic basic : Datatype.Basic.values()) {
                    if (op.accepts(basic)) {
                        continue;
                    }
                    invalid.add(op + "/" + basic);
                    final Datatype type = basicType(basic);
                    final String[] names = {op.mpiName(), " " + basic.name()};
                    expect(ErrorClass.OP, () -> window.accumulate(origin, 1, type, right, 0, 1, type, op), names);
                    expect(ErrorClass.OP,
                        () -> window.accumulate(origin, 2, type, right, 0, 1, Datatype.contiguous(2, type), op), names);
                    expect(ErrorClass.OP,
                        () -> window.getAccumulate(origin, 1, type, result, 1, type, right, 0, 1, type, op), names);
                    expect(ErrorClass.OP, () -> window.fetchAndOp(origin, result, type, right, 0, op), names);
                    expect(ErrorClass.OP, () -> window.raccumulate(origin, 1, type, right, 0, 1, type, op), names);
                    expect(ErrorClass.OP,
                        () -> window.rgetAccumulate(origin, 1, type, result, 1, type, right, 0, 1, type, op), names);
                }
            }
            final List<String> pairOnly = new ArrayList<>();
            for (final Op op : new Op[] {Op.MINLOC, Op.MAXLOC}) {
                for (final Datatype.Basic basic : Datatype.Basic.values()) {
                    pairOnly.add(op + "/" + basic);
                }
            }
            final List<String> expected = new ArrayList<>(
                List.of("LAND/FLOAT", "LAND/DOUBLE", "LOR/FLOAT", "LOR/DOUBLE", "LXOR/FLOAT", "LXOR/DOUBLE",
                    "BAND/FLOAT", "BAND/DOUBLE", "BOR/FLOAT", "BOR/DOUBLE", "BXOR/FLOAT", "BXOR/DOUBLE"));
            expected.addAll(pairOnly);
            assertEquals(expected, invalid, "MINLOC and MAXLOC take pair types only (section 5.9.4)");
            expect(ErrorClass.OP, () -> window.fetchAndOp(1.0, right, 0, Op.BXOR), "MPI_BXOR", "DOUBLE");
            expect(ErrorClass.OP, () -> window.fetchAndOp(1L, right, 0, null), "op is null");
            expect(ErrorClass.OP, () -> window.accumulate(origin, 1, Datatype.INT, right, 0, 1, Datatype.INT, null),
                "op is null");

            expect(ErrorClass.TYPE, () -> window.compareAndSwap(origin, compare, result, Datatype.FLOAT, right, 0),
                "FLOAT");
            expect(ErrorClass.TYPE, () -> window.compareAndSwap(origin, compare, result, Datatype.DOUBLE, right, 0),
                "DOUBLE");
            expect(ErrorClass.TYPE,
                () -> window.compareAndSwap(origin, compare, result, Datatype.contiguous(1, Datatype.INT), right, 0),
                "contiguous(1, INT)");
            expect(ErrorClass.TYPE,
                () -> window.fetchAndOp(origin, result, Datatype.contiguous(1, Datatype.LONG), right, 0, Op.SUM),
                "contiguous(1, LONG)");
            expect(ErrorClass.TYPE,
                () -> window.fetchAndOp(origin, result, Datatype.vector(1, 1, 1, Datatype.INT), right, 0, Op.NO_OP),
                "vector(1, 1, 1, INT)");
            expect(ErrorClass.TYPE, () -> window.fetchAndOp(origin, result, null, right, 0, Op.SUM), "null");
            expect(ErrorClass.TYPE,
                () -> window.accumulate(origin, 2, Datatype.INT, right, 0, 1, Datatype.LONG, Op.SUM),
                "type signatures differ");
            expect(ErrorClass.TYPE, () -> window.getAccumulate(origin, 1, Datatype.LONG, result, 2, Datatype.INT, right,
                0, 1, Datatype.LONG, Op.SUM), "type signatures differ");
            expect(ErrorClass.TYPE,
                () -> window.accumulate(origin, 1, Datatype.LONG, right, 0, 2, Datatype.LONG, Op.SUM),
                "type signatures differ");

            expect(ErrorClass.DISP, () -> window.fetchAndOp(1L, right, 3, Op.SUM), "not aligned", "LONG");
            expect(ErrorClass.DISP, () -> window.fetchAndOp(1, right, 2, Op.SUM), "not aligned", "INT");
            expect(ErrorClass.DISP, () -> window.fetchAndOp(1.0, right, 4, Op.SUM), "not aligned", "DOUBLE");
            expect(ErrorClass.DISP, () -> window.fetchAndOp(origin, result, Datatype.SHORT, right, 5, Op.REPLACE),
                "not aligned", "SHORT");
            expect(ErrorClass.DISP,
                () -> window.accumulate(origin, 1, Datatype.SHORT, right, 1, 1, Datatype.SHORT, Op.SUM), "not aligned");
            expect(ErrorClass.DISP,
                () -> window.accumulate(origin, 1, Datatype.CHAR, right, 3, 1, Datatype.CHAR, Op.MAX), "not aligned");
            expect(ErrorClass.DISP,
                () -> window.accumulate(origin, 1, Datatype.INT, right, 6, 1, Datatype.INT, Op.REPLACE), "not aligned");
            expect(ErrorClass.DISP,
                () -> window.accumulate(origin, 1, Datatype.FLOAT, right, 2, 1, Datatype.FLOAT, Op.SUM), "not aligned");
            expect(ErrorClass.DISP, () -> window.accumulate(origin, 2, Datatype.LONG, right, 4, 1,
                Datatype.contiguous(2, Datatype.LONG), Op.SUM), "not aligned");
            expect(ErrorClass.DISP, () -> window.getAccumulate(null, 0, Datatype.LONG, result, 1, Datatype.LONG, right,
                5, 1, Datatype.LONG, Op.NO_OP), "not aligned");
            expect(ErrorClass.DISP, () -> window.compareAndSwap(0L, 1L, right, 3), "not aligned");
            expect(ErrorClass.DISP, () -> window.compareAndSwap(0, 1, right, 1), "not aligned");
            expect(ErrorClass.DISP, () -> window.compareAndSwap(origin, compare, result, Datatype.SHORT, right, 7),
                "not aligned");
            expect(ErrorClass.DISP,
                () -> window.raccumulate(origin, 1, Datatype.DOUBLE, right, 12, 1, Datatype.DOUBLE, Op.SUM),
                "not aligned");
            expect(ErrorClass.DISP, () -> window.fetchAndOp(1L, right, -8, Op.SUM), "negative");

            expect(ErrorClass.RMA_RANGE, () -> window.fetchAndOp(1L, right, 64, Op.SUM), "exceeds window size 64");
            expect(ErrorClass.RMA_RANGE,
                () -> window.accumulate(origin, 2, Datatype.LONG, right, 56, 2, Datatype.LONG, Op.SUM),
                "exceeds window size 64");
            expect(ErrorClass.RANK, () -> window.accumulate(origin, 1, Datatype.LONG, n, 0, 1, Datatype.LONG, Op.SUM),
                "outside 0..");
            window.unlockAll();
            job.barrier();
            for (long offset = 0; offset < 64; offset++) {
                assertEquals((byte)0x5A, window.segment().get(ValueLayout.JAVA_BYTE, offset), "byte " + offset);
            }
        }
    }

    /**
     * Section 11.3.4: "MPI_NO_OP cannot be used in MPI_ACCUMULATE, MPI_RACCUMULATE". The calls should
     * raise OP and leave the window alone.
     */
    static void noOpInAccumulate(final RmaJob job) {
        final int right = (job.rank() + 1) % job.size();
        try (Arena arena = Arena.ofConfined(); Window window = job.allocate(16, 8)) {
            final MemorySegment origin = longs(arena, 5, 6);
            window.lockAll();
            expect(ErrorClass.OP,
                () -> window.accumulate(origin, 1, Datatype.LONG, right, 0, 1, Datatype.LONG, Op.NO_OP), "MPI_NO_OP");
            expect(ErrorClass.OP,
                () -> window.raccumulate(origin, 2, Datatype.LONG, right, 0, 2, Datatype.LONG, Op.NO_OP), "MPI_NO_OP");
            window.unlockAll();
        }
    }

    /**
     * Origin and result buffers of the accumulate family may sit at any address, as for put and get:
     * a long taken from a byte[] (alignment 1) or from an odd offset of native memory.
     */
    static void unalignedOriginBuffers(final RmaJob job) {
        final int n = job.size();
        final int right = (job.rank() + 1) % n;
        try (Arena arena = Arena.ofConfined(); Window window = job.allocate(16, 8)) {
            final MemorySegment heapOrigin = MemorySegment.ofArray(new byte[8]);
            heapOrigin.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 5L);
            final MemorySegment oddOrigin = arena.allocate(16, 8).asSlice(1, 8);
            oddOrigin.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 7L);
            final MemorySegment heapResult = MemorySegment.ofArray(new byte[8]);
            window.lockAll();
            window.accumulate(heapOrigin, 1, Datatype.LONG, right, 0, 1, Datatype.LONG, Op.SUM);
            window.accumulate(oddOrigin, 1, Datatype.LONG, right, 0, 1, Datatype.LONG, Op.SUM);
            window.fetchAndOp(heapOrigin, heapResult, Datatype.LONG, right, 1, Op.SUM);
            assertEquals(0L, heapResult.get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
            window.getAccumulate(null, 0, Datatype.LONG, heapResult, 1, Datatype.LONG, right, 0, 1, Datatype.LONG,
                Op.NO_OP);
            assertEquals(12L, heapResult.get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
            window.unlockAll();
            job.barrier();
            assertEquals(12L, window.segment().get(ValueLayout.JAVA_LONG, 0));
            assertEquals(5L, window.segment().get(ValueLayout.JAVA_LONG, 8));
        }
    }

    // ---------------------------------------------------------------- helpers

    static Datatype basicType(final Datatype.Basic basic) {
        return switch (basic) {
            case BYTE -> Datatype.BYTE;
            case SHORT -> Datatype.SHORT;
            case CHAR -> Datatype.CHAR;
            case INT -> Datatype.INT;
            case LONG -> Datatype.LONG;
            case FLOAT -> Datatype.FLOAT;
            case DOUBLE -> Datatype.DOUBLE;
        };
    }

    static MemorySegment longs(final Arena arena, final long... values) {
        final MemorySegment segment = arena.allocate(8L * Math.max(1, values.length), 8);
        for (int i = 0; i < values.length; i++) {
            segment.setAtIndex(ValueLayout.JAVA_LONG, i, values[i]);
        }
        return segment;
    }

    static MemorySegment doubles(final Arena arena, final double... values) {
        final MemorySegment segment = arena.allocate(8L * Math.max(1, values.length), 8);
        for (int i = 0; i < values.length; i++) {
            segment.setAtIndex(ValueLayout.JAVA_DOUBLE, i, values[i]);
        }
        return segment;
    }

    static byte[] bytesOf(final MemorySegment segment) {
        return segment.toArray(ValueLayout.JAVA_BYTE);
    }

    static void assertBytes(final MemorySegment expected, final MemorySegment actual, final String what) {
        assertBytes(bytesOf(expected), bytesOf(actual), what);
    }

    static void assertBytes(final byte[] expected, final byte[] actual, final String what) {
        assertEquals(expected.length, actual.length, what + ": length");
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] != actual[i]) {
                fail(what + ": byte " + i + " is 0x" + Integer.toHexString(actual[i] & 0xFF) + ", expected 0x"
                    + Integer.toHexString(expected[i] & 0xFF));
            }
        }
    }

    /**
     * Asserts that the call raises the error class, with a message that starts with its MPI name and
     * contains every detail.
     */
    static void expect(final ErrorClass errorClass, final ThrowingRunnable call, final String... details) {
        final RmaException e = assertThrows(RmaException.class, call::run);
        assertEquals(errorClass, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().startsWith(errorClass.mpiName() + ": "), e.getMessage());
        for (final String detail : details) {
            assertTrue(e.getMessage().contains(detail),
                () -> "\"" + e.getMessage() + "\" should contain \"" + detail + "\"");
        }
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Throwable;
    }
}
