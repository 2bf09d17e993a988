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
import org.rma4j.Window;
import org.rma4j.stress.RankPair.Epoch;
import org.rma4j.stress.RankPair.WindowSpec;

/**
 * MPI_WIN_SYNC on a shared-memory window (the MPI-3 idiom for load/store communication: store, win_sync,
 * flag ... flag, win_sync, load). rma4j makes win_sync a full memory fence, so with plain loads and stores
 * and no atomics a writer's win_sync orders its data store before its flag store and a reader's win_sync
 * orders its flag load before its data load.
 *
 * <p>Setup: one allocate_shared window under lock_all at both ranks (win_sync is called inside a passive
 * epoch as MPI requires). Rank 0 (actor 1) stores DATA and FLAG directly into rank 1's part through its
 * {@code sharedQuery(1)} mapping; rank 1 (actor 2) loads them from its own part. All accesses are plain.
 *
 * <p>Ladder: {@link StoreNoSync} (no fence at all), {@link StoreSyncWriterOnly} (the reader's loads are
 * still unordered), {@link StoreSyncBoth} (the guarantee).
 */
public final class SyncOrdering {
    static final long DATA = 0;
    static final long FLAG = 64;

    private SyncOrdering() {
    }

    private static final class Job {
        static final RankPair PAIR = RankPair.start("SyncOrdering", WindowSpec.of(128, Epoch.LOCK_ALL));
    }

    /** One state's slot, seen by rank 0 through sharedQuery and by rank 1 as its own memory. */
    abstract static class Slot {
        final Window writer = Job.PAIR.window(0, 0);
        final Window reader = Job.PAIR.window(0, 1);
        final MemorySegment writerView = Job.PAIR.shared(0, 0, 1);
        final MemorySegment readerView = Job.PAIR.local(0, 1);
        final long base = Job.PAIR.offset(0, Job.PAIR.nextSlot());

        Slot() {
            Local.putLong(readerView, base + DATA, 0);
            Local.putLong(readerView, base + FLAG, 0);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     0, 0      1,030,696   42.78%    Acceptable  The reader ran before both stores.
     *     0, 1          8,230    0.34%    Acceptable  The reader loaded FLAG before its store and DATA after.
     *     1, 1      1,370,271   56.88%    Acceptable  The reader ran after both stores.
     *
     *   OK, C2: 280,561, 5,495, 479,915
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 343,661, 1,938, 573,972
     *   OK, C1: 378,502, 549, 284,520
     *   OK, interpreter: 27,972, 248, 31,864
     * }</pre>
     */
    @JCStressTest
    @Description("Broken rung: DATA = 1; FLAG = 1 with plain stores; the reader loads FLAG then DATA, no win_sync.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The reader ran before both stores.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The reader loaded FLAG before its store and DATA after.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The reader ran after both stores.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "FLAG seen, DATA not: plain stores and loads may be reordered by the JIT (or a weaker CPU).")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class StoreNoSync extends Slot {
        @Actor
        public void rank0() {
            Local.putLong(writerView, base + DATA, 1);
            Local.putLong(writerView, base + FLAG, 1);
        }

        @Actor
        public void rank1(final JJ_Result r) {
            r.r1 = Local.getLong(readerView, base + FLAG);
            r.r2 = Local.getLong(readerView, base + DATA);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     0, 0        412,482   38.06%    Acceptable  The reader ran before both stores.
     *     0, 1          1,571    0.14%    Acceptable  The reader loaded FLAG before its store and DATA after.
     *     1, 1        669,592   61.79%    Acceptable  The reader ran after both stores.
     *
     *   OK, C2: 243,604, 1,244, 295,843
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 16,084, 6, 18,302
     *   OK, C1: 149,182, 318, 339,991
     *   OK, interpreter: 3,612, 3, 15,456
     * }</pre>
     */
    @JCStressTest
    @Description("Half-fixed rung: DATA = 1; win_sync; FLAG = 1; the reader loads FLAG then DATA without win_sync.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The reader ran before both stores.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The reader loaded FLAG before its store and DATA after.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The reader ran after both stores.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "FLAG seen, DATA not: the reader's two plain loads are not ordered without its own win_sync.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class StoreSyncWriterOnly extends Slot {
        @Actor
        public void rank0() {
            Local.putLong(writerView, base + DATA, 1);
            writer.sync();
            Local.putLong(writerView, base + FLAG, 1);
        }

        @Actor
        public void rank1(final JJ_Result r) {
            r.r1 = Local.getLong(readerView, base + FLAG);
            r.r2 = Local.getLong(readerView, base + DATA);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     0, 0        302,790   41.66%    Acceptable  The reader ran before both stores.
     *     0, 1          1,902    0.26%    Acceptable  The reader loaded FLAG before its store and DATA after.
     *     1, 1        422,115   58.08%    Acceptable  The reader ran after both stores.
     *
     *   OK, C2: 64,880, 424, 49,178
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 202, 589, 200
     *   OK, C1: 219,100, 786, 331,045
     *   OK, interpreter: 18,608, 103, 41,692
     * }</pre>
     */
    @JCStressTest
    @Description("The guarantee: DATA = 1; win_sync; FLAG = 1; the reader loads FLAG, win_sync, loads DATA.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The reader ran before both stores.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The reader loaded FLAG before its store and DATA after.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The reader ran after both stores.")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "FLAG seen, DATA not: a win_sync on either side did not order the plain accesses around it.")
    @Outcome(expect = FORBIDDEN, desc = "A value nobody wrote.")
    @State
    public static class StoreSyncBoth extends Slot {
        @Actor
        public void rank0() {
            Local.putLong(writerView, base + DATA, 1);
            writer.sync();
            Local.putLong(writerView, base + FLAG, 1);
        }

        @Actor
        public void rank1(final JJ_Result r) {
            r.r1 = Local.getLong(readerView, base + FLAG);
            reader.sync();
            r.r2 = Local.getLong(readerView, base + DATA);
        }
    }
}
