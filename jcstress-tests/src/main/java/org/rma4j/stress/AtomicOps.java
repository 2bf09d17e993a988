package org.rma4j.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.DDD_Result;
import org.openjdk.jcstress.infra.results.JJJ_Result;
import org.openjdk.jcstress.infra.results.SS_Result;
import org.rma4j.Datatype;
import org.rma4j.Op;
import org.rma4j.Window;
import org.rma4j.stress.RankPair.Epoch;
import org.rma4j.stress.RankPair.WindowSpec;

/**
 * Atomicity of the accumulate family (MPI-3.1 section 11.7.1): fetch_and_op, compare_and_swap,
 * get_accumulate and accumulate on one location from two ranks are atomic per basic element against each
 * other, including a short next to another rank's short in the same word (rma4j updates byte, short and
 * char with a compare-and-set on the enclosing aligned int).
 *
 * <p>Setup: one window under lock_all at both ranks, 128-byte slots; the location X is in rank 1's part of
 * the state's slot. Actor 1 is rank 0 and actor 2 is rank 1 (which reaches its own memory through the same
 * calls, target 1); the arbiter reads the final value after both.
 *
 * <p>Ladders: {@link GetPutIncrement} (broken: get then put is no atomic increment) below
 * {@link FetchAndOpSum}; {@link IntRmwShortNeighbours} (broken: a non-atomic read-modify-write of the whole
 * word loses the neighbour's update) below {@link AccumulateShortNeighbours}.
 */
public final class AtomicOps {
    static final long X = 0;

    private AtomicOps() {
    }

    private static final class Job {
        static final RankPair PAIR = RankPair.start("AtomicOps", WindowSpec.of(128, Epoch.LOCK_ALL));
    }

    /** One state's slot: X in rank 1's part. */
    abstract static class Slot {
        final Window rank0 = Job.PAIR.window(0, 0);
        final Window rank1 = Job.PAIR.window(0, 1);
        final MemorySegment memory = Job.PAIR.local(0, 1);
        final long x = Job.PAIR.offset(0, Job.PAIR.nextSlot()) + X;

        Slot() {
            Local.putLong(memory, x, 0);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *    RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *   0, 1, 2        887,345   61.36%    Acceptable  Rank 0's fetch_and_op came first.
     *   1, 0, 2        558,858   38.64%    Acceptable  Rank 1's fetch_and_op came first.
     *
     *   OK, C2: 382,284, 107,207
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 215,834, 206,972
     *   OK, C1: 260,730, 228,761
     *   OK, interpreter: 28,497, 15,918
     * }</pre>
     */
    @JCStressTest
    @Description("Both ranks fetch_and_op(SUM, 1) on X; r1, r2 = the values they fetched, r3 = X after both.")
    @Outcome(id = "0, 1, 2", expect = ACCEPTABLE, desc = "Rank 0's fetch_and_op came first.")
    @Outcome(id = "1, 0, 2", expect = ACCEPTABLE, desc = "Rank 1's fetch_and_op came first.")
    @Outcome(id = "0, 0, 1", expect = FORBIDDEN, desc = "Both fetched 0: one increment was lost.")
    @Outcome(expect = FORBIDDEN, desc = "Any other outcome: an increment lost or applied twice.")
    @State
    public static class FetchAndOpSum extends Slot {
        @Actor
        public void rank0(final JJJ_Result r) {
            r.r1 = rank0.fetchAndOp(1L, 1, x, Op.SUM);
        }

        @Actor
        public void rank1(final JJJ_Result r) {
            r.r2 = rank1.fetchAndOp(1L, 1, x, Op.SUM);
        }

        @Arbiter
        public void arbiter(final JJJ_Result r) {
            r.r3 = Local.getLong(memory, x);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *    RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *   0, 0, 1        103,075    8.36%   Interesting  Both read 0 before either put: get + put is not atomic and one
     *                                                  increment is lost.
     *   0, 1, 2        745,572   60.47%    Acceptable  Rank 0's get and put came before rank 1's get.
     *   1, 0, 2        384,386   31.17%    Acceptable  Rank 1's get and put came before rank 0's get.
     *
     *   OK, C2: 54,930, 450,242, 178,879
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 6, 3,101, 3,308
     *   OK, C1: 47,715, 272,329, 189,927
     *   OK, interpreter: 424, 19,900, 12,272
     * }</pre>
     */
    @JCStressTest
    @Description("Broken rung: both ranks get X, then put X + 1; r1, r2 = the values they read, r3 = X after both.")
    @Outcome(id = "0, 1, 2", expect = ACCEPTABLE, desc = "Rank 0's get and put came before rank 1's get.")
    @Outcome(id = "1, 0, 2", expect = ACCEPTABLE, desc = "Rank 1's get and put came before rank 0's get.")
    @Outcome(id = "0, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "Both read 0 before either put: get + put is not atomic and one increment is lost.")
    @Outcome(expect = FORBIDDEN, desc = "A value no interleaving of the gets and puts gives.")
    @State
    public static class GetPutIncrement extends Slot {
        @Actor
        public void rank0(final JJJ_Result r) {
            r.r1 = increment(rank0);
        }

        @Actor
        public void rank1(final JJJ_Result r) {
            r.r2 = increment(rank1);
        }

        @Arbiter
        public void arbiter(final JJJ_Result r) {
            r.r3 = Local.getLong(memory, x);
        }

        private long increment(final Window window) {
            final long[] value = new long[1];
            window.get(value, 0, 1, 1, x);
            final long seen = value[0];
            value[0] = seen + 1;
            window.put(value, 0, 1, 1, x);
            return seen;
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *    RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *   0, 1, 1      1,248,950   61.20%    Acceptable  Rank 0 won; rank 1 saw its 1 and failed.
     *   2, 0, 2        791,792   38.80%    Acceptable  Rank 1 won; rank 0 saw its 2 and failed.
     *
     *   OK, C2: 510,902, 429,149
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 333,066, 156,425
     *   OK, C1: 361,309, 179,382
     *   OK, interpreter: 43,673, 26,836
     * }</pre>
     */
    @JCStressTest
    @Description("Rank 0 compare_and_swap(X: 0 -> 1), rank 1 compare_and_swap(X: 0 -> 2); r1, r2 = the values they "
        + "saw, r3 = X after both.")
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "Rank 0 won; rank 1 saw its 1 and failed.")
    @Outcome(id = "2, 0, 2", expect = ACCEPTABLE, desc = "Rank 1 won; rank 0 saw its 2 and failed.")
    @Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "Both saw 0: both swaps succeeded.")
    @Outcome(expect = FORBIDDEN, desc = "Any other outcome: no winner, or X not the winner's value.")
    @State
    public static class CompareAndSwap extends Slot {
        @Actor
        public void rank0(final JJJ_Result r) {
            r.r1 = rank0.compareAndSwap(0L, 1L, 1, x);
        }

        @Actor
        public void rank1(final JJJ_Result r) {
            r.r2 = rank1.compareAndSwap(0L, 2L, 1, x);
        }

        @Arbiter
        public void arbiter(final JJJ_Result r) {
            r.r3 = Local.getLong(memory, x);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *                       RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *   0, 4294967297, 12884901891        862,486   63.98%    Acceptable  Rank 0 first: it got 0, rank 1 got A; X = A
     *                                                                     + B.
     *   8589934594, 0, 12884901891        485,498   36.02%    Acceptable  Rank 1 first: it got 0, rank 0 got B; X = A
     *                                                                     + B.
     *
     *   OK, C2: 305,582, 194,149
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 210,746, 113,552
     *   OK, C1: 326,746, 162,745
     *   OK, interpreter: 19,412, 15,052
     * }</pre>
     */
    @JCStressTest
    @Description("get_accumulate(SUM) on a long: rank 0 adds A = 0x1_0000_0001, rank 1 adds B = 0x2_0000_0002; "
        + "r1, r2 = the values returned, r3 = X after both. Values spanning both halves expose a torn access.")
    @Outcome(id = "0, 4294967297, 12884901891", expect = ACCEPTABLE, desc = "Rank 0 first: it got 0, rank 1 got A; X = A + B.")
    @Outcome(id = "8589934594, 0, 12884901891", expect = ACCEPTABLE, desc = "Rank 1 first: it got 0, rank 0 got B; X = A + B.")
    @Outcome(expect = FORBIDDEN, desc = "A returned value that X never held (torn or invented), both saw 0, or an addition lost.")
    @State
    public static class GetAccumulateLong extends Slot {
        static final long A = 0x1_0000_0001L;
        static final long B = 0x2_0000_0002L;

        @Actor
        public void rank0(final JJJ_Result r) {
            r.r1 = getAccumulate(rank0, A);
        }

        @Actor
        public void rank1(final JJJ_Result r) {
            r.r2 = getAccumulate(rank1, B);
        }

        @Arbiter
        public void arbiter(final JJJ_Result r) {
            r.r3 = Local.getLong(memory, x);
        }

        private long getAccumulate(final Window window, final long operand) {
            final long[] result = new long[1];
            window.getAccumulate(MemorySegment.ofArray(new long[] {operand}), 1, Datatype.LONG,
                MemorySegment.ofArray(result), 1, Datatype.LONG, 1, x, 1, Datatype.LONG, Op.SUM);
            return result[0];
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *            RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *    1.0, 1.5, 1.75        630,608   58.25%    Acceptable  Rank 0 first: it got 1.0, rank 1 got 1.5.
     *   1.25, 1.0, 1.75        452,007   41.75%    Acceptable  Rank 1 first: it got 1.0, rank 0 got 1.25.
     *
     *   OK, C2: 290,815, 239,636
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 34,632, 22,262
     *   OK, C1: 293,149, 186,102
     *   OK, interpreter: 12,012, 4,007
     * }</pre>
     */
    @JCStressTest
    @Description("get_accumulate(SUM) on a double (rma4j: a compare-and-set loop): X = 1.0; rank 0 adds 0.5, "
        + "rank 1 adds 0.25; r1, r2 = the values returned, r3 = X after both.")
    @Outcome(id = "1.0, 1.5, 1.75", expect = ACCEPTABLE, desc = "Rank 0 first: it got 1.0, rank 1 got 1.5.")
    @Outcome(id = "1.25, 1.0, 1.75", expect = ACCEPTABLE, desc = "Rank 1 first: it got 1.0, rank 0 got 1.25.")
    @Outcome(expect = FORBIDDEN, desc = "A returned value X never held, or an addition lost.")
    @State
    public static class GetAccumulateDouble extends Slot {
        public GetAccumulateDouble() {
            Local.putDouble(memory, x, 1.0);
        }

        @Actor
        public void rank0(final DDD_Result r) {
            r.r1 = getAccumulate(rank0, 0.5);
        }

        @Actor
        public void rank1(final DDD_Result r) {
            r.r2 = getAccumulate(rank1, 0.25);
        }

        @Arbiter
        public void arbiter(final DDD_Result r) {
            r.r3 = Local.getDouble(memory, x);
        }

        private double getAccumulate(final Window window, final double operand) {
            final double[] result = new double[1];
            window.getAccumulate(MemorySegment.ofArray(new double[] {operand}), 1, Datatype.DOUBLE,
                MemorySegment.ofArray(result), 1, Datatype.DOUBLE, 1, x, 1, Datatype.DOUBLE, Op.SUM);
            return result[0];
        }
    }

    /**
     * Two shorts in one aligned int: S0 at X (rank 0 adds to it) and S1 at X + 2 (rank 1 adds to it). S0 starts
     * at -1 (0xFFFF), so adding 1 carries out of it; S1 starts at 255 (0x00FF), so adding 1 carries within it.
     */
    abstract static class ShortPair extends Slot {
        static final long S0 = 0;
        static final long S1 = 2;

        ShortPair() {
            Local.putShort(memory, x + S0, (short)-1);
            Local.putShort(memory, x + S1, (short)255);
        }

        final void readBoth(final SS_Result r) {
            r.r1 = Local.getShort(memory, x + S0);
            r.r2 = Local.getShort(memory, x + S1);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *   0, 256      1,354,082  100.00%    Acceptable  Both updates kept in either order, no carry between the shorts.
     *
     *   OK, C2: 561,171
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 725,011
     *   OK, C1: 5,256
     *   OK, interpreter: 62,644
     * }</pre>
     */
    @JCStressTest
    @Description("accumulate(SUM, short 1): rank 0 on S0 (-1), rank 1 on the neighbouring S1 (255), same int; "
        + "the arbiter reads S0, S1.")
    @Outcome(id = "0, 256", expect = ACCEPTABLE, desc = "Both updates kept in either order, no carry between the shorts.")
    @Outcome(expect = FORBIDDEN, desc = "An update lost (-1 or 255 left), or torn or carried into the neighbour (any other value).")
    @State
    public static class AccumulateShortNeighbours extends ShortPair {
        private static final MemorySegment ONE = MemorySegment.ofArray(new short[] {1});

        @Actor
        public void rank0() {
            rank0.accumulate(ONE, 1, Datatype.SHORT, 1, x + S0, 1, Datatype.SHORT, Op.SUM);
        }

        @Actor
        public void rank1() {
            rank1.accumulate(ONE, 1, Datatype.SHORT, 1, x + S1, 1, Datatype.SHORT, Op.SUM);
        }

        @Arbiter
        public void arbiter(final SS_Result r) {
            readBoth(r);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *    RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *   -1, 256        145,744    8.52%   Interesting  Both read the word first; rank 1's put came last and wrote rank
     *                                                  0's short back to -1.
     *    0, 255        137,137    8.02%   Interesting  Both read the word first; rank 0's put came last and wrote rank
     *                                                  1's short back to 255.
     *    0, 256      1,427,683   83.46%    Acceptable  One rank's get-modify-put ran entirely before the other's get.
     *
     *   OK, C2: 16,519, 8,492, 484,960
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 120,485, 119,517, 464,529
     *   OK, C1: 7,273, 5,936, 476,282
     *   OK, interpreter: 1,467, 3,192, 1,912
     * }</pre>
     */
    @JCStressTest
    @Description("Broken rung: each rank gets the whole int, adds 1 to its own short in the copy, puts the int back; "
        + "the arbiter reads S0, S1.")
    @Outcome(id = "0, 256", expect = ACCEPTABLE, desc = "One rank's get-modify-put ran entirely before the other's get.")
    @Outcome(id = "0, 255", expect = ACCEPTABLE_INTERESTING, desc = "Both read the word first; rank 0's put came last and wrote rank 1's short back to 255.")
    @Outcome(id = "-1, 256", expect = ACCEPTABLE_INTERESTING, desc = "Both read the word first; rank 1's put came last and wrote rank 0's short back to -1.")
    @Outcome(expect = FORBIDDEN, desc = "A value no interleaving of the gets and puts gives.")
    @State
    public static class IntRmwShortNeighbours extends ShortPair {
        @Actor
        public void rank0() {
            addToOwnShort(rank0, S0);
        }

        @Actor
        public void rank1() {
            addToOwnShort(rank1, S1);
        }

        @Arbiter
        public void arbiter(final SS_Result r) {
            readBoth(r);
        }

        private void addToOwnShort(final Window window, final long own) {
            final MemorySegment word = MemorySegment.ofArray(new int[1]);
            window.get(word, 1, x);
            final short value = word.get(ValueLayout.JAVA_SHORT_UNALIGNED, own);
            word.set(ValueLayout.JAVA_SHORT_UNALIGNED, own, (short)(value + 1));
            window.put(word, 1, x);
        }
    }
}
