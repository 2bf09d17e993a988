package org.rma4j.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;
import org.openjdk.jcstress.infra.results.JJ_Result;
import org.rma4j.Window;
import org.rma4j.stress.RankPair.Epoch;
import org.rma4j.stress.RankPair.WindowSpec;

/**
 * Litmus shapes of three or more ranks (MP, WRC, IRIW), every location in the part of one target rank: the origins see
 * that rank's memory only through their own puts and gets (each rank maps the window file itself).
 *
 * <p>Setup: one job of {@link #RANKS} ranks, one window under lock_all at every rank; x and y of a state
 * are at offsets 0 and 64 of its slot in the part of rank {@link #TARGET}. jcstress 0.16 runs no test with
 * more actors than CPUs, so each of the two actors drives the steps of one or two origin ranks, in the
 * order the shape gives them; every step is a put or get followed by flush, which completes it at the
 * target and is a full fence (rma4j: flush completes the operation at origin and target).
 */
public final class MultiRankLitmus {
    static final int RANKS = 5;
    static final int TARGET = 4;
    static final long X = 0;
    static final long Y = 64;

    private MultiRankLitmus() {
    }

    private static final class Job {
        static final RankPair RANKS_JOB = RankPair.start("MultiRankLitmus", RANKS, WindowSpec.of(128, Epoch.LOCK_ALL));
    }

    /** One state's slot at the target, zeroed, and every rank's window handle. */
    abstract static class Slot {
        final Window[] rank = new Window[RANKS];
        final long base = Job.RANKS_JOB.offset(0, Job.RANKS_JOB.nextSlot());

        Slot() {
            for (int r = 0; r < RANKS; r++) {
                rank[r] = Job.RANKS_JOB.window(0, r);
            }
            Job.RANKS_JOB.local(0, TARGET).asSlice(base, 128).fill((byte)0);
        }

        /** Rank {@code origin} puts {@code value} at {@code offset} of the target and flushes. */
        final void put(final int origin, final long offset, final long value) {
            rank[origin].put(MemorySegment.ofArray(new long[] {value}), TARGET, base + offset);
            rank[origin].flush(TARGET);
        }

        /** Rank {@code origin} gets the long at {@code offset} of the target and flushes. */
        final long get(final int origin, final long offset) {
            final MemorySegment value = MemorySegment.ofArray(new long[1]);
            rank[origin].get(value, TARGET, base + offset);
            rank[origin].flush(TARGET);
            return value.get(ValueLayout.JAVA_LONG, 0);
        }
    }

    @JCStressTest
    @Description("Message passing through a third rank's memory. Rank 0: put(x, 1); flush; put(y, 1); flush. "
        + "Rank 1: b = get(y); flush; c = get(x); flush. x and y are at rank 4. Outcome (b, c).")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "Rank 1 read both before rank 0's puts.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "Rank 1 read y before, x after rank 0's first put.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Rank 1 read both after rank 0's puts.")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "Rank 1 saw the flag put after the flushed data put, and then not the data.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class MessagePassing extends Slot {
        @Actor
        public void rank0() {
            put(0, X, 1);
            put(0, Y, 1);
        }

        @Actor
        public void rank1(final JJ_Result r) {
            r.r1 = get(1, Y);
            r.r2 = get(1, X);
        }
    }

    @JCStressTest
    @Description("WRC (write-to-read causality) through one target. Rank 0: put(x, 1). Rank 1: a = get(x); if "
        + "a = 1: put(y, 1). Rank 2: b = get(y); c = get(x). Every step flushed; x and y are at rank 4. Actor 1 "
        + "is rank 0; actor 2 runs rank 1's steps, then rank 2's. Outcome (a, b, c).")
    @Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "Rank 0's put landed after every read.")
    @Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "Rank 0's put landed after rank 1's read, before rank 2's.")
    @Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "Rank 1 saw the put and passed it on; rank 2 saw rank 1's write and so the put it depends on.")
    @Outcome(id = "1, 1, 0", expect = FORBIDDEN, desc = "Causality broken: rank 2 saw rank 1's write, made after rank 1 saw x = 1, and then read x = 0.")
    @Outcome(expect = FORBIDDEN, desc = "Rank 2 missed rank 1's flushed put, or a value nobody wrote.")
    @State
    public static class WriteToReadCausality extends Slot {
        @Actor
        public void rank0() {
            put(0, X, 1);
        }

        @Actor
        public void rank1ThenRank2(final JJJ_Result r) {
            r.r1 = get(1, X);
            if (r.r1 == 1) {
                put(1, Y, 1);
            }
            r.r2 = get(2, Y);
            r.r3 = get(2, X);
        }
    }

    @JCStressTest
    @Description("IRIW (independent reads of independent writes) through one target. Writers: rank 0 put(x, 1), "
        + "rank 1 put(y, 1). Readers: rank 2 a = get(x); b = get(y); rank 3 c = get(y); d = get(x). Every step "
        + "flushed; x and y are at rank 4. Actor 1 runs rank 0's write, then rank 2's reads; actor 2 rank 1's "
        + "write, then rank 3's reads (so a = c = 1). Outcome (b, d).")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Each reader saw both writes.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "Rank 0's write came first: rank 2 read y before rank 1's.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "Rank 1's write came first: rank 3 read x before rank 0's.")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "The readers disagree on the order of the two writes: each saw its own writer's and not the other.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class IndependentReadsOfIndependentWrites extends Slot {
        @Actor
        public void rank0ThenRank2(final JJ_Result r) {
            put(0, X, 1);
            if (get(2, X) != 1) {
                r.r1 = -1;
                return;
            }
            r.r1 = get(2, Y);
        }

        @Actor
        public void rank1ThenRank3(final JJ_Result r) {
            put(1, Y, 1);
            if (get(3, Y) != 1) {
                r.r2 = -1;
                return;
            }
            r.r2 = get(3, X);
        }
    }
}
