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
import org.rma4j.Info;
import org.rma4j.Op;
import org.rma4j.Window;
import org.rma4j.stress.RankPair.Epoch;
import org.rma4j.stress.RankPair.WindowSpec;

/**
 * Ordering of accumulates from one origin to one location (MPI-3.1 section 11.7.2, info key
 * {@code accumulate_ordering}): by default (rar, raw, war, waw) two accumulates of one origin to one
 * location take effect in program order, so another rank reading the location twice with atomic reads never
 * sees the second before the first.
 *
 * <p>Setup: one window under lock_all at both ranks, 128-byte slots; X in rank 1's part. Rank 0 (actor 1)
 * accumulates REPLACE 1, then REPLACE 2 into X; rank 1 (actor 2) reads X twice with get_accumulate NO_OP.
 *
 * <p>Ladder: {@link ReplaceTwiceOrderingNone} (window with {@code accumulate_ordering=none}: MPI lets the two
 * accumulates, and the two reads, take effect in any order; rma4j still performs each at its call, so the
 * interesting outcomes are allowed but not expected) below {@link ReplaceTwiceDefaultOrdering}.
 */
public final class AccumulateOrdering {
    static final long X = 0;
    static final MemorySegment ONE = MemorySegment.ofArray(new long[] {1});
    static final MemorySegment TWO = MemorySegment.ofArray(new long[] {2});

    private AccumulateOrdering() {
    }

    /** One state's slot: X in rank 1's part. */
    abstract static class Slot {
        final Window origin;
        final Window target;
        final MemorySegment memory;
        final long x;

        Slot(final RankPair pair) {
            origin = pair.window(0, 0);
            target = pair.window(0, 1);
            memory = pair.local(0, 1);
            x = pair.offset(0, pair.nextSlot()) + X;
            Local.putLong(memory, x, 0);
        }

        final void replaceOneThenTwo() {
            origin.accumulate(ONE, 1, Datatype.LONG, 1, x, 1, Datatype.LONG, Op.REPLACE);
            origin.accumulate(TWO, 1, Datatype.LONG, 1, x, 1, Datatype.LONG, Op.REPLACE);
        }

        final void readTwice(final JJ_Result r) {
            r.r1 = atomicRead();
            r.r2 = atomicRead();
        }

        private long atomicRead() {
            final long[] result = new long[1];
            target.getAccumulate(null, 0, Datatype.LONG, MemorySegment.ofArray(result), 1, Datatype.LONG, 1, x, 1,
                Datatype.LONG, Op.NO_OP);
            return result[0];
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     0, 0        160,082   35.89%    Acceptable  Both reads before the first accumulate.
     *     0, 1            117    0.03%    Acceptable  First read before, second between the accumulates.
     *     0, 2            161    0.04%    Acceptable  First read before, second after both accumulates.
     *     1, 1             94    0.02%    Acceptable  Both reads between the accumulates.
     *     1, 2            492    0.11%    Acceptable  One read between, one after the accumulates.
     *     2, 2        285,128   63.92%    Acceptable  Both reads after both accumulates.
     *
     *   OK, C2: 3,068, 0, 8, 8, 1, 5,409
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 23,131, 3, 13, 11, 3, 28,967
     *   OK, C1: 120,227, 93, 116, 47, 455, 228,356
     *   OK, interpreter: 13,656, 21, 24, 28, 33, 22,396
     * }</pre>
     */
    @JCStressTest
    @Description("Default ordering: rank 0 accumulates REPLACE 1 then REPLACE 2 into X; rank 1 reads X twice "
        + "(get_accumulate NO_OP).")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "Both reads before the first accumulate.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "First read before, second between the accumulates.")
    @Outcome(id = "0, 2", expect = ACCEPTABLE, desc = "First read before, second after both accumulates.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Both reads between the accumulates.")
    @Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "One read between, one after the accumulates.")
    @Outcome(id = "2, 2", expect = ACCEPTABLE, desc = "Both reads after both accumulates.")
    @Outcome(id = "2, 1", expect = FORBIDDEN, desc = "REPLACE 2 was seen before REPLACE 1: the accumulates took effect out of program order (waw).")
    @Outcome(id = "[12], 0", expect = FORBIDDEN, desc = "The second read went back to the initial value (rar).")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class ReplaceTwiceDefaultOrdering extends Slot {
        private static final class Job {
            static final RankPair PAIR = RankPair.start("AccumulateOrdering.Default",
                WindowSpec.of(128, Epoch.LOCK_ALL));
        }

        public ReplaceTwiceDefaultOrdering() {
            super(Job.PAIR);
        }

        @Actor
        public void rank0() {
            replaceOneThenTwo();
        }

        @Actor
        public void rank1(final JJ_Result r) {
            readTwice(r);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     0, 0        663,228   45.80%    Acceptable  Both reads before the first accumulate.
     *     0, 1          2,888    0.20%    Acceptable  First read before, second between the accumulates.
     *     0, 2          3,942    0.27%    Acceptable  First read before, second after both accumulates.
     *     1, 1            540    0.04%    Acceptable  Both reads between the accumulates.
     *     1, 2         16,893    1.17%    Acceptable  One read between, one after the accumulates.
     *     2, 2        760,674   52.53%    Acceptable  Both reads after both accumulates.
     *
     *   OK, C2: 28,336, 95, 112, 25, 127, 76,329
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 423,395, 2,499, 3,621, 411, 16,277, 370,968
     *   OK, C1: 196,315, 210, 177, 66, 428, 282,055
     *   OK, interpreter: 15,182, 84, 32, 38, 61, 31,322
     * }</pre>
     */
    @JCStressTest
    @Description("accumulate_ordering=none: as ReplaceTwiceDefaultOrdering on a window created with that info key.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "Both reads before the first accumulate.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "First read before, second between the accumulates.")
    @Outcome(id = "0, 2", expect = ACCEPTABLE, desc = "First read before, second after both accumulates.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Both reads between the accumulates.")
    @Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "One read between, one after the accumulates.")
    @Outcome(id = "2, 2", expect = ACCEPTABLE, desc = "Both reads after both accumulates.")
    @Outcome(id = "2, 1", expect = ACCEPTABLE_INTERESTING, desc = "REPLACE 2 seen before REPLACE 1: allowed with accumulate_ordering=none (waw not kept).")
    @Outcome(id = "[12], 0", expect = ACCEPTABLE_INTERESTING, desc = "The second read saw an older value: allowed with accumulate_ordering=none (rar not kept).")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class ReplaceTwiceOrderingNone extends Slot {
        private static final class Job {
            static final RankPair PAIR = RankPair.start("AccumulateOrdering.None",
                new WindowSpec(128, Epoch.LOCK_ALL, Info.of(Info.ACCUMULATE_ORDERING, "none")));
        }

        public ReplaceTwiceOrderingNone() {
            super(Job.PAIR);
        }

        @Actor
        public void rank0() {
            replaceOneThenTwo();
        }

        @Actor
        public void rank1(final JJ_Result r) {
            readTwice(r);
        }
    }
}
