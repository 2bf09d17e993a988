package org.rma4j.reliability;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicInteger;
import org.rma4j.Group;
import org.rma4j.Info;
import org.rma4j.LockType;
import org.rma4j.messaging.MessageRequest;
import org.rma4j.messaging.Messaging;
import org.rma4j.NotifyFaults;
import org.rma4j.NotifyRequest;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.notify.NotifyRing;
import org.rma4j.notify.StuckClaims;
import org.rma4j.RankFailedException;

/**
 * Rank program of {@link KilledRankTest}: rank 1 (the victim) kills itself with SIGKILL at a chosen
 * point while the other ranks block in a call that depends on it.
 *
 * <p>Each survivor prints one line {@code DETECTED rank=R call=C ms=T message=M} when its blocking
 * call ends with {@link RankFailedException} (T: milliseconds from the victim's recorded death, taken
 * with {@code System.nanoTime} inside the survivor), then checks that leaving the job does not hang
 * either ({@code CLOSED ...}) and exits with 0. Wrong outcomes exit with 5 ({@code NOT_STOPPED}: the
 * blocking call returned) or 6 ({@code UNEXPECTED}: another exception).
 *
 * <p>Modes:
 * <ul>
 *   <li>{@code lock} (3 ranks): the victim holds an exclusive lock on rank 0's window; rank 0 requests
 *   it exclusive, rank 2 shared.</li>
 *   <li>{@code fence} (3 ranks): the victim dies instead of entering a fence the others wait in.</li>
 *   <li>{@code pscw} (3 ranks): rank 0 posts to 1 and 2 and waits; the victim dies between start and
 *   complete; rank 2 completes and then waits in a barrier.</li>
 *   <li>{@code pscw-post} (2 ranks): the victim dies before posting while rank 0 waits in start.</li>
 *   <li>{@code ring} (2 ranks): the victim floods rank 0's 4-entry notification ring, which rank 0 does
 *   not drain (it waits in a barrier), and is killed by its own second thread while it waits for room.
 *   Rank 0 then drains: it must receive every notification the victim published, in order and with
 *   its data, and then end with RankFailedException ({@code DRAINED received=N offered=M}).</li>
 *   <li>{@code claim} (3 ranks): the victim claims a slot of rank 0's notification ring and records
 *   itself in it ({@link StuckClaims#claimAndRecord}), never publishes it, and dies after rank 2 published
 *   {@value #BEHIND_STUCK} notifications behind that slot. Rank 0 waits for notifications from any source
 *   in {@code NotifyRequest.await}: while the victim lives it must get none of them ({@code HELD early=0});
 *   once the victim is dead the ring gives its slot up, and rank 0 must receive all of rank 2's
 *   notifications in order with their data ({@code CONSUMED received=N skipped=S ms=T}, T from the death
 *   to the last one), and then detect the victim in its await for one more. An await that ends with
 *   RankFailedException before the slot was given up is the detection, and rank 0 waits again. Rank 2
 *   waits in a barrier. (Rank 0 detects in its await, not in a barrier: rank 2's arrival at the barrier it
 *   left with RankFailedException stays counted, mode {@code barrier-again}.)</li>
 *   <li>{@code claim-unrecorded} (3 ranks): as {@code claim}, but the victim dies after the claim's CAS of
 *   the producer index and before recording itself in the slot ({@link StuckClaims#claimOnly}), so the
 *   consumer cannot tell whose claim it is.</li>
 *   <li>{@code barrier-again} (3 ranks): the victim dies before a barrier; rank 2 detects it there
 *   ({@code LEFT ...}) and enters another barrier; rank 0 enters its first barrier only after that. Both must
 *   end with RankFailedException.</li>
 *   <li>{@code create} (3 ranks): the victim dies before a collective window creation the others are
 *   inside.</li>
 *   <li>{@code linger} (2 ranks): rank 0 installs a shutdown hook that prints {@code STOPPING} and prints
 *   {@code LINGERING}, then both enter a barrier; after it rank 1 exits with status 3 while rank 0 sleeps
 *   outside rma4j, so the launcher has to stop rank 0 with SIGTERM.</li>
 * </ul>
 */
public final class FaultMain {
    static final int VICTIM = 1;
    /** How long the victim lets the survivors settle into their blocking call before it dies. */
    private static final long SETTLE_MS = 300;
    private static final int RING_SLOTS = 16;
    private static final int RING_CAPACITY = 4;
    /** Rank that keeps notifying rank 0 in the {@code claim} modes. */
    private static final int LIVE_PRODUCER = 2;
    /** Notifications the live producer publishes behind the victim's unpublished slot. */
    static final int BEHIND_STUCK = 8;
    /** Awaits of rank 0 in the {@code claim} modes that may end with RankFailedException before it stops. */
    private static final int CLAIM_AWAIT_ATTEMPTS = 20;

    private FaultMain() {
    }

    public static void main(final String[] args) {
        final String mode = args[0];
        final RmaJob job = Rma.init();
        final Window clock = job.allocateShared(RankSupport.CLOCK_BYTES, 8);
        try {
            switch (mode) {
                case "lock" -> lock(job, clock);
                case "fence" -> fence(job, clock);
                case "pscw" -> pscw(job, clock);
                case "pscw-post" -> pscwPost(job, clock);
                case "ring" -> ring(job, clock);
                case "claim" -> claim(job, clock, true);
                case "claim-unrecorded" -> claim(job, clock, false);
                case "barrier-again" -> barrierAgain(job, clock);
                case "create" -> create(job, clock);
                case "linger" -> linger(job);
                case "waitany-windows" -> waitAnyWindows(job, clock);
                case "messaging-two" -> messagingTwo(job, clock);
                default -> throw new IllegalArgumentException("unknown mode " + mode);
            }
        } catch (final RuntimeException e) {
            System.out.println("UNEXPECTED " + e);
            e.printStackTrace();
            System.exit(6);
        }
    }

    private static void lock(final RmaJob job, final Window clock) {
        final Window window = job.allocateShared(64, 8);
        if (job.rank() == VICTIM) {
            window.lock(LockType.EXCLUSIVE, 0);
            window.put(new long[] {42}, 0, 1, 0, 0);
            job.barrier();
            RankSupport.sleep(SETTLE_MS);
            RankSupport.die(clock);
        }
        job.barrier();
        final LockType type = job.rank() == 0 ? LockType.EXCLUSIVE : LockType.SHARED;
        survive(job, clock, "lock(" + type + ",0)", () -> window.lock(type, 0));
    }

    private static void fence(final RmaJob job, final Window clock) {
        final Window window = job.allocateShared(64, 8);
        window.fence(0);
        job.barrier();
        if (job.rank() == VICTIM) {
            RankSupport.sleep(SETTLE_MS);
            RankSupport.die(clock);
        }
        window.put(new long[] {job.rank()}, 0, 1, (job.rank() + 1) % job.size(), job.rank());
        survive(job, clock, "fence", () -> window.fence(0));
    }

    private static void pscw(final RmaJob job, final Window clock) {
        final Window window = job.allocateShared(64, 8);
        job.barrier();
        switch (job.rank()) {
            case 0 -> {
                window.post(Group.of(1, 2), 0);
                survive(job, clock, "wait", window::await);
            }
            case VICTIM -> {
                window.start(Group.of(0), 0);
                window.put(new long[] {1}, 0, 1, 0, 1);
                RankSupport.sleep(SETTLE_MS);
                RankSupport.die(clock);
            }
            default -> {
                window.start(Group.of(0), 0);
                window.put(new long[] {2}, 0, 1, 0, 2);
                window.complete();
                survive(job, clock, "barrier", job::barrier);
            }
        }
    }

    private static void pscwPost(final RmaJob job, final Window clock) {
        final Window window = job.allocateShared(64, 8);
        job.barrier();
        if (job.rank() == VICTIM) {
            RankSupport.sleep(SETTLE_MS);
            RankSupport.die(clock);
        }
        survive(job, clock, "start", () -> window.start(Group.of(VICTIM), 0));
    }

    private static void ring(final RmaJob job, final Window clock) {
        final Window window = job.allocateShared(RING_SLOTS * 8, 8,
            Info.of(RmaJob.NOTIFY_CAPACITY_INFO_KEY, Integer.toString(RING_CAPACITY)));
        job.barrier();
        if (job.rank() == VICTIM) {
            final AtomicInteger offered = new AtomicInteger();
            Thread.ofPlatform().daemon().start(() -> {
                while (offered.get() < RING_CAPACITY) {
                    RankSupport.sleep(1);
                }
                RankSupport.sleep(SETTLE_MS); // the flooding thread now waits for room in the full ring
                RankSupport.die(clock);
            });
            for (int i = 0;; i++) {
                window.putNotify(new long[] {1000 + i}, 0, 1, 0, i % RING_SLOTS, i);
                RankSupport.progress(clock, i + 1);
                offered.incrementAndGet();
            }
        }
        try {
            job.barrier();
            System.out.println("NOT_STOPPED barrier");
            System.exit(5);
        } catch (final RankFailedException e) {
            report(clock, "barrier", e);
        }
        final NotifyRequest request = window.notifyInit(VICTIM, Rma.ANY_TAG, 1);
        int received = 0;
        while (true) {
            request.start();
            final NotifyRequest.Status status;
            try {
                status = request.await();
            } catch (final RankFailedException e) {
                System.out.println("DRAINED received=" + received + " offered=" + RankSupport.progressOf(clock, VICTIM)
                    + " rank=" + e.rank() + " message=" + e.getMessage());
                break;
            }
            final long data = window.segment().get(ValueLayout.JAVA_LONG, status.displacement() * 8);
            if (status.tag() != received || status.source() != VICTIM || data != 1000 + received) {
                System.out.println("WRONG_NOTIFICATION expected=" + received + " status=" + status + " data=" + data);
                System.exit(7);
            }
            received++;
        }
        close(job);
    }

    private static void claim(final RmaJob job, final Window clock, final boolean record) {
        final Window window = job.allocateShared(RING_SLOTS * 8, 8,
            Info.of(RmaJob.NOTIFY_CAPACITY_INFO_KEY, Integer.toString(RING_SLOTS)));
        if (job.rank() == VICTIM) {
            final NotifyRing ring = NotifyFaults.outgoingRing(window, 0);
            final long index = record ? StuckClaims.claimAndRecord(ring) : StuckClaims.claimOnly(ring);
            if (index < 0) {
                throw new IllegalStateException("rank 0's empty ring is full: " + ring);
            }
        }
        job.barrier(); // the victim's claim is now the head of rank 0's ring
        switch (job.rank()) {
            case 0 -> consumeBehindStuckSlot(job, clock, window);
            case VICTIM -> {
                awaitProgress(clock, LIVE_PRODUCER, BEHIND_STUCK);
                RankSupport.sleep(SETTLE_MS); // rank 0 now waits in await behind the unpublished slot
                RankSupport.die(clock);
            }
            default -> {
                for (int i = 0; i < BEHIND_STUCK; i++) {
                    window.putNotify(new long[] {2000 + i}, 0, 1, 0, i, i);
                }
                RankSupport.progress(clock, BEHIND_STUCK);
                survive(job, clock, "barrier", job::barrier);
            }
        }
    }

    /**
     * Rank 0 of the {@code claim} modes: nothing behind the victim's slot while it lives; then, one at a time,
     * every notification of rank 2 and the one the victim never published, whose await must end with
     * RankFailedException. An await that ends so earlier, before the ring gave the slot up, is the reported
     * detection, and rank 0 waits again.
     */
    private static void consumeBehindStuckSlot(final RmaJob job, final Window clock, final Window window) {
        awaitProgress(clock, LIVE_PRODUCER, BEHIND_STUCK);
        final int early = window.unexpectedNotifications(); // drains the ring
        final boolean victimAlive = Double.isNaN(RankSupport.millisSinceDeath(clock, VICTIM));
        System.out.println("HELD early=" + early + " victimAlive=" + victimAlive);
        if (early != 0 && victimAlive) {
            System.out.println("WRONG_NOTIFICATION delivered past the slot of a live claimer");
            System.exit(7);
        }
        final NotifyRequest request = window.notifyInit(Rma.ANY_SOURCE, Rma.ANY_TAG, 1);
        boolean detected = false;
        int failures = 0;
        int received = 0;
        while (failures < CLAIM_AWAIT_ATTEMPTS) {
            if (request.state() != NotifyRequest.State.ACTIVE) {
                request.start();
            }
            final NotifyRequest.Status status;
            try {
                status = request.await();
            } catch (final RankFailedException e) {
                if (!detected) {
                    report(clock, "await", e);
                    detected = true;
                }
                failures++;
                if (received == BEHIND_STUCK) {
                    break;
                }
                continue; // the request stays active; the ring may give the dead claimer's slot up meanwhile
            }
            final long data = window.segment().get(ValueLayout.JAVA_LONG, status.displacement() * 8);
            if (status.tag() != received || status.source() != LIVE_PRODUCER || data != 2000 + received) {
                System.out.println("WRONG_NOTIFICATION expected=" + received + " status=" + status + " data=" + data);
                System.exit(7);
            }
            received++;
            if (received == BEHIND_STUCK) {
                System.out.println("CONSUMED received=" + received + " skipped=" + NotifyFaults.skippedSlots(window)
                    + " ms=" + RankSupport.millis(RankSupport.millisSinceDeath(clock, VICTIM)) + " awaitFailures="
                    + failures);
            }
        }
        if (!detected) {
            System.out.println("NOT_STOPPED await");
            System.exit(5);
        }
        if (received < BEHIND_STUCK) {
            System.out.println("UNCONSUMED received=" + received + " skipped=" + NotifyFaults.skippedSlots(window));
        }
        close(job);
    }

    private static void barrierAgain(final RmaJob job, final Window clock) {
        job.barrier();
        switch (job.rank()) {
            case 0 -> {
                awaitProgress(clock, 2, 1);
                survive(job, clock, "barrier", job::barrier);
            }
            case VICTIM -> {
                RankSupport.sleep(SETTLE_MS);
                RankSupport.die(clock);
            }
            default -> {
                try {
                    job.barrier();
                    System.out.println("NOT_STOPPED first barrier");
                    System.exit(5);
                } catch (final RankFailedException e) {
                    System.out.println("LEFT rank=" + e.rank() + " message=" + e.getMessage());
                }
                RankSupport.progress(clock, 1);
                survive(job, clock, "barrier", job::barrier);
            }
        }
    }

    /**
     * Sleeps in steps of 1 ms until {@code rank} recorded {@code progress}; if that rank dies first, the
     * launcher stops this one.
     */
    private static void awaitProgress(final Window clock, final int rank, final long progress) {
        while (RankSupport.progressOf(clock, rank) < progress) {
            RankSupport.sleep(1);
        }
    }

    private static void create(final RmaJob job, final Window clock) {
        job.barrier();
        if (job.rank() == VICTIM) {
            RankSupport.sleep(SETTLE_MS);
            RankSupport.die(clock);
        }
        survive(job, clock, "allocateShared", () -> job.allocateShared(64, 8));
    }

    /**
     * Rank 0 waits in {@link NotifyRequest#waitAny} over requests of two windows (the wait over several
     * endpoints) for notifications of the victim, which dies instead.
     */
    private static void waitAnyWindows(final RmaJob job, final Window clock) {
        final Window first = job.allocateShared(64, 8);
        final Window second = job.allocateShared(64, 8);
        job.barrier();
        if (job.rank() == VICTIM) {
            RankSupport.sleep(SETTLE_MS);
            RankSupport.die(clock);
        }
        final NotifyRequest a = first.notifyInit(VICTIM, Rma.ANY_TAG, 1);
        final NotifyRequest b = second.notifyInit(VICTIM, Rma.ANY_TAG, 1);
        a.start();
        b.start();
        survive(job, clock, "waitAny", () -> NotifyRequest.waitAny(a, b));
    }

    /**
     * Rank 0 waits in {@link MessageRequest#waitAny} for receives from the victim posted on two Messaging
     * objects (the wait over several engines); the victim dies instead of sending.
     */
    private static void messagingTwo(final RmaJob job, final Window clock) {
        final Messaging first = Messaging.create(job);
        final Messaging second = Messaging.create(job);
        job.barrier();
        if (job.rank() == VICTIM) {
            RankSupport.sleep(SETTLE_MS);
            RankSupport.die(clock);
        }
        final MessageRequest a = first.irecv(MemorySegment.ofArray(new long[1]), VICTIM, 0);
        final MessageRequest b = second.irecv(MemorySegment.ofArray(new long[1]), VICTIM, 0);
        survive(job, clock, "recv", () -> MessageRequest.waitAny(a, b));
    }

    private static void linger(final RmaJob job) {
        if (job.rank() == 0) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("STOPPING")));
            System.out.println("LINGERING");
        }
        // NOTE: rank 0 has printed LINGERING and installed its hook before rank 1 leaves this barrier and exits,
        // so the launcher, which stops rank 0 once rank 1 is gone, cannot stop it before either.
        job.barrier();
        if (job.rank() == 1) {
            System.exit(3);
        }
        RankSupport.sleep(60_000);
    }

    /**
     * Runs a call that must end with RankFailedException, reports it, leaves the job and exits.
     */
    private static void survive(final RmaJob job, final Window clock, final String call, final Runnable blocking) {
        try {
            blocking.run();
            System.out.println("NOT_STOPPED " + call);
            System.exit(5);
        } catch (final RankFailedException e) {
            report(clock, call, e);
        }
        close(job);
    }

    private static void report(final Window clock, final String call, final RankFailedException e) {
        final double ms = RankSupport.millisSinceDeath(clock, e.rank());
        System.out.println("DETECTED rank=" + e.rank() + " call=" + call + " ms=" + RankSupport.millis(ms) + " message="
            + e.getMessage());
    }

    private static void close(final RmaJob job) {
        try {
            job.close();
            System.out.println("CLOSED normally");
        } catch (final RankFailedException e) {
            System.out.println("CLOSED with RankFailedException rank=" + e.rank());
        }
        System.exit(0);
    }
}
