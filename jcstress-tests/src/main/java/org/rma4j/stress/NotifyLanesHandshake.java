package org.rma4j.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.openjdk.jcstress.infra.results.II_Result;
import org.rma4j.notify.LaneProducer;
import org.rma4j.notify.Notification;
import org.rma4j.notify.NotifyLanes;
import org.rma4j.notify.NotifyLanesLayout;
import org.rma4j.shm.BiasedLock;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.Membarrier;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.WaitWords;
import org.rma4j.shm.Words;

/**
 * The notification lanes ({@link NotifyLanes}, notify-queue): publication by one release store per offer, and the
 * no-lost-wake-up handshake between a producer that uses no fence and a consumer that issues
 * {@code membarrier(MEMBARRIER_CMD_GLOBAL_EXPEDITED)} on its way to sleep ({@code WaitWords}, "Asymmetric
 * protocol"). Each state has its own lanes in native memory of the test JVM (the membarrier covers every thread
 * of a registered process, this JVM's included).
 *
 * <p>The handshake tests are a ladder (jcstress {@code BasicJMM_06_Causality} style): the consumer announces
 * itself as a sleeper, then re-checks the lanes; the producer publishes, then reads the sleeper count. The
 * outcome (producer saw the sleeper, consumer saw the entry) = (0, 0) is a lost wake-up: the consumer would
 * sleep and nobody would wake it. With a membarrier (asymmetric mode) or full fences on both sides (symmetric
 * mode) it is FORBIDDEN; with neither, the producer's load may pass its own store (store buffering) and it is
 * ACCEPTABLE_INTERESTING: the reason the protocol needs one of the two.
 */
public final class NotifyLanesHandshake {
    private NotifyLanesHandshake() {
    }

    /** Lanes of {@code lanes} x {@code capacity} in fresh native memory, formatted in {@code fenceMode}. */
    static MemorySegment newLanes(final int lanes, final int capacity, final int fenceMode) {
        return newLanes(lanes, capacity, fenceMode, NotifyLanesLayout.pollModeFor(lanes));
    }

    /** {@link #newLanes(int, int, int)} in a given poll mode. */
    static MemorySegment newLanes(final int lanes, final int capacity, final int fenceMode, final int pollMode) {
        final MemorySegment segment = Arena.ofAuto().allocate(NotifyLanesLayout.lengthFor(lanes, capacity), 128);
        NotifyLanes.format(segment, 0, lanes, capacity, fenceMode, pollMode);
        return segment;
    }

    static int asymmetricIfSupported() {
        return Membarrier.isGlobalExpeditedSupported()
            ? NotifyLanesLayout.FENCE_ASYMMETRIC
            : NotifyLanesLayout.FENCE_SYMMETRIC;
    }

    @JCStressTest
    @Description("Origin 0 offers two notifications into its lane; the other actor offers one as origin 1, drains "
        + "once as the consumer, then offers a second as origin 1; the arbiter drains the rest.")
    @Outcome(id = "1, 2, 11, 12", expect = ACCEPTABLE, desc = "Lane 0's two first (the cursor starts at lane 0).")
    @Outcome(id = "1, 11, 2, 12", expect = ACCEPTABLE, desc = "The drain took 1, then lane 1's 11 before 2 came.")
    @Outcome(id = "1, 11, 12, 2", expect = ACCEPTABLE, desc = "The drain took 1 and 11; 12 was found before 2.")
    @Outcome(id = "11, 1, 2, 12", expect = ACCEPTABLE, desc = "The drain found lane 0 empty, took 11, then 1 and 2.")
    @Outcome(id = "11, 1, 12, 2", expect = ACCEPTABLE, desc = "The drain took 11 and 1; the arbiter 12, then 2.")
    @Outcome(id = "11, 12, 1, 2", expect = ACCEPTABLE, desc = "The drain took only 11; lane 1 kept its turn.")
    @Outcome(expect = FORBIDDEN, desc = "A notification lost (-1), duplicated (99), reordered within its lane, or with a wrong payload (-2).")
    @State
    public static class TwoLanesOrder {
        private final LaneProducer producer0;
        private final LaneProducer producer1;
        private final NotifyLanes consumer;
        private final int[] delivered = {-1, -1, -1, -1};
        private int count;

        public TwoLanesOrder() {
            final MemorySegment lanes = newLanes(2, 4, asymmetricIfSupported());
            consumer = new NotifyLanes(lanes, 0, 2, 4);
            producer0 = new LaneProducer(lanes, 0, 2, 4, 0);
            producer1 = new LaneProducer(lanes, 0, 2, 4, 1);
        }

        @Actor
        public void origin0() {
            offer(producer0, 0, 1);
            offer(producer0, 0, 2);
        }

        @Actor
        public void origin1AndTarget() {
            offer(producer1, 1, 11);
            consumer.drain(this::take, 4);
            offer(producer1, 1, 12);
        }

        @Arbiter
        public void rest(final IIII_Result r) {
            while (consumer.drain(this::take, 4) > 0) {
                // until empty
            }
            r.r1 = delivered[0];
            r.r2 = delivered[1];
            r.r3 = delivered[2];
            r.r4 = delivered[3];
        }

        private void take(final Notification n) {
            final int tag = n.tag();
            final int expectedSource = tag < 10 ? 0 : 1;
            final boolean intact = n.source() == expectedSource && n.inlineLength() == Long.BYTES
                && n.inlinePayload().get(ValueLayout.JAVA_LONG_UNALIGNED, 0) == 7L * tag;
            if (count < delivered.length) {
                delivered[count] = intact ? tag : -2;
            } else {
                delivered[delivered.length - 1] = 99;
            }
            count++;
        }

        private static void offer(final LaneProducer lane, final int source, final int tag) {
            lane.offer(source, tag, 0, Long.BYTES, 0, MemorySegment.ofArray(new long[] {7L * tag}));
        }
    }

    @JCStressTest
    @Description("Two threads of one process share its lane, as two threads of a rank share its lane at a target: "
        + "each takes the lane's BiasedLock (spinning while not taken), offers one notification and gives the lock "
        + "back; the first taker owns the bias, the other revokes it. The arbiter drains.")
    @Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "Both delivered once, intact; the first thread offered first.")
    @Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "Both delivered once, intact; the second thread offered first.")
    @Outcome(expect = FORBIDDEN, desc = "A notification lost (-1) or duplicated (99), or fields mixed from both (-2): "
        + "the two offers overlapped in the lane.")
    @State
    public static class TwoThreadsOneLane {
        private final BiasedLock lock = new BiasedLock();
        private final LaneProducer producer;
        private final NotifyLanes consumer;
        private final int[] delivered = {-1, -1};
        private int count;

        public TwoThreadsOneLane() {
            final MemorySegment lanes = newLanes(1, 2, asymmetricIfSupported());
            consumer = new NotifyLanes(lanes, 0, 1, 2);
            producer = new LaneProducer(lanes, 0, 1, 2, 0);
        }

        @Actor
        public void first() {
            offerLocked(1);
        }

        @Actor
        public void second() {
            offerLocked(2);
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            consumer.drain(n -> {
                final int tag = n.tag();
                final boolean intact = n.displacement() == 10L * tag && n.length() == 100 * tag
                    && n.inlinePayload().get(ValueLayout.JAVA_LONG_UNALIGNED, 0) == 7L * tag;
                if (count < delivered.length) {
                    delivered[count] = intact ? tag : -2;
                } else {
                    delivered[delivered.length - 1] = 99;
                }
                count++;
            }, 4);
            r.r1 = delivered[0];
            r.r2 = delivered[1];
        }

        private void offerLocked(final int tag) {
            int taken;
            while ((taken = lock.tryLock()) == BiasedLock.NOT_TAKEN) {
                Thread.onSpinWait();
            }
            try {
                producer.offer(0, tag, 10L * tag, 100 * tag, 0, MemorySegment.ofArray(new long[] {7L * tag}));
            } finally {
                lock.unlock(taken);
            }
        }
    }

    /**
     * The handshake's shared part: two lanes, a producer of lane 1 (not the consumer's cursor lane, so that the
     * re-check finds it by the summary's doorbell or by the lane's stamp, as the poll mode says), the consumer; r1,
     * r2 as the outcomes say.
     */
    abstract static class Handshake {
        final MemorySegment lanes;
        final LaneProducer producer;
        final NotifyLanes consumer;
        final long signal = NotifyLanesLayout.SIGNAL_OFFSET;

        Handshake(final int fenceMode) {
            this(fenceMode, NotifyLanesLayout.POLL_SUMMARY);
        }

        Handshake(final int fenceMode, final int pollMode) {
            lanes = newLanes(2, 2, fenceMode, pollMode);
            producer = new LaneProducer(lanes, 0, 2, 2, 1);
            consumer = new NotifyLanes(lanes, 0, 2, 2);
        }

        /** Producer: publish; the offer then reads the sleeper count and bumps the signal value if it saw one. */
        void publish() {
            producer.offer(1, 1, 0, 0, 0, null);
        }

        /**
         * Consumer: announce a sleeper and record the value it would sleep on (the sleep epoch), then whatever the
         * rung puts between, then re-check the lanes.
         */
        int announceAndRecheck() {
            final int value = Words.getIntVolatile(lanes, signal);
            Words.getAndAddInt(lanes, signal + WaitWords.SLEEPERS_OFFSET, 1);
            Words.putIntRelease(lanes, NotifyLanesLayout.SLEEP_EPOCH_OFFSET, value);
            barrier();
            return consumer.isHeadReady() ? 1 : 0;
        }

        abstract void barrier();

        /** The consumer's rung in its fence mode: membarrier (asymmetric) or a full fence. */
        void membarrierOrFence() {
            if (consumer.isAsymmetric()) {
                Membarrier.globalExpedited();
            } else {
                VarHandle.fullFence();
            }
        }

        /** r1: whether the producer saw the sleeper (it bumped the signal value, which only it changes here). */
        int producerSawSleeper() {
            return Words.getIntVolatile(lanes, signal);
        }
    }

    @JCStressTest
    @Description("Asymmetric: the producer uses no fence; the consumer issues membarrier(GLOBAL_EXPEDITED) "
        + "between announcing itself and re-checking.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Both saw each other: a spurious wake, harmless.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "The producer saw the sleeper and wakes it.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The consumer saw the entry and does not sleep.")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "Lost wake-up: neither saw the other.")
    @State
    public static class AsymmetricMembarrier extends Handshake {
        public AsymmetricMembarrier() {
            super(asymmetricIfSupported());
        }

        @Override
        void barrier() {
            membarrierOrFence();
        }

        @Actor
        public void producer() {
            publish();
        }

        @Actor
        public void consumer(final II_Result r) {
            r.r2 = announceAndRecheck();
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            r.r1 = producerSawSleeper();
        }
    }

    @JCStressTest
    @Description("Symmetric: the producer puts a full fence before its sleeper check; the consumer a full fence "
        + "between announcing itself and re-checking.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Both saw each other: a spurious wake, harmless.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "The producer saw the sleeper and wakes it.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The consumer saw the entry and does not sleep.")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "Lost wake-up: neither saw the other.")
    @State
    public static class SymmetricFences extends Handshake {
        public SymmetricFences() {
            super(NotifyLanesLayout.FENCE_SYMMETRIC);
        }

        @Override
        void barrier() {
            VarHandle.fullFence();
        }

        @Actor
        public void producer() {
            publish();
        }

        @Actor
        public void consumer(final II_Result r) {
            r.r2 = announceAndRecheck();
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            r.r1 = producerSawSleeper();
        }
    }

    // NOTE: each test class declares its own actors: jcstress's processor does not take inherited ones ("defines no
    // @Result"), so the stamp-polled variants repeat the three one-line actors instead of extending their summary twins.
    @JCStressTest
    @Description("Asymmetric, lanes polled by their stamps (no doorbell): the producer's stamp store is what the "
        + "consumer's re-check reads after its membarrier.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Both saw each other: a spurious wake, harmless.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "The producer saw the sleeper and wakes it.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The consumer saw the entry and does not sleep.")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "Lost wake-up: neither saw the other.")
    @State
    public static class AsymmetricMembarrierStamps extends Handshake {
        public AsymmetricMembarrierStamps() {
            super(asymmetricIfSupported(), NotifyLanesLayout.POLL_STAMPS);
        }

        @Override
        void barrier() {
            membarrierOrFence();
        }

        @Actor
        public void producer() {
            publish();
        }

        @Actor
        public void consumer(final II_Result r) {
            r.r2 = announceAndRecheck();
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            r.r1 = producerSawSleeper();
        }
    }

    @JCStressTest
    @Description("Symmetric, lanes polled by their stamps (no doorbell): full fences on both sides.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Both saw each other: a spurious wake, harmless.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "The producer saw the sleeper and wakes it.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The consumer saw the entry and does not sleep.")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "Lost wake-up: neither saw the other.")
    @State
    public static class SymmetricFencesStamps extends Handshake {
        public SymmetricFencesStamps() {
            super(NotifyLanesLayout.FENCE_SYMMETRIC, NotifyLanesLayout.POLL_STAMPS);
        }

        @Override
        void barrier() {
            VarHandle.fullFence();
        }

        @Actor
        public void producer() {
            publish();
        }

        @Actor
        public void consumer(final II_Result r) {
            r.r2 = announceAndRecheck();
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            r.r1 = producerSawSleeper();
        }
    }

    @JCStressTest
    @Description("Broken rung: the producer uses no fence and the consumer issues no membarrier (only its atomic "
        + "increment of the sleeper count).")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Both saw each other.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "The producer saw the sleeper.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The consumer saw the entry.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE_INTERESTING, desc = "Lost wake-up: the producer's sleeper load passed its publishing store (store buffering). The "
        + "consumer's membarrier is what forbids this.")
    @State
    public static class AsymmetricWithoutMembarrier extends Handshake {
        public AsymmetricWithoutMembarrier() {
            super(asymmetricIfSupported());
        }

        @Override
        void barrier() {
        }

        @Actor
        public void producer() {
            publish();
        }

        @Actor
        public void consumer(final II_Result r) {
            r.r2 = announceAndRecheck();
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            r.r1 = producerSawSleeper();
        }
    }

    @JCStressTest
    @Description("Room: a producer waiting for room in its full one-entry lane sets the lane's room-wait flag, "
        + "announces itself on its own wait word and re-checks the lane after a membarrier (a full fence in the "
        + "symmetric mode); the consumer takes the entry, which releases the lane's head and reads the flag with "
        + "no fence, its room listener bumping the producer's word.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "Both saw each other: a spurious wake, harmless.")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "The consumer saw the waiting producer and wakes it.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The producer saw the room and does not sleep.")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "Lost wake-up: the producer would sleep on a lane with room.")
    @State
    public static class RoomHandshake {
        /** The producer's own wait word, beside the lanes. */
        private final MemorySegment word = Arena.ofAuto().allocate(WaitWords.LENGTH, 128);
        private final LaneProducer producer;
        private final NotifyLanes consumer;

        public RoomHandshake() {
            final MemorySegment lanes = newLanes(1, 1, asymmetricIfSupported());
            producer = new LaneProducer(lanes, 0, 1, 1, 0);
            consumer = new NotifyLanes(lanes, 0, 1, 1);
            consumer.onRoom(lane -> Words.getAndAddInt(word, 0, 1));
            producer.offer(0, 1, 0, 0, 0, null); // the lane is full
        }

        @Actor
        public void producer(final II_Result r) {
            producer.waitForRoom(true);
            Words.getAndAddInt(word, WaitWords.SLEEPERS_OFFSET, 1);
            if (consumer.isAsymmetric()) {
                Membarrier.globalExpedited();
            } else {
                VarHandle.fullFence();
            }
            r.r2 = producer.offer(0, 2, 0, 0, 0, null) ? 1 : 0;
        }

        @Actor
        public void consumer() {
            consumer.poll(n -> {
            });
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            r.r1 = Words.getIntVolatile(word, 0);
        }
    }

    @JCStressTest(Mode.Termination)
    @Description("The consumer sleeps at once in awaitNotEmpty on fresh lanes; the signal is one offer into them.")
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "The offer woke the consumer.")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "The consumer stayed asleep after the offer.")
    @Outcome(expect = FORBIDDEN, desc = "An exception, e.g. a lost wake-up reported by -Drma4j.wait.lostWakeUpFails.")
    @State
    public static class SleepWakeUp {
        private static final WaitStrategy SLEEP_AT_ONCE = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 0, 0);
        private final MemorySegment lanes = newLanes(2, 2, asymmetricIfSupported());
        private final LaneProducer producer = new LaneProducer(lanes, 0, 2, 2, 1);
        private final NotifyLanes consumer = new NotifyLanes(lanes, 0, 2, 2);

        @Actor
        public void consumer() {
            consumer.awaitNotEmpty(SLEEP_AT_ONCE, Liveness.NONE);
        }

        @Signal
        public void producer() {
            producer.offer(1, 1, 0, 0, 0, null);
        }
    }
}
