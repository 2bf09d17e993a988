package org.rma4j.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.lang.foreign.MemorySegment;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;
import org.openjdk.jcstress.infra.results.JJ_Result;
import org.rma4j.LockType;
import org.rma4j.Window;
import org.rma4j.stress.RankPair.Epoch;
import org.rma4j.stress.RankPair.WindowSpec;

/**
 * Passive-target locks (MPI_WIN_LOCK / MPI_WIN_UNLOCK): exclusive lock epochs on one target never overlap
 * each other or a shared epoch, so a non-atomic read-modify-write under an exclusive lock loses no update
 * and a reader under a shared lock never sees half of a writer's exclusive epoch.
 *
 * <p>Setup: one window with no epoch open, 128-byte slots; the locations are in rank 1's part, and both
 * actors lock rank 1 (actor 1 is rank 0, actor 2 is rank 1 locking its own window) once per state. The lock
 * word is per target, shared by all states: every state's epochs contend for the same lock, as a program's
 * would.
 *
 * <p>Ladders: {@link SharedIncrement} (broken: shared locks do not exclude each other) below
 * {@link ExclusiveIncrement}; {@link UnlockedReader} (broken: a reader without a lock) below
 * {@link SharedReaderExclusiveWriter}.
 */
public final class PassiveLocks {
    static final long COUNTER = 0;
    static final long A = 0;
    static final long B = 64;
    static final long[] ONE = {1};

    private PassiveLocks() {
    }

    private static final class Job {
        static final RankPair PAIR = RankPair.start("PassiveLocks", WindowSpec.of(128, Epoch.NONE));
    }

    /** One state's slot in rank 1's part. */
    abstract static class Slot {
        final Window rank0 = Job.PAIR.window(0, 0);
        final Window rank1 = Job.PAIR.window(0, 1);
        final MemorySegment memory = Job.PAIR.local(0, 1);
        final long base = Job.PAIR.offset(0, Job.PAIR.nextSlot());

        Slot() {
            memory.asSlice(base, 128).fill((byte)0);
        }

        /** lock(type, 1); get COUNTER; put COUNTER + 1; unlock(1); returns what was read. */
        final long increment(final Window window, final LockType type) {
            final long[] value = new long[1];
            window.lock(type, 1);
            window.get(value, 0, 1, 1, base + COUNTER);
            final long seen = value[0];
            value[0] = seen + 1;
            window.put(value, 0, 1, 1, base + COUNTER);
            window.unlock(1);
            return seen;
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *    RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *   0, 1, 2        283,582   75.42%    Acceptable  Rank 0's epoch came first.
     *   1, 0, 2         92,439   24.58%    Acceptable  Rank 1's epoch came first.
     *
     *   OK, C2: 9,027, 5,532
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 930, 855
     *   OK, C1: 249,960, 69,267
     *   OK, interpreter: 23,665, 16,785
     * }</pre>
     */
    @JCStressTest
    @Description("Both ranks: lock(EXCLUSIVE, 1); get COUNTER; put COUNTER + 1; unlock(1). r1, r2 = the values "
        + "read, r3 = COUNTER after both.")
    @Outcome(id = "0, 1, 2", expect = ACCEPTABLE, desc = "Rank 0's epoch came first.")
    @Outcome(id = "1, 0, 2", expect = ACCEPTABLE, desc = "Rank 1's epoch came first.")
    @Outcome(id = "0, 0, 1", expect = FORBIDDEN, desc = "The two exclusive epochs overlapped: an increment was lost.")
    @Outcome(expect = FORBIDDEN, desc = "Any other outcome.")
    @State
    public static class ExclusiveIncrement extends Slot {
        @Actor
        public void rank0(final JJJ_Result r) {
            r.r1 = increment(rank0, LockType.EXCLUSIVE);
        }

        @Actor
        public void rank1(final JJJ_Result r) {
            r.r2 = increment(rank1, LockType.EXCLUSIVE);
        }

        @Arbiter
        public void arbiter(final JJJ_Result r) {
            r.r3 = Local.getLong(memory, base + COUNTER);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *    RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *   0, 0, 1        141,665    8.37%   Interesting  Shared epochs overlap by design: both read 0 and one increment
     *                                                  was lost.
     *   0, 1, 2        958,145   56.63%    Acceptable  Rank 0's epoch happened to finish before rank 1's get.
     *   1, 0, 2        592,239   35.00%    Acceptable  Rank 1's epoch happened to finish before rank 0's get.
     *
     *   OK, C2: 79,051, 281,665, 231,175
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 62,084, 377,802, 172,485
     *   OK, C1: 506, 287,709, 180,796
     *   OK, interpreter: 24, 10,969, 7,783
     * }</pre>
     */
    @JCStressTest
    @Description("Broken rung: as ExclusiveIncrement with SHARED locks.")
    @Outcome(id = "0, 1, 2", expect = ACCEPTABLE, desc = "Rank 0's epoch happened to finish before rank 1's get.")
    @Outcome(id = "1, 0, 2", expect = ACCEPTABLE, desc = "Rank 1's epoch happened to finish before rank 0's get.")
    @Outcome(id = "0, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "Shared epochs overlap by design: both read 0 and one increment was lost.")
    @Outcome(expect = FORBIDDEN, desc = "A value no interleaving of the gets and puts gives.")
    @State
    public static class SharedIncrement extends Slot {
        @Actor
        public void rank0(final JJJ_Result r) {
            r.r1 = increment(rank0, LockType.SHARED);
        }

        @Actor
        public void rank1(final JJJ_Result r) {
            r.r2 = increment(rank1, LockType.SHARED);
        }

        @Arbiter
        public void arbiter(final JJJ_Result r) {
            r.r3 = Local.getLong(memory, base + COUNTER);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     0, 0        474,285   34.08%    Acceptable  The reader's shared epoch came first.
     *     1, 1        917,409   65.92%    Acceptable  The writer's exclusive epoch came first.
     *
     *   OK, C2: 34, 102
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 315,600, 583,491
     *   OK, C1: 146,323, 312,448
     *   OK, interpreter: 12,328, 21,368
     * }</pre>
     */
    @JCStressTest
    @Description("Rank 0: lock(EXCLUSIVE, 1); put A = 1; put B = 1; unlock(1). Rank 1: lock(SHARED, 1); get A; "
        + "get B; unlock(1).")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The reader's shared epoch came first.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The writer's exclusive epoch came first.")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "The reader's epoch overlapped the writer's: it saw only B.")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "The reader's epoch overlapped the writer's: it saw only A.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class SharedReaderExclusiveWriter extends Slot {
        @Actor
        public void rank0() {
            rank0.lock(LockType.EXCLUSIVE, 1);
            rank0.put(ONE, 0, 1, 1, base + A);
            rank0.put(ONE, 0, 1, 1, base + B);
            rank0.unlock(1);
        }

        @Actor
        public void rank1(final JJ_Result r) {
            final long[] a = new long[1];
            final long[] b = new long[1];
            rank1.lock(LockType.SHARED, 1);
            rank1.get(a, 0, 1, 1, base + A);
            rank1.get(b, 0, 1, 1, base + B);
            rank1.unlock(1);
            r.r1 = a[0];
            r.r2 = b[0];
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     0, 0        295,393   71.86%    Acceptable  The reader ran before the writer's puts.
     *     0, 1              7    0.00%   Interesting  The writer's whole epoch ran between the reader's two loads:
     *                                                 without a lock it is not excluded.
     *     1, 0             69    0.02%   Interesting  The reader's loads ran between the writer's two puts: without a
     *                                                 lock it sees half an epoch.
     *     1, 1        115,591   28.12%    Acceptable  The reader ran after the writer's puts.
     *
     *   OK, C2: 99,765, 2, 14, 22,845
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 153,921, 2, 43, 63,597
     *   OK, C1: 15,662, 1, 2, 12,327
     *   OK, interpreter: 26,045, 2, 10, 16,822
     * }</pre>
     */
    @JCStressTest
    @Description("Broken rung: the writer as in SharedReaderExclusiveWriter; rank 1 loads A then B from its own "
        + "memory without a lock.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The reader ran before the writer's puts.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The reader ran after the writer's puts.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE_INTERESTING, desc = "The writer's whole epoch ran between the reader's two loads: without a lock it is not excluded.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "The reader's loads ran between the writer's two puts: without a lock it sees half an epoch.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class UnlockedReader extends Slot {
        @Actor
        public void rank0() {
            rank0.lock(LockType.EXCLUSIVE, 1);
            rank0.put(ONE, 0, 1, 1, base + A);
            rank0.put(ONE, 0, 1, 1, base + B);
            rank0.unlock(1);
        }

        @Actor
        public void rank1(final JJ_Result r) {
            r.r1 = Local.getLong(memory, base + A);
            r.r2 = Local.getLong(memory, base + B);
        }
    }
}
