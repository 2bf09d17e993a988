package org.rma4j.reliability;

import java.lang.foreign.Arena;
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
import org.rma4j.notify.UnpublishedEntries;
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
 *   <li>{@code unpublished} (3 ranks, fault (d)): the victim writes an entry into its lane at rank 0 and stops
 *   before publishing it ({@link UnpublishedEntries#write}), as a producer killed between writing and publishing;
 *   rank 2 then publishes {@value #BEHIND_STUCK} notifications to rank 0. Rank 0 waits for notifications from any
 *   source in {@code NotifyRequest.await}: it must receive all of rank 2's, in order with their data, while the
 *   victim still lives (no lane waits for another), and none from the victim ({@code CONSUMED received=N
 *   fromVictim=0}); the victim dies only after that, while rank 0 awaits one more, and that await must end with
 *   RankFailedException naming it; nothing is left in rank 0's lanes or unexpected queue
 *   ({@code AFTER unexpected=0}). Rank 2 waits in a barrier.</li>
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
    /** Rank that keeps notifying rank 0 in the {@code unpublished} mode. */
    private static final int LIVE_PRODUCER = 2;
    /** Notifications the live producer publishes after the victim's unpublished entry. */
    static final int BEHIND_STUCK = 8;
    /** Tag of the victim's unpublished entry. */
    private static final int VICTIM_TAG = 99;

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
                case "unpublished" -> unpublished(job, clock);
                case "barrier-again" -> barrierAgain(job, clock);
                case "create" -> create(job, clock);
                case "linger" -> linger(job);
                case "waitany-windows" -> waitAnyWindows(job, clock);
                case "messaging-two" -> messagingTwo(job, clock);
                case "messaging-direct" -> messagingDirect(job, clock);
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

    private static void unpublished(final RmaJob job, final Window clock) {
        final Window window = job.allocateShared(RING_SLOTS * 8, 8);
        if (job.rank() == VICTIM) {
            final long index = UnpublishedEntries.write(NotifyFaults.outgoingLane(window, 0), VICTIM, VICTIM_TAG,
                RING_SLOTS - 1, Long.BYTES);
            if (index < 0) {
                throw new IllegalStateException("the victim's empty lane at rank 0 is full");
            }
        }
        job.barrier(); // the victim's written, unpublished entry is now at the head of its lane at rank 0
        switch (job.rank()) {
            case 0 -> consumeBesideUnpublished(job, clock, window);
            case VICTIM -> {
                awaitProgress(clock, 0, BEHIND_STUCK);
                RankSupport.sleep(SETTLE_MS); // rank 0 now waits in await for one more
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
     * Rank 0 of the {@code unpublished} mode: every notification of rank 2, in order with its data, while the
     * victim lives; then one more await, which must end with RankFailedException naming the victim.
     */
    private static void consumeBesideUnpublished(final RmaJob job, final Window clock, final Window window) {
        final NotifyRequest request = window.notifyInit(Rma.ANY_SOURCE, Rma.ANY_TAG, 1);
        int received = 0;
        int fromVictim = 0;
        while (received < BEHIND_STUCK) {
            request.start();
            final NotifyRequest.Status status = request.await();
            if (status.source() == VICTIM) {
                fromVictim++;
                continue;
            }
            final long data = window.segment().get(ValueLayout.JAVA_LONG, status.displacement() * 8);
            if (status.tag() != received || status.source() != LIVE_PRODUCER || data != 2000 + received) {
                System.out.println("WRONG_NOTIFICATION expected=" + received + " status=" + status + " data=" + data);
                System.exit(7);
            }
            received++;
        }
        final boolean victimAlive = Double.isNaN(RankSupport.millisSinceDeath(clock, VICTIM));
        System.out
            .println("CONSUMED received=" + received + " fromVictim=" + fromVictim + " victimAlive=" + victimAlive);
        RankSupport.progress(clock, BEHIND_STUCK);
        request.start();
        try {
            final NotifyRequest.Status status = request.await();
            System.out.println("WRONG_NOTIFICATION after the last expected one: " + status);
            System.exit(7);
        } catch (final RankFailedException e) {
            report(clock, "await", e);
        }
        request.close();
        System.out.println("AFTER unexpected=" + window.unexpectedNotifications());
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

    /**
     * The victim sends its pid, then a long message from native memory, which rank 0 would read from the victim's
     * process, and dies; rank 0 receives the pid, waits until that process is gone and then receives the long message:
     * its read finds no process, and the receive must end with RankFailedException, not hang or return.
     */
    private static void messagingDirect(final RmaJob job, final Window clock) {
        final Messaging messaging = Messaging.create(job);
        final long[] pid = new long[1];
        try (Arena arena = Arena.ofShared()) {
            final MemorySegment data = arena.allocate(1 << 20, 64);
            if (job.rank() == VICTIM) {
                pid[0] = ProcessHandle.current().pid();
                messaging.send(MemorySegment.ofArray(pid), 0, 1);
                messaging.isend(data, 0, 0);
                RankSupport.die(clock);
            }
            if (job.rank() == 0) {
                messaging.recv(MemorySegment.ofArray(pid), VICTIM, 1);
                ProcessHandle.of(pid[0]).ifPresent(victim -> victim.onExit().join());
                survive(job, clock, "recv", () -> messaging.recv(data, VICTIM, 0));
            }
        }
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
