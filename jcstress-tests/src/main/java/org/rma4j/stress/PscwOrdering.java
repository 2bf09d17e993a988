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
import org.rma4j.Group;
import org.rma4j.Window;
import org.rma4j.stress.RankPair.Epoch;
import org.rma4j.stress.RankPair.WindowSpec;

/**
 * General active target synchronization (post / start / complete / wait): the operations of an access epoch
 * are complete at the target when its wait returns, and (an rma4j guarantee, docs/design.md "Decisions") a store
 * the target made before post is seen by a get of the origin after start.
 *
 * <p>How the calls run once per state: rank 1 (actor 2) posts to rank 0 and waits; rank 0 (actor 1) starts
 * an access epoch to rank 1 and completes it, once per state each. Posts and completes are counted per
 * (origin, target) pair, so the k-th start of rank 0 consumes the k-th post of rank 1 and the k-th wait of
 * rank 1 the k-th complete of rank 0. jcstress 0.16 runs both actors over the same states in the same order
 * (see {@link FenceOrdering}), so the k-th epoch is state k's epoch: each state gets a real PSCW epoch of
 * its own. The window is not in any other epoch.
 */
public final class PscwOrdering {
    static final long DATA = 0;
    static final long[] ONE = {1};
    static final Group RANK0 = Group.of(0);
    static final Group RANK1 = Group.of(1);

    private PscwOrdering() {
    }

    private static final class Job {
        static final RankPair PAIR = RankPair.start("PscwOrdering", WindowSpec.of(128, Epoch.NONE));
    }

    /** One state's slot: DATA in rank 1's part. */
    abstract static class Slot {
        final Window origin = Job.PAIR.window(0, 0);
        final Window target = Job.PAIR.window(0, 1);
        final MemorySegment targetMemory = Job.PAIR.local(0, 1);
        final long data = Job.PAIR.offset(0, Job.PAIR.nextSlot()) + DATA;

        Slot() {
            Local.putLong(targetMemory, data, 0);
        }
    }

    @JCStressTest
    @Description("Rank 0: start(1); put DATA = 1; complete. Rank 1: post(0); wait; load DATA.")
    @Outcome(id = "1", expect = ACCEPTABLE, desc = "The epoch's put is seen after wait.")
    @Outcome(id = "0", expect = FORBIDDEN, desc = "Wait returned before the epoch's put was complete at rank 1.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class PutCompleteWait extends Slot {
        @Actor
        public void rank0() {
            origin.start(RANK1, 0);
            origin.put(ONE, 0, 1, 1, data);
            origin.complete();
        }

        @Actor
        public void rank1(final J_Result r) {
            target.post(RANK0, 0);
            target.await();
            r.r1 = Local.getLong(targetMemory, data);
        }
    }

    @JCStressTest
    @Description("Rank 1: store DATA = 1; post(0); wait. Rank 0: start(1); get DATA; complete.")
    @Outcome(id = "1", expect = ACCEPTABLE, desc = "The get after start sees the store made before post.")
    @Outcome(id = "0", expect = FORBIDDEN, desc = "The get missed a store made before the matching post (rma4j's post / start handshake fences).")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class StorePostStartGet extends Slot {
        @Actor
        public void rank0(final J_Result r) {
            final long[] value = new long[1];
            origin.start(RANK1, 0);
            origin.get(value, 0, 1, 1, data);
            origin.complete();
            r.r1 = value[0];
        }

        @Actor
        public void rank1() {
            Local.putLong(targetMemory, data, 1);
            target.post(RANK0, 0);
            target.await();
        }
    }
}
