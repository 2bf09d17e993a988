package org.rma4j.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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

/**
 * The notification ring's claim, record and give-up race ({@link NotifyRing}, notify-queue): a consumer that
 * believes some producer of the ring is dead gives up every claimed slot whose claimer has not recorded itself
 * yet; the claimer then finds its claim given up and claims again. Whatever the interleaving, an offer that
 * returned true is delivered exactly once with its own fields, and one that returned false is never delivered.
 * Before the record CAS was restricted to the slot's previous-lap value, a producer preempted between claiming
 * and recording could record over the claim of a producer that reused the slot a lap later (ABA), losing both.
 *
 * <p>Setup: a fresh ring of one slot per state (capacity 1, so a lap is one offer), in memory of the test
 * JVM (2 actors, so that it runs on 2 CPUs). Producer 0 offers once; the other actor consumes (with
 * {@code anyDead} true and no check interval, so it gives up an unrecorded claim at once), offers as producer 1,
 * which reuses the slot a lap later, and consumes again; the arbiter drains the rest. r1, r2: whether producer 0 and 1's offers returned true;
 * r3: the tags delivered (bit 0: producer 0's, bit 1: producer 1's, +4 per duplicate); r4: entries with fields
 * that belong to neither offer.
 */
public final class NotifyRingGiveUp {
    private NotifyRingGiveUp() {
    }

    @JCStressTest
    @Description("Two producers offer into a one-slot ring while the consumer gives up unrecorded claims.")
    @Outcome(id = "1, 0, 1, 0", expect = ACCEPTABLE, desc = "Producer 0's entry filled the ring; producer 1 found it full.")
    @Outcome(id = "0, 1, 2, 0", expect = ACCEPTABLE, desc = "Producer 1's entry filled the ring; producer 0 found it full "
        + "(possibly after its first claim was given up).")
    @Outcome(id = "1, 1, 3, 0", expect = ACCEPTABLE, desc = "The consumer drained one entry before the other was offered.")
    @Outcome(expect = FORBIDDEN, desc = "An accepted offer lost, a refused one delivered, a duplicate, or mixed fields.")
    @State
    public static class TwoProducersOneSlot {
        private final NotifyRing producer0;
        private final NotifyRing producer1;
        private final NotifyRing consumer;
        private int delivered;
        private int corrupted;

        public TwoProducersOneSlot() {
            final MemorySegment ring = Arena.ofAuto().allocate(NotifyRingLayout.lengthFor(1), 128);
            NotifyRing.format(ring, 0, 1);
            consumer = new NotifyRing(ring, 0, 1, ProducerLiveness.UNKNOWN_PRODUCER,
                ProducerLiveness.of(id -> false, () -> true), (index, producer) -> {
                }, 0);
            producer0 = new NotifyRing(ring, 0, 1, 0);
            producer1 = new NotifyRing(ring, 0, 1, 1);
        }

        @Actor
        public void producer0(final IIII_Result r) {
            r.r1 = producer0.offer(0, 10, 1000, 100, 0, null) ? 1 : 0;
        }

        @Actor
        public void consumerThenProducer1(final IIII_Result r) {
            consumer.drain(this::take, 2);
            r.r2 = producer1.offer(1, 11, 1001, 101, 0, null) ? 1 : 0;
            consumer.drain(this::take, 2);
        }

        @Arbiter
        public void rest(final IIII_Result r) {
            while (consumer.drain(this::take, 2) > 0) {
                // until empty
            }
            r.r3 = delivered;
            r.r4 = corrupted;
        }

        private void take(final Notification n) {
            final int source = n.source();
            if ((source != 0 && source != 1) || n.tag() != 10 + source || n.displacement() != 1000 + source
                || n.length() != 100 + source) {
                corrupted++;
                return;
            }
            final int bit = 1 << source;
            delivered += (delivered & bit) != 0 ? 4 : bit;
        }
    }
}
