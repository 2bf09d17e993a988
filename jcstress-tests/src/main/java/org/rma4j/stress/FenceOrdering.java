package org.rma4j.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.lang.foreign.MemorySegment;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.J_Result;
import org.rma4j.Window;
import org.rma4j.stress.RankPair.Epoch;
import org.rma4j.stress.RankPair.WindowSpec;

/**
 * MPI_WIN_FENCE: operations issued before a fence are complete at their targets when the matching fence of
 * the target returns, and (an rma4j guarantee, docs/design.md "Decisions") a store made before a fence is seen
 * by a get made after the matching fence of another rank.
 *
 * <p>How a collective call runs once per state: fence is collective, and jcstress does not run the two
 * actors of a state in lock step. But jcstress 0.16 runs every actor over the same array of states in the
 * same order (one thread per actor, rounds of strides that both threads finish before either goes on; the
 * API and resource checks before the run also start both actors on each state), and each actor calls fence
 * exactly once per state. Fences match by call count, so the k-th fence of rank 0 and the k-th fence of
 * rank 1 are the same collective fence, the one of state k: each state gets a real fence epoch of its own,
 * and a state's actors run in lock step at that fence only. The window is put in a fence epoch once when the
 * job starts; every state's fence closes the previous state's epoch and opens its own.
 *
 * <p>What this costs the test: the two actors meet at every state, so jcstress sees only the interleavings
 * around the fence. That is the point here: the property is about what crosses the fence, and nothing
 * outside it is graded. An exception in one actor would leave the other blocked in the fence; jcstress then
 * reports the test as timed out, which fails the run.
 */
public final class FenceOrdering {
    static final long DATA = 0;
    static final long[] ONE = {1};

    private FenceOrdering() {
    }

    private static final class Job {
        static final RankPair PAIR = RankPair.start("FenceOrdering", WindowSpec.of(128, Epoch.FENCE));
    }

    /** One state's slot: DATA in rank 1's part. */
    abstract static class Slot {
        final Window rank0 = Job.PAIR.window(0, 0);
        final Window rank1 = Job.PAIR.window(0, 1);
        final MemorySegment rank1Memory = Job.PAIR.local(0, 1);
        final long data = Job.PAIR.offset(0, Job.PAIR.nextSlot()) + DATA;

        Slot() {
            Local.putLong(rank1Memory, data, 0);
        }
    }

    @JCStressTest
    @Description("Rank 0 puts DATA = 1 into rank 1, then fences; rank 1 fences, then loads DATA.")
    @Outcome(id = "1", expect = ACCEPTABLE, desc = "The put, issued before the fence, is seen after the fence.")
    @Outcome(id = "0", expect = FORBIDDEN, desc = "The put was not complete at rank 1 when its fence returned.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class PutFenceLoad extends Slot {
        @Actor
        public void rank0() {
            rank0.put(ONE, 0, 1, 1, data);
            rank0.fence(0);
        }

        @Actor
        public void rank1(final J_Result r) {
            rank1.fence(0);
            r.r1 = Local.getLong(rank1Memory, data);
        }
    }

    @JCStressTest
    @Description("Rank 1 stores DATA = 1 into its own memory, then fences; rank 0 fences, then gets DATA.")
    @Outcome(id = "1", expect = ACCEPTABLE, desc = "The store, made before the fence, is seen by the get after it.")
    @Outcome(id = "0", expect = FORBIDDEN, desc = "The get after the fence missed a store made before the matching fence (rma4j's fence includes the "
        + "fences that make it visible).")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class StoreFenceGet extends Slot {
        @Actor
        public void rank0(final J_Result r) {
            final long[] value = new long[1];
            rank0.fence(0);
            rank0.get(value, 0, 1, 1, data);
            r.r1 = value[0];
        }

        @Actor
        public void rank1() {
            Local.putLong(rank1Memory, data, 1);
            rank1.fence(0);
        }
    }
}
