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
import org.openjdk.jcstress.infra.results.JJJ_Result;
import org.openjdk.jcstress.infra.results.JJ_Result;
import org.rma4j.NotifyRequest;
import org.rma4j.Window;
import org.rma4j.stress.RankPair.Epoch;
import org.rma4j.stress.RankPair.WindowSpec;

/**
 * Notified Access (Belli and Hoefler, IPDPS 2015): a notified put's data is in the target window no later
 * than when a request of the target matches its notification, and it takes effect in program order with the
 * origin's other operations to the target (the origin writes it at the call, whatever its size);
 * a notified get's notification arrives after the origin has read the data, so the target may overwrite
 * it once notified.
 *
 * <p>Setup: one window under lock_all at both ranks (notified calls need no epoch; lock_all is there for the
 * flush of the ladder rungs), 128-byte slots; rank 0 (actor 1) is the origin, rank 1 (actor 2) the target.
 * Each test has one persistent request at rank 1, {@code notifyInit(0, TAG, 1)}, which actor 2 starts and
 * waits for once per state.
 *
 * <p>How a blocking wait runs once per state: rank 0 sends exactly one notification per state and rank 1
 * waits for exactly one per state; matching is in arrival order, and jcstress 0.16 runs both actors over
 * the same states in the same order (see {@link FenceOrdering}), so the k-th match is state k's
 * notification. Each test checks that too: the matched notification's displacement must be the state's
 * slot (r3 or r2 = 1). Actor 2 blocks until actor 1 has sent, which only narrows the interleavings to those
 * where the wait returns after the send; actor 1 never waits for actor 2 (a full ring makes the sender
 * drain its own ring, not wait for the target).
 */
public final class NotifiedAccess {
    static final int TAG = 5;
    static final long DATA = 0;
    static final int LARGE_LONGS = 8;
    static final MemorySegment NOTHING = MemorySegment.ofArray(new byte[0]);
    static final long[] ONE = {1};

    private NotifiedAccess() {
    }

    private static RankPair start(final String name) {
        return RankPair.start(name, WindowSpec.of(128, Epoch.LOCK_ALL));
    }

    /** One state's slot: DATA (up to 64 bytes) in rank 1's part. */
    abstract static class Slot {
        final Window origin;
        final Window target;
        final MemorySegment targetMemory;
        final long base;

        Slot(final RankPair pair) {
            origin = pair.window(0, 0);
            target = pair.window(0, 1);
            targetMemory = pair.local(0, 1);
            base = pair.offset(0, pair.nextSlot());
            targetMemory.asSlice(base, 128).fill((byte)0);
        }

        final long matched(final NotifyRequest request) {
            request.start();
            return request.await().displacement() == base ? 1 : 0;
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *    RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *   0, 1, 1          1,510    0.24%    Acceptable  Rank 1 looked before the origin wrote the data.
     *   1, 1, 1        623,716   99.76%    Acceptable  The origin had written the data before rank 1 looked.
     *
     *   OK, C2: 435, 164,928
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 636, 252,218
     *   OK, C1: 369, 182,512
     *   OK, interpreter: 70, 24,058
     * }</pre>
     */
    @JCStressTest
    @Description("Short notified put: rank 0 putNotify(8 bytes = 1). Rank 1 loads DATA (r1), starts and waits for "
        + "its request, loads DATA again (r2); r3 = 1 if the match named this state's slot.")
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "Rank 1 looked before the origin wrote the data.")
    @Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "The origin had written the data before rank 1 looked.")
    @Outcome(id = ".*, 0, 1", expect = FORBIDDEN, desc = "Matched, but the data was not in the window.")
    @Outcome(expect = FORBIDDEN, desc = "The match named another slot, or a value nobody wrote.")
    @State
    public static class PutNotifyInline extends Slot {
        private static final class Job {
            static final RankPair PAIR = start("NotifiedAccess.PutNotifyInline");
            static final NotifyRequest REQUEST = PAIR.window(0, 1).notifyInit(0, TAG, 1);
        }

        public PutNotifyInline() {
            super(Job.PAIR);
        }

        @Actor
        public void rank0() {
            origin.putNotify(MemorySegment.ofArray(ONE), 1, base + DATA, TAG);
        }

        @Actor
        public void rank1(final JJJ_Result r) {
            r.r1 = Local.getLong(targetMemory, base + DATA);
            r.r3 = matched(Job.REQUEST);
            r.r2 = Local.getLong(targetMemory, base + DATA);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     2, 1        501,957  100.00%    Acceptable  Both operations took effect in program order.
     *
     *   OK, C2: 272
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 11,824
     *   OK, C1: 479,251
     *   OK, interpreter: 10,610
     * }</pre>
     */
    @JCStressTest
    @Description("Program order of a short notified put and a later put: rank 0, in a lock_all epoch, "
        + "putNotify(DATA = 1), put(DATA = 2), flush, putNotify(0 bytes). Rank 1 waits for both notifications, "
        + "then loads DATA (r1); r2 = 1 if the last match named this state's slot.")
    @Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "Both operations took effect in program order.")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "The short notified put's data landed after the later, flushed put (its data was copied only "
        + "when the target drained its ring): program order from one origin to one target is broken.")
    @Outcome(expect = FORBIDDEN, desc = "The match named another slot, or a value nobody wrote.")
    @State
    public static class ShortPutNotifyThenPut extends Slot {
        private static final class Job {
            static final RankPair PAIR = start("NotifiedAccess.ShortPutNotifyThenPut");
            static final NotifyRequest REQUEST = PAIR.window(0, 1).notifyInit(0, TAG, 2);
        }

        private static final long[] TWO = {2};

        public ShortPutNotifyThenPut() {
            super(Job.PAIR);
        }

        @Actor
        public void rank0() {
            origin.putNotify(MemorySegment.ofArray(ONE), 1, base + DATA, TAG);
            origin.put(TWO, 0, 1, 1, base + DATA);
            origin.flush(1);
            origin.putNotify(NOTHING, 1, base, TAG);
        }

        @Actor
        public void rank1(final JJ_Result r) {
            r.r2 = matched(Job.REQUEST);
            r.r1 = Local.getLong(targetMemory, base + DATA);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *    RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *   0, 8, 1          1,151    0.23%    Acceptable  Rank 1 looked before the copy started.
     *   1, 8, 1             35    0.01%    Acceptable  Rank 1 looked while the origin was copying (a put is not
     *                                                  atomic); complete at the match.
     *   2, 8, 1             39    0.01%    Acceptable  Rank 1 looked while the origin was copying (a put is not
     *                                                  atomic); complete at the match.
     *   3, 8, 1             30    0.01%    Acceptable  Rank 1 looked while the origin was copying (a put is not
     *                                                  atomic); complete at the match.
     *   4, 8, 1             48    0.01%    Acceptable  Rank 1 looked while the origin was copying (a put is not
     *                                                  atomic); complete at the match.
     *   5, 8, 1             44    0.01%    Acceptable  Rank 1 looked while the origin was copying (a put is not
     *                                                  atomic); complete at the match.
     *   6, 8, 1             58    0.01%    Acceptable  Rank 1 looked while the origin was copying (a put is not
     *                                                  atomic); complete at the match.
     *   7, 8, 1             98    0.02%    Acceptable  Rank 1 looked while the origin was copying (a put is not
     *                                                  atomic); complete at the match.
     *   8, 8, 1        498,122   99.70%    Acceptable  The copy had finished before rank 1 looked.
     *
     *   OK, C2: 417, 0, 0, 0, 0, 0, 2, 0, 1,308
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 118, 0, 0, 0, 0, 0, 0, 1, 6,878
     *   OK, C1: 572, 34, 38, 30, 48, 44, 56, 97, 478,332
     *   OK, interpreter: 44, 1, 1, 0, 0, 0, 0, 0, 11,604
     * }</pre>
     */
    @JCStressTest
    @Description("Notified put of 64 bytes (not inline): rank 0 putNotify(8 longs = 1). Rank 1 counts the longs "
        + "already 1 (r1), waits for its request, counts again (r2); r3 = 1 if the match named this slot.")
    @Outcome(id = "0, 8, 1", expect = ACCEPTABLE, desc = "Rank 1 looked before the copy started.")
    @Outcome(id = "[1-7], 8, 1", expect = ACCEPTABLE, desc = "Rank 1 looked while the origin was copying (a put is not atomic); complete at the match.")
    @Outcome(id = "8, 8, 1", expect = ACCEPTABLE, desc = "The copy had finished before rank 1 looked.")
    @Outcome(id = ".*, [0-7], 1", expect = FORBIDDEN, desc = "Matched, but some of the data was not in the window.")
    @Outcome(expect = FORBIDDEN, desc = "The match named another slot, or a value nobody wrote.")
    @State
    public static class PutNotifyLarge extends Slot {
        private static final class Job {
            static final RankPair PAIR = start("NotifiedAccess.PutNotifyLarge");
            static final NotifyRequest REQUEST = PAIR.window(0, 1).notifyInit(0, TAG, 1);
        }

        private static final long[] ONES = {1, 1, 1, 1, 1, 1, 1, 1};

        public PutNotifyLarge() {
            super(Job.PAIR);
        }

        @Actor
        public void rank0() {
            origin.putNotify(ONES, 0, LARGE_LONGS, 1, base + DATA, TAG);
        }

        @Actor
        public void rank1(final JJJ_Result r) {
            r.r1 = ones();
            r.r3 = matched(Job.REQUEST);
            r.r2 = ones();
        }

        private long ones() {
            long count = 0;
            for (int i = 0; i < LARGE_LONGS; i++) {
                count += Local.getLong(targetMemory, base + DATA + 8L * i) == 1 ? 1 : 0;
            }
            return count;
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     1, 1         25,783  100.00%    Acceptable  The get read the old value, then notified; rank 1 overwrote
     *                                                 after.
     *
     *   OK, C2: 4,747
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 913
     *   OK, C1: 988
     *   OK, interpreter: 19,135
     * }</pre>
     */
    @JCStressTest
    @Description("Notified get: DATA is 1. Rank 0 getNotify(DATA) (r1 = what it read). Rank 1 waits for its request, "
        + "then stores DATA = 2; r2 = 1 if the match named this slot.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The get read the old value, then notified; rank 1 overwrote after.")
    @Outcome(id = "2, 1", expect = FORBIDDEN, desc = "The get read rank 1's later store: the notification arrived before the data was read.")
    @Outcome(expect = FORBIDDEN, desc = "The match named another slot, or a value nobody wrote.")
    @State
    public static class GetNotify extends Slot {
        private static final class Job {
            static final RankPair PAIR = start("NotifiedAccess.GetNotify");
            static final NotifyRequest REQUEST = PAIR.window(0, 1).notifyInit(0, TAG, 1);
        }

        public GetNotify() {
            super(Job.PAIR);
            Local.putLong(targetMemory, base + DATA, 1);
        }

        @Actor
        public void rank0(final JJ_Result r) {
            final long[] value = new long[1];
            origin.getNotify(MemorySegment.ofArray(value), 1, base + DATA, TAG);
            r.r1 = value[0];
        }

        @Actor
        public void rank1(final JJ_Result r) {
            r.r2 = matched(Job.REQUEST);
            Local.putLong(targetMemory, base + DATA, 2);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     1, 1        508,424  100.00%    Acceptable  The plain put was complete before the notification.
     *
     *   OK, C2: 147,166
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 3,933
     *   OK, C1: 355,993
     *   OK, interpreter: 1,332
     * }</pre>
     */
    @JCStressTest
    @Description("Broken rung: rank 0 puts DATA = 1 with a plain put, then sends a zero-byte notified put, no flush. "
        + "Rank 1 waits for its request, then loads DATA (r1); r2 = 1 if the match named this slot.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The plain put was complete before the notification.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE_INTERESTING, desc = "Notified, data missing: a notified access is its own epoch and does not complete earlier plain "
        + "puts (MPI and NA); rma4j's plain put is complete at its call, so this needs the CPU or JIT.")
    @Outcome(expect = FORBIDDEN, desc = "The match named another slot, or a value nobody wrote.")
    @State
    public static class PutThenNotifyNoFlush extends Slot {
        private static final class Job {
            static final RankPair PAIR = start("NotifiedAccess.PutThenNotifyNoFlush");
            static final NotifyRequest REQUEST = PAIR.window(0, 1).notifyInit(0, TAG, 1);
        }

        public PutThenNotifyNoFlush() {
            super(Job.PAIR);
        }

        @Actor
        public void rank0() {
            origin.put(ONE, 0, 1, 1, base + DATA);
            origin.putNotify(NOTHING, 1, base, TAG);
        }

        @Actor
        public void rank1(final JJ_Result r) {
            r.r2 = matched(Job.REQUEST);
            r.r1 = Local.getLong(targetMemory, base + DATA);
        }
    }

    /**
     * Measured (docs/jcstress/ladders-quick.md, summed over the JVM configurations):
     *
     * <pre>{@code
     *   RESULT        SAMPLES     FREQ        EXPECT  DESCRIPTION
     *     1, 1         17,992  100.00%    Acceptable  The flushed put was complete before the notification.
     *
     *   OK, C2: 228
     *   OK, C2 + StressLCM/GCM/IGVN/CCP: 15,015
     *   OK, C1: 1,803
     *   OK, interpreter: 946
     * }</pre>
     */
    @JCStressTest
    @Description("Fixed rung: rank 0 puts DATA = 1, flushes, then sends a zero-byte notified put. Rank 1 waits for "
        + "its request, then loads DATA (r1); r2 = 1 if the match named this slot.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The flushed put was complete before the notification.")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "Notified after a flush, yet the flushed put's data was missing.")
    @Outcome(expect = FORBIDDEN, desc = "The match named another slot, or a value nobody wrote.")
    @State
    public static class PutFlushThenNotify extends Slot {
        private static final class Job {
            static final RankPair PAIR = start("NotifiedAccess.PutFlushThenNotify");
            static final NotifyRequest REQUEST = PAIR.window(0, 1).notifyInit(0, TAG, 1);
        }

        public PutFlushThenNotify() {
            super(Job.PAIR);
        }

        @Actor
        public void rank0() {
            origin.put(ONE, 0, 1, 1, base + DATA);
            origin.flush(1);
            origin.putNotify(NOTHING, 1, base, TAG);
        }

        @Actor
        public void rank1(final JJ_Result r) {
            r.r2 = matched(Job.REQUEST);
            r.r1 = Local.getLong(targetMemory, base + DATA);
        }
    }

    /**
     * The inline data of a short notified put: the target reads the data from the notification
     * ({@code NotifyRequest.inlineData}), which the origin wrote before publishing it, as it wrote the window.
     */
    @JCStressTest
    @Description("Inline data: rank 0 putNotify(8 bytes = 1). Rank 1 waits for its request and reads the data the "
        + "notification carried (r1) and the window (r2); r3 = 1 if the match named this state's slot.")
    @Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "The notification carried the put's data, which is in the window too.")
    @Outcome(id = "0, .*, 1", expect = FORBIDDEN, desc = "The notification carried no data, or stale data.")
    @Outcome(expect = FORBIDDEN, desc = "The window lacked the data at the match, or the match named another slot.")
    @State
    public static class PutNotifyInlineData extends Slot {
        private static final class Job {
            static final RankPair PAIR = start("NotifiedAccess.PutNotifyInlineData");
            static final NotifyRequest REQUEST = PAIR.window(0, 1).notifyInit(0, TAG, 1);
        }

        private final MemorySegment inline = MemorySegment.ofArray(new long[NotifyRequest.INLINE_BYTES / 8]);

        public PutNotifyInlineData() {
            super(Job.PAIR);
        }

        @Actor
        public void rank0() {
            origin.putNotify(MemorySegment.ofArray(ONE), 1, base + DATA, TAG);
        }

        @Actor
        public void rank1(final JJJ_Result r) {
            r.r3 = matched(Job.REQUEST);
            r.r1 = Job.REQUEST.inlineData(inline) == Long.BYTES
                ? inline.get(java.lang.foreign.ValueLayout.JAVA_LONG, 0)
                : -1;
            r.r2 = Local.getLong(targetMemory, base + DATA);
        }
    }
}
