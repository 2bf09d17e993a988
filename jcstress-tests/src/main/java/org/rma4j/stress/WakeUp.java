package org.rma4j.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.lang.foreign.MemorySegment;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;
import org.rma4j.Group;
import org.rma4j.LockType;
import org.rma4j.NotifyRequest;
import org.rma4j.Window;
import org.rma4j.WaitOptions;
import org.rma4j.stress.RankPair.Epoch;
import org.rma4j.stress.RankPair.WindowSpec;

/**
 * Blocking and wake-up (jcstress termination mode): a rank blocked in a lock acquisition, a notification
 * wait, a PSCW wait or a fence is woken when the other rank releases it.
 *
 * <p>Setup: each test has its own 2-rank job whose wait strategy is BACKOFF with 0 spins and 0 yields, so
 * every blocking call goes to sleep on its futex at once instead of spinning first. jcstress makes a state,
 * starts the actor (rank 1) on a new thread, sleeps in 1 ms steps until that thread has started, and then
 * calls the signal (rank 0) on its own thread; the actor has usually reached its futex sleep by then. The
 * outcome is TERMINATED if the actor returns within jcstress's timeout (twice the iteration
 * time, at least 30 s), STALE otherwise.
 *
 * <p>Lost wake-ups: rma4j's sleepers also wake every 100 ms to check their peers' liveness
 * ({@code WaitStrategy.LIVENESS_PERIOD_NS}), so a lost futex wake-up alone shows as a late return, not as
 * STALE. Run with {@code -Drma4j.wait.lostWakeUpFails=true} (the build's jcstress run passes it to the
 * forked JVMs) and a sleep that ran out its period and then found its condition true throws
 * {@code IllegalStateException("lost wake-up ...")}: the test ends with an exception, which is FORBIDDEN.
 */
public final class WakeUp {
    static final WaitOptions SLEEP_AT_ONCE = WaitOptions.of(WaitOptions.Kind.BACKOFF, 0, 0);
    static final Group RANK0 = Group.of(0);
    static final Group RANK1 = Group.of(1);

    private WakeUp() {
    }

    @JCStressTest(Mode.Termination)
    @Description("Rank 0 holds lock(EXCLUSIVE, 1) from the state's start; rank 1 calls lock(EXCLUSIVE, 1) and "
        + "sleeps; the signal is rank 0's unlock(1).")
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "Rank 0's unlock woke rank 1, which got the lock.")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "Rank 1 stayed asleep in lock after the unlock.")
    @Outcome(expect = FORBIDDEN, desc = "An exception in lock or unlock.")
    @State
    public static class LockWakeUp {
        private static final class Job {
            static final RankPair PAIR = RankPair.start("WakeUp.Lock", SLEEP_AT_ONCE, WindowSpec.of(128, Epoch.NONE));
        }

        private final Window rank0 = Job.PAIR.window(0, 0);
        private final Window rank1 = Job.PAIR.window(0, 1);

        public LockWakeUp() {
            rank0.lock(LockType.EXCLUSIVE, 1);
        }

        @Actor
        public void rank1() {
            rank1.lock(LockType.EXCLUSIVE, 1);
            rank1.unlock(1);
        }

        @Signal
        public void rank0() {
            rank0.unlock(1);
        }
    }

    @JCStressTest(Mode.Termination)
    @Description("Rank 1 starts its notification request and waits; the signal is rank 0's zero-byte putNotify.")
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "The notification woke rank 1's wait.")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "Rank 1 stayed asleep after the notification was sent.")
    @Outcome(expect = FORBIDDEN, desc = "An exception in the request or the notified put.")
    @State
    public static class NotifyWakeUp {
        private static final int TAG = 3;
        private static final MemorySegment NOTHING = MemorySegment.ofArray(new byte[0]);

        private static final class Job {
            static final RankPair PAIR = RankPair.start("WakeUp.Notify", SLEEP_AT_ONCE, WindowSpec.of(128, Epoch.NONE));
            static final NotifyRequest REQUEST = PAIR.window(0, 1).notifyInit(0, TAG, 1);
        }

        private final Window rank0 = Job.PAIR.window(0, 0);

        @Actor
        public void rank1() {
            Job.REQUEST.start();
            Job.REQUEST.await();
        }

        @Signal
        public void rank0() {
            rank0.putNotify(NOTHING, 1, 0, TAG);
        }
    }

    @JCStressTest(Mode.Termination)
    @Description("Rank 1 posts to rank 0 and waits (MPI_WIN_WAIT); the signal is rank 0's start(1) and complete.")
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "Rank 0's complete woke rank 1's wait.")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "Rank 1 stayed asleep in wait after the complete.")
    @Outcome(expect = FORBIDDEN, desc = "An exception in post, start, complete or wait.")
    @State
    public static class PscwWaitWakeUp {
        private static final class Job {
            static final RankPair PAIR = RankPair.start("WakeUp.Pscw", SLEEP_AT_ONCE, WindowSpec.of(128, Epoch.NONE));
        }

        private final Window rank0 = Job.PAIR.window(0, 0);
        private final Window rank1 = Job.PAIR.window(0, 1);

        @Actor
        public void rank1() {
            rank1.post(RANK0, 0);
            rank1.await();
        }

        @Signal
        public void rank0() {
            rank0.start(RANK1, 0);
            rank0.complete();
        }
    }

    @JCStressTest(Mode.Termination)
    @Description("Rank 1 enters a fence and sleeps in its barrier; the signal is rank 0's matching fence.")
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "Rank 0's arrival at the fence woke rank 1.")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "Rank 1 stayed asleep in the fence after rank 0 arrived.")
    @Outcome(expect = FORBIDDEN, desc = "An exception in fence.")
    @State
    public static class FenceWakeUp {
        private static final class Job {
            static final RankPair PAIR = RankPair.start("WakeUp.Fence", SLEEP_AT_ONCE, WindowSpec.of(128, Epoch.FENCE));
        }

        private final Window rank0 = Job.PAIR.window(0, 0);
        private final Window rank1 = Job.PAIR.window(0, 1);

        @Actor
        public void rank1() {
            rank1.fence(0);
        }

        @Signal
        public void rank0() {
            rank0.fence(0);
        }
    }
}
