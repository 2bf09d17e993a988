package org.rma4j.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;
import org.rma4j.Window;
import org.rma4j.stress.RankPair.Epoch;
import org.rma4j.stress.RankPair.WindowSpec;

/**
 * Notification counters (MPI Forum issue 59, {@link org.rma4j.WindowNotifyCounters}): a counter's increment
 * becomes visible only after the operation's data. A put with a counter: whoever sees the increment sees the
 * data. A get with a counter: once the target sees the increment, the origin has read the data, so the target
 * may overwrite it.
 *
 * <p>Setup: one window, no epoch (operations with a counter need none), 128-byte slots; rank 0 (actor 1) is the
 * origin, rank 1 (actor 2) the target. Both ranks attach {@link RankPair#SLOTS} counters, one per slot: each state
 * uses the counter of its slot, which it resets in its constructor with the slot's data, so no state waits
 * and none sees another's increments. Ladder: {@link CounterBeforeData} (the increment issued before the data,
 * as a program that increments by hand would) shows the outcome the others forbid.
 */
public final class NotifyCounters {
    static final long[] ONE = {1};

    private NotifyCounters() {
    }

    /**
     * Starts the pair and attaches one counter per slot at both ranks (a collective call, so from two threads).
     */
    private static RankPair start(final String name) {
        final RankPair pair = RankPair.start(name, WindowSpec.of(128, Epoch.NONE));
        final CompletableFuture<Void> rank0 = CompletableFuture
            .runAsync(() -> pair.window(0, 0).notifyAttach(RankPair.SLOTS));
        pair.window(0, 1).notifyAttach(RankPair.SLOTS);
        rank0.join();
        return pair;
    }

    /** One state's slot and counter: DATA in rank 1's part, both zero. */
    abstract static class Slot {
        final Window origin;
        final Window target;
        final MemorySegment targetMemory;
        final int counter;
        final long base;

        Slot(final RankPair pair) {
            origin = pair.window(0, 0);
            target = pair.window(0, 1);
            targetMemory = pair.local(0, 1);
            counter = pair.nextSlot();
            base = pair.offset(0, counter);
            targetMemory.asSlice(base, 128).fill((byte)0);
            target.notifySetValue(counter, 0);
        }
    }

    @JCStressTest
    @Description("Broken rung of the ladder: rank 0 increments rank 1's counter (a zero-length put with a counter), "
        + "then stores DATA = 1 directly (a load / store of the shared window). Rank 1 reads the counter (r1), then DATA (r2).")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "Rank 1 looked before both.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Rank 1 looked after both.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The counter read came before the increment, the data read "
        + "after the put.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "Rank 1 saw the increment and not the data: "
        + "it was issued before the data, so nothing orders them for the reader.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class CounterBeforeData extends Slot {
        private static final class Job {
            static final RankPair PAIR = start("NotifyCounters.CounterBeforeData");
        }

        /** Rank 1's part in rank 0's mapping, for its direct store. */
        private final MemorySegment originView = Job.PAIR.shared(0, 0, 1);

        public CounterBeforeData() {
            super(Job.PAIR);
        }

        @Actor
        public void rank0() {
            origin.putNotifyCounter(MemorySegment.NULL, 1, base, counter);
            Local.putLong(originView, base, 1);
        }

        @Actor
        public void rank1(final JJ_Result r) {
            r.r1 = target.notifyGetValue(counter);
            r.r2 = Local.getLong(targetMemory, base);
        }
    }

    @JCStressTest
    @Description("Put with a counter: rank 0 putNotifyCounter(DATA = 1, counter). Rank 1 reads the counter (r1), "
        + "then DATA (r2).")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "Rank 1 looked before the put.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The counter read came before the increment, the data read "
        + "after the data landed.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Rank 1 saw the increment, and so the data.")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "Rank 1 saw the increment but not the data: the increment "
        + "became visible before the operation's data.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class PutNotifyCounter extends Slot {
        private static final class Job {
            static final RankPair PAIR = start("NotifyCounters.PutNotifyCounter");
        }

        public PutNotifyCounter() {
            super(Job.PAIR);
        }

        @Actor
        public void rank0() {
            origin.putNotifyCounter(MemorySegment.ofArray(ONE), 1, base, counter);
        }

        @Actor
        public void rank1(final JJ_Result r) {
            r.r1 = target.notifyGetValue(counter);
            r.r2 = Local.getLong(targetMemory, base);
        }
    }

    @JCStressTest
    @Description("Get with a counter: DATA = 1 at rank 1. Rank 0 getNotifyCounter(DATA, counter) reads r1. Rank 1 "
        + "reads the counter (r2) and, if it is 1, overwrites DATA with 2.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "Rank 1 looked before the increment and left DATA alone.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Rank 0 read DATA, then rank 1 saw the increment and "
        + "overwrote it.")
    @Outcome(id = "2, 1", expect = FORBIDDEN, desc = "Rank 0 read rank 1's overwrite, which rank 1 made only after "
        + "seeing the increment: the increment became visible before the get read its data.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class GetNotifyCounter extends Slot {
        private static final class Job {
            static final RankPair PAIR = start("NotifyCounters.GetNotifyCounter");
        }

        public GetNotifyCounter() {
            super(Job.PAIR);
            Local.putLong(targetMemory, base, 1);
        }

        @Actor
        public void rank0(final JJ_Result r) {
            final long[] read = new long[1];
            origin.getNotifyCounter(MemorySegment.ofArray(read), 1, base, counter);
            r.r1 = read[0];
        }

        @Actor
        public void rank1(final JJ_Result r) {
            final long seen = target.notifyGetValue(counter);
            if (seen == 1) {
                Local.putLong(targetMemory, base, 2);
            }
            r.r2 = seen;
        }
    }
}
