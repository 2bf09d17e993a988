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
import org.rma4j.LockType;
import org.rma4j.Op;
import org.rma4j.Window;
import org.rma4j.stress.RankPair.Epoch;
import org.rma4j.stress.RankPair.WindowSpec;

/**
 * MPI_WIN_UNLOCK: every operation of the lock epoch is complete at the target when unlock returns, so a
 * flag set after the unlock carries the epoch's data with it.
 *
 * <p>Setup: window 0 (DATA) with no epoch, each state locking and unlocking rank 1 with a shared lock; window
 * 1 (FLAG) under lock_all at both ranks. DATA and FLAG are in rank 1's part of the state's slot. Actor 1 is
 * rank 0 (origin), actor 2 is rank 1 (target): it reads FLAG with fetch_and_op NO_OP, then DATA with a plain
 * load of its own memory.
 *
 * <p>Ladder: {@link FlagBeforeUnlock} (broken: the flag is set inside the epoch, before unlock completes the
 * put; MPI allows the data to be missing, rma4j's eager put never shows it) and {@link PutUnlockFlag} (the
 * guarantee).
 */
public final class UnlockOrdering {
    static final long DATA = 0;
    static final long FLAG = 0;
    static final long[] ONE = {1};

    private UnlockOrdering() {
    }

    private static final class Job {
        static final RankPair PAIR = RankPair.start("UnlockOrdering", WindowSpec.of(128, Epoch.NONE),
            WindowSpec.of(128, Epoch.LOCK_ALL));
    }

    /** One state's slot in both windows. */
    abstract static class Slot {
        final Window originData = Job.PAIR.window(0, 0);
        final Window originFlag = Job.PAIR.window(1, 0);
        final Window targetFlag = Job.PAIR.window(1, 1);
        final MemorySegment targetData = Job.PAIR.local(0, 1);
        final MemorySegment targetFlags = Job.PAIR.local(1, 1);
        final int slot = Job.PAIR.nextSlot();
        final long data = Job.PAIR.offset(0, slot) + DATA;
        final long flag = Job.PAIR.offset(1, slot) + FLAG;

        Slot() {
            Local.putLong(targetData, data, 0);
            Local.putLong(targetFlags, flag, 0);
        }

        final void readFlagThenData(final JJ_Result r) {
            r.r1 = targetFlag.fetchAndOp(0L, 1, flag, Op.NO_OP);
            r.r2 = Local.getLong(targetData, data);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     0, 0        407,042   61.30%    Acceptable  The target read before the put.
     *     0, 1            167    0.03%    Acceptable  The target read FLAG before it was set and DATA after the put.
     *     1, 1        256,856   38.68%    Acceptable  The target read after the flag.
     *
     *   OK, C2: 325, 1, 24
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 22,804, 41, 18,179
     *   OK, C1: 357,924, 94, 223,633
     *   OK, interpreter: 25,989, 31, 15,020
     * }</pre>
     */
    @JCStressTest
    @Description("Broken rung: lock(SHARED, 1); put DATA; set FLAG (accumulate REPLACE); unlock(1).")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The target read before the put.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The target read FLAG before it was set and DATA after the put.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The target read after the flag.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "FLAG seen, DATA not: the put need not be complete before unlock (MPI); rma4j puts at the call.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class FlagBeforeUnlock extends Slot {
        @Actor
        public void rank0() {
            originData.lock(LockType.SHARED, 1);
            originData.put(ONE, 0, 1, 1, data);
            originFlag.fetchAndOp(1L, 1, flag, Op.REPLACE);
            originData.unlock(1);
        }

        @Actor
        public void rank1(final JJ_Result r) {
            readFlagThenData(r);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     0, 0        355,784   52.61%    Acceptable  The target read before the put.
     *     0, 1            299    0.04%    Acceptable  The target read FLAG before it was set and DATA after the put.
     *     1, 1        320,210   47.35%    Acceptable  The target read after the flag.
     *
     *   OK, C2: 24,140, 33, 31,680
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 44,997, 81, 25,367
     *   OK, C1: 270,044, 168, 249,999
     *   OK, interpreter: 16,603, 17, 13,164
     * }</pre>
     */
    @JCStressTest
    @Description("The guarantee: lock(SHARED, 1); put DATA; unlock(1); set FLAG (accumulate REPLACE).")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The target read before the put.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The target read FLAG before it was set and DATA after the put.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The target read after the flag.")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "FLAG seen, DATA not: the put was not complete at the target when unlock returned.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class PutUnlockFlag extends Slot {
        @Actor
        public void rank0() {
            originData.lock(LockType.SHARED, 1);
            originData.put(ONE, 0, 1, 1, data);
            originData.unlock(1);
            originFlag.fetchAndOp(1L, 1, flag, Op.REPLACE);
        }

        @Actor
        public void rank1(final JJ_Result r) {
            readFlagThenData(r);
        }
    }
}
