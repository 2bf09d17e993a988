package org.rma4j.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.lang.foreign.MemorySegment;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;
import org.rma4j.Datatype;
import org.rma4j.Op;
import org.rma4j.Window;
import org.rma4j.stress.RankPair.Epoch;
import org.rma4j.stress.RankPair.WindowSpec;

/**
 * MPI_WIN_FLUSH: an operation is complete at the target when flush returns, so a flag set after the
 * flush carries the operation's data with it (message passing), and a get issued after a flush sees a
 * put of another rank that was flushed before (store buffering, Dekker).
 *
 * <p>Setup: one window under lock_all at both ranks, 128-byte slots; DATA and FLAG live in rank 1's part of
 * each state's slot, X in rank 1's part and Y in rank 0's part. Actor 1 is rank 0, actor 2 is rank 1.
 *
 * <p>Ladder, message passing (jcstress BasicJMM_06_Causality style), from broken to fixed:
 * <ol>
 *   <li>{@link PutPlainFlag}: put, put of the flag, plain loads: nothing orders anything;</li>
 *   <li>{@link PutAtomicFlagNoFlush}: the flag by an atomic accumulate and read atomically, but no flush
 *   between data and flag: MPI does not order a put and a later accumulate to one target;</li>
 *   <li>{@link PutFlushPlainPoll}: flushed and flagged correctly, but the target polls with a plain load,
 *   which may be reordered with its data load;</li>
 *   <li>{@link PutFlushAtomicFlag}: put, flush, atomic flag (accumulate REPLACE), atomic flag read
 *   (fetch_and_op NO_OP) then the data: the guarantee.</li>
 * </ol>
 * rma4j performs every operation at its call, so rungs 1 and 2 only show their interesting outcome through
 * the JIT or the CPU reordering plain accesses; MPI allows it in both.
 */
public final class FlushOrdering {
    static final long DATA = 0;
    static final long FLAG = 64;
    static final long X = 0;
    static final long Y = 0;
    static final long[] ONE = {1};

    private FlushOrdering() {
    }

    private static final class Job {
        static final RankPair PAIR = RankPair.start("FlushOrdering", WindowSpec.of(128, Epoch.LOCK_ALL));
    }

    /** One state's slot: rank 0's and rank 1's handles and rank 1's memory. */
    abstract static class Slot {
        final Window origin = Job.PAIR.window(0, 0);
        final Window target = Job.PAIR.window(0, 1);
        final MemorySegment targetMemory = Job.PAIR.local(0, 1);
        final MemorySegment originMemory = Job.PAIR.local(0, 0);
        final long base = Job.PAIR.offset(0, Job.PAIR.nextSlot());

        /** Zeroes the slot: it may hold the values of the state that had it {@link RankPair#SLOTS} states ago. */
        Slot() {
            Local.putLong(targetMemory, base + DATA, 0);
            Local.putLong(targetMemory, base + FLAG, 0);
            Local.putLong(originMemory, base + Y, 0);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     0, 0        622,445   47.56%    Acceptable  The target read before both puts.
     *     0, 1          1,103    0.08%    Acceptable  The target read FLAG before the flag put and DATA after the data
     *                                                 put.
     *     1, 1        685,318   52.36%    Acceptable  The target read after both puts.
     *
     *   OK, C2: 372,096, 770, 331,665
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 346, 7, 111
     *   OK, C1: 222,820, 299, 327,812
     *   OK, interpreter: 27,183, 27, 25,730
     * }</pre>
     */
    @JCStressTest
    @Description("Rung 1 (broken): put DATA, put FLAG, no flush; the target reads FLAG then DATA with plain loads.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The target read before both puts.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The target read FLAG before the flag put and DATA after the data put.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The target read after both puts.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "FLAG seen, DATA not: without flush and acquire nothing orders the two puts or the two loads.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class PutPlainFlag extends Slot {
        @Actor
        public void rank0() {
            origin.put(ONE, 0, 1, 1, base + DATA);
            origin.put(ONE, 0, 1, 1, base + FLAG);
        }

        @Actor
        public void rank1(final JJ_Result r) {
            r.r1 = Local.getLong(targetMemory, base + FLAG);
            r.r2 = Local.getLong(targetMemory, base + DATA);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     0, 0        234,259   43.78%    Acceptable  The target read before both operations.
     *     0, 1            283    0.05%    Acceptable  The target read FLAG before the accumulate and DATA after the
     *                                                 put.
     *     1, 1        300,551   56.17%    Acceptable  The target read after both operations.
     *
     *   OK, C2: 23,174, 19, 19,903
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 631, 34, 477
     *   OK, C1: 191,793, 179, 266,799
     *   OK, interpreter: 18,661, 51, 13,372
     * }</pre>
     */
    @JCStressTest
    @Description("Rung 2 (broken in MPI): put DATA, accumulate REPLACE FLAG without a flush; the target reads FLAG "
        + "with fetch_and_op NO_OP, then DATA.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The target read before both operations.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The target read FLAG before the accumulate and DATA after the put.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The target read after both operations.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "FLAG seen, DATA not: MPI does not order a put before a later accumulate without a flush "
        + "(rma4j completes the put at its call, so this needs the hardware or JIT to reorder).")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class PutAtomicFlagNoFlush extends Slot {
        @Actor
        public void rank0() {
            origin.put(ONE, 0, 1, 1, base + DATA);
            origin.accumulate(MemorySegment.ofArray(ONE), 1, Datatype.LONG, 1, base + FLAG, 1, Datatype.LONG,
                Op.REPLACE);
        }

        @Actor
        public void rank1(final JJ_Result r) {
            r.r1 = target.fetchAndOp(0L, 1, base + FLAG, Op.NO_OP);
            r.r2 = Local.getLong(targetMemory, base + DATA);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     0, 0        413,593   55.38%    Acceptable  The target read before both operations.
     *     0, 1            339    0.05%    Acceptable  The target read FLAG before the flag and DATA after the put.
     *     1, 1        332,847   44.57%    Acceptable  The target read after both operations.
     *
     *   OK, C2: 78,333, 134, 38,058
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 484, 6, 25
     *   OK, C1: 280,212, 167, 260,312
     *   OK, interpreter: 54,564, 32, 34,452
     * }</pre>
     */
    @JCStressTest
    @Description("Rung 3 (broken reader): put DATA, flush, accumulate REPLACE FLAG; the target polls FLAG with a "
        + "plain load, then reads DATA.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The target read before both operations.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The target read FLAG before the flag and DATA after the put.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The target read after both operations.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "FLAG seen, DATA not: the plain flag load gives no acquire, so the data load may be done first.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class PutFlushPlainPoll extends Slot {
        @Actor
        public void rank0() {
            origin.put(ONE, 0, 1, 1, base + DATA);
            origin.flush(1);
            origin.fetchAndOp(1L, 1, base + FLAG, Op.REPLACE);
        }

        @Actor
        public void rank1(final JJ_Result r) {
            r.r1 = Local.getLong(targetMemory, base + FLAG);
            r.r2 = Local.getLong(targetMemory, base + DATA);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     0, 0        814,981   51.87%    Acceptable  The target read before both operations.
     *     0, 1          1,223    0.08%    Acceptable  The target read FLAG before the flag and DATA after the put.
     *     1, 1        755,052   48.05%    Acceptable  The target read after both operations.
     *
     *   OK, C2: 261,353, 349, 217,549
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 204,263, 507, 325,681
     *   OK, C1: 324,520, 336, 195,355
     *   OK, interpreter: 24,845, 31, 16,467
     * }</pre>
     */
    @JCStressTest
    @Description("Rung 4 (the guarantee): put DATA, flush, accumulate REPLACE FLAG; the target reads FLAG with "
        + "fetch_and_op NO_OP, then DATA with a plain load.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The target read before both operations.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The target read FLAG before the flag and DATA after the put.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The target read after both operations.")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "FLAG seen, DATA not: the put was not complete at the target when flush returned.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class PutFlushAtomicFlag extends Slot {
        @Actor
        public void rank0() {
            origin.put(ONE, 0, 1, 1, base + DATA);
            origin.flush(1);
            origin.accumulate(MemorySegment.ofArray(ONE), 1, Datatype.LONG, 1, base + FLAG, 1, Datatype.LONG,
                Op.REPLACE);
        }

        @Actor
        public void rank1(final JJ_Result r) {
            r.r1 = target.fetchAndOp(0L, 1, base + FLAG, Op.NO_OP);
            r.r2 = Local.getLong(targetMemory, base + DATA);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     1, 0        729,863   45.04%    Acceptable  The target looked before the flag and did not overwrite.
     *     1, 1        890,569   54.96%    Acceptable  The get read the old value, then the target saw the flag.
     *
     *   OK, C2: 222,872, 287,099
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 264,614, 235,117
     *   OK, C1: 217,960, 343,211
     *   OK, interpreter: 24,417, 25,142
     * }</pre>
     */
    @JCStressTest
    @Description("The get side: the origin gets DATA (initially 1), flushes and sets FLAG; the target, once it "
        + "sees FLAG (fetch_and_op NO_OP), overwrites DATA with 2. r1 = what the get read, r2 = FLAG seen.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "The target looked before the flag and did not overwrite.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The get read the old value, then the target saw the flag.")
    @Outcome(id = "2, 1", expect = FORBIDDEN, desc = "The get returned the target's later store although the flag after its flush came first.")
    @Outcome(expect = FORBIDDEN, desc = "The target overwrote without the flag, or a value nobody wrote.")
    @State
    public static class GetFlushAtomicFlag extends Slot {
        GetFlushAtomicFlag() {
            Local.putLong(targetMemory, base + DATA, 1);
        }

        @Actor
        public void rank0(final JJ_Result r) {
            final long[] value = new long[1];
            origin.get(value, 0, 1, 1, base + DATA);
            origin.flush(1);
            origin.fetchAndOp(1L, 1, base + FLAG, Op.REPLACE);
            r.r1 = value[0];
        }

        @Actor
        public void rank1(final JJ_Result r) {
            r.r2 = target.fetchAndOp(0L, 1, base + FLAG, Op.NO_OP);
            if (r.r2 == 1) {
                Local.putLong(targetMemory, base + DATA, 2);
            }
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     0, 0          7,068    0.47%   Interesting  Both gets missed the other's put: each put still sat in its
     *                                                 CPU's store buffer (no flush).
     *     0, 1        840,177   55.41%    Acceptable  Rank 0 ran first: its get missed Y, rank 1's get saw X.
     *     1, 0        656,685   43.31%    Acceptable  Rank 1 ran first: its get missed X, rank 0's get saw Y.
     *     1, 1         12,373    0.82%    Acceptable  Both puts landed before both gets.
     *
     *   OK, C2: 4,689, 243,923, 240,826, 53
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 2,379, 280,349, 206,646, 117
     *   OK, C1: 0, 288,079, 191,070, 10,342
     *   OK, interpreter: 0, 27,826, 18,143, 1,861
     * }</pre>
     */
    @JCStressTest
    @Description("Store buffering, broken: rank 0 puts X (at rank 1) then gets Y (at rank 0); rank 1 puts Y then "
        + "gets X; no flush between put and get.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "Rank 0 ran first: its get missed Y, rank 1's get saw X.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "Rank 1 ran first: its get missed X, rank 0's get saw Y.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Both puts landed before both gets.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE_INTERESTING, desc = "Both gets missed the other's put: each put still sat in its CPU's store buffer (no flush).")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class PutGetNoFlush extends Slot {
        @Actor
        public void rank0(final JJ_Result r) {
            final long[] y = new long[1];
            origin.put(ONE, 0, 1, 1, base + X);
            origin.get(y, 0, 1, 0, base + Y);
            r.r1 = y[0];
        }

        @Actor
        public void rank1(final JJ_Result r) {
            final long[] x = new long[1];
            target.put(ONE, 0, 1, 0, base + Y);
            target.get(x, 0, 1, 1, base + X);
            r.r2 = x[0];
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     0, 1        557,498   69.02%    Acceptable  Rank 0 ran first: its get missed Y, rank 1's get saw X.
     *     1, 0        244,736   30.30%    Acceptable  Rank 1 ran first: its get missed X, rank 0's get saw Y.
     *     1, 1          5,549    0.69%    Acceptable  Both puts landed before both gets.
     *
     *   OK, C2: 127,603, 74,182, 803
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 27,170, 19,321, 103
     *   OK, C1: 398,641, 147,654, 4,636
     *   OK, interpreter: 4,084, 3,579, 7
     * }</pre>
     */
    @JCStressTest
    @Description("Store buffering, fixed: as PutGetNoFlush with flush(target) between each rank's put and get.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "Rank 0 ran first: its get missed Y, rank 1's get saw X.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "Rank 1 ran first: its get missed X, rank 0's get saw Y.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Both puts landed before both gets.")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "Both gets missed the other's flushed put: a put was not complete at its target after flush.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class PutFlushGet extends Slot {
        @Actor
        public void rank0(final JJ_Result r) {
            final long[] y = new long[1];
            origin.put(ONE, 0, 1, 1, base + X);
            origin.flush(1);
            origin.get(y, 0, 1, 0, base + Y);
            r.r1 = y[0];
        }

        @Actor
        public void rank1(final JJ_Result r) {
            final long[] x = new long[1];
            target.put(ONE, 0, 1, 0, base + Y);
            target.flush(0);
            target.get(x, 0, 1, 1, base + X);
            r.r2 = x[0];
        }
    }
}
