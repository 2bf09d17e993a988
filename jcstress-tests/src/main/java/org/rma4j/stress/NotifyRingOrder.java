package org.rma4j.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.rma4j.notify.Notification;
import org.rma4j.notify.NotifyRing;
import org.rma4j.notify.NotifyRingLayout;
import org.rma4j.notify.ProducerLiveness;
import org.rma4j.stress.RankPair.Epoch;
import org.rma4j.stress.RankPair.WindowSpec;

/**
 * The notification ring ({@link NotifyRing}, notify-queue): with two producers offering concurrently from
 * two mappings of the same shared file and one consumer, nothing is lost, nothing is delivered twice, each
 * producer's notifications arrive in the order it offered them, and each entry's inline payload arrives with
 * it.
 *
 * <p>Setup: a fresh ring of capacity 4 per state in rank 1's part of a shared window (the ring lives in
 * shared memory, as the runtime's rings do). Rank 0 (actor 1) produces through its own mapping of that memory
 * ({@code sharedQuery(1)}), rank 1 (actor 2) through its own; each offers two notifications (tags 1, 2 and
 * 11, 12) with an 8-byte inline payload of 7 x tag. The arbiter is the consumer: it drains the ring after
 * both producers and reports the tags in delivery order (-1: nothing more was delivered; -2: a source or
 * payload that does not match its tag; 99 as the fourth: more than four were delivered). Before the test the
 * constructor moves the ring's indices 0 to 3 entries on (slot number mod 4), so the four entries cross the
 * end of the ring at every position.
 */
public final class NotifyRingOrder {
    static final int CAPACITY = 4;
    static final long RING_BYTES = (NotifyRingLayout.lengthFor(CAPACITY) + 127) & -128L;

    private NotifyRingOrder() {
    }

    private static final class Job {
        static final RankPair PAIR = RankPair.start("NotifyRingOrder", WindowSpec.of(RING_BYTES, Epoch.NONE));
    }

    @JCStressTest
    @Description("Two producers offer two notifications each into one ring; the arbiter drains it.")
    @Outcome(id = "1, 2, 11, 12", expect = ACCEPTABLE, desc = "Rank 0 claimed both slots before rank 1.")
    @Outcome(id = "1, 11, 2, 12", expect = ACCEPTABLE, desc = "Claims alternated, rank 0 first.")
    @Outcome(id = "1, 11, 12, 2", expect = ACCEPTABLE, desc = "Rank 1 claimed both slots between rank 0's two.")
    @Outcome(id = "11, 1, 2, 12", expect = ACCEPTABLE, desc = "Rank 0 claimed both slots between rank 1's two.")
    @Outcome(id = "11, 1, 12, 2", expect = ACCEPTABLE, desc = "Claims alternated, rank 1 first.")
    @Outcome(id = "11, 12, 1, 2", expect = ACCEPTABLE, desc = "Rank 1 claimed both slots before rank 0.")
    @Outcome(expect = FORBIDDEN, desc = "A notification lost (-1), duplicated (99), reordered within its producer, or with a wrong "
        + "payload (-2).")
    @State
    public static class TwoProducers {
        private final NotifyRing producer0;
        private final NotifyRing producer1;
        private final NotifyRing consumer;

        public TwoProducers() {
            final int slot = Job.PAIR.nextSlot();
            final long ring = Job.PAIR.offset(0, slot);
            final MemorySegment rank1View = Job.PAIR.local(0, 1);
            final MemorySegment rank0View = Job.PAIR.shared(0, 0, 1);
            NotifyRing.format(rank1View, ring, CAPACITY);
            consumer = new NotifyRing(rank1View, ring, CAPACITY, ProducerLiveness.UNKNOWN_PRODUCER);
            producer0 = new NotifyRing(rank0View, ring, CAPACITY, 0);
            producer1 = new NotifyRing(rank1View, ring, CAPACITY, 1);
            final NotifyRing warmUp = new NotifyRing(rank1View, ring, CAPACITY, 2);
            for (int i = 0; i < slot % CAPACITY; i++) {
                warmUp.offer(2, 0, 0, 0, 0, null);
                consumer.drain(n -> {
                }, CAPACITY);
            }
        }

        @Actor
        public void rank0() {
            offer(producer0, 0, 1);
            offer(producer0, 0, 2);
        }

        @Actor
        public void rank1() {
            offer(producer1, 1, 11);
            offer(producer1, 1, 12);
        }

        @Arbiter
        public void consumer(final IIII_Result r) {
            final int[] delivered = {-1, -1, -1, -1};
            final int[] count = {0};
            while (consumer.drain(n -> {
                final int seen = check(n);
                if (count[0] < delivered.length) {
                    delivered[count[0]] = seen;
                } else {
                    delivered[delivered.length - 1] = 99;
                }
                count[0]++;
            }, CAPACITY) > 0) {
                // drain until empty
            }
            r.r1 = delivered[0];
            r.r2 = delivered[1];
            r.r3 = delivered[2];
            r.r4 = delivered[3];
        }

        private static void offer(final NotifyRing ring, final int source, final int tag) {
            ring.offer(source, tag, 0, Long.BYTES, 0, MemorySegment.ofArray(new long[] {7L * tag}));
        }

        private static int check(final Notification n) {
            final int tag = n.tag();
            final int expectedSource = tag < 10 ? 0 : 1;
            if (n.source() != expectedSource || n.inlineLength() != Long.BYTES
                || n.inlinePayload().get(ValueLayout.JAVA_LONG_UNALIGNED, 0) != 7L * tag) {
                return -2;
            }
            return tag;
        }
    }
}
