package org.rma4j.reliability;

import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicInteger;
import org.rma4j.Group;
import org.rma4j.Info;
import org.rma4j.LockType;
import org.rma4j.NotifyRequest;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.shm.PeerFailedException;

/**
 * Rank program of {@link KilledRankTest}: rank 1 (the victim) kills itself with SIGKILL at a chosen
 * point while the other ranks block in a call that depends on it.
 *
 * <p>Each survivor prints one line {@code DETECTED rank=R call=C ms=T message=M} when its blocking
 * call ends with {@link PeerFailedException} (T: milliseconds from the victim's recorded death, taken
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
 *   its data, and then end with PeerFailedException ({@code DRAINED received=N offered=M}).</li>
 *   <li>{@code create} (3 ranks): the victim dies before a collective window creation the others are
 *   inside.</li>
 *   <li>{@code linger} (2 ranks): rank 1 exits with status 3 while rank 0 sleeps outside rma4j, so the
 *   launcher has to stop rank 0, which prints {@code STOPPING} from a shutdown hook when it gets
 *   SIGTERM.</li>
 * </ul>
 */
public final class FaultMain {
    static final int VICTIM = 1;
    /** How long the victim lets the survivors settle into their blocking call before it dies. */
    private static final long SETTLE_MS = 300;
    private static final int RING_SLOTS = 16;
    private static final int RING_CAPACITY = 4;

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
                case "create" -> create(job, clock);
                case "linger" -> linger(job);
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
            for (int i = 0; ; i++) {
                window.putNotify(new long[] {1000 + i}, 0, 1, 0, i % RING_SLOTS, i);
                RankSupport.progress(clock, i + 1);
                offered.incrementAndGet();
            }
        }
        try {
            job.barrier();
            System.out.println("NOT_STOPPED barrier");
            System.exit(5);
        } catch (final PeerFailedException e) {
            report(clock, "barrier", e);
        }
        final NotifyRequest request = window.notifyInit(VICTIM, Rma.ANY_TAG, 1);
        int received = 0;
        while (true) {
            request.start();
            final NotifyRequest.Status status;
            try {
                status = request.await();
            } catch (final PeerFailedException e) {
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

    private static void create(final RmaJob job, final Window clock) {
        job.barrier();
        if (job.rank() == VICTIM) {
            RankSupport.sleep(SETTLE_MS);
            RankSupport.die(clock);
        }
        survive(job, clock, "allocateShared", () -> job.allocateShared(64, 8));
    }

    private static void linger(final RmaJob job) {
        job.barrier();
        if (job.rank() == 1) {
            System.exit(3);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("STOPPING")));
        System.out.println("LINGERING");
        RankSupport.sleep(60_000);
    }

    /**
     * Runs a call that must end with PeerFailedException, reports it, leaves the job and exits.
     */
    private static void survive(final RmaJob job, final Window clock, final String call, final Runnable blocking) {
        try {
            blocking.run();
            System.out.println("NOT_STOPPED " + call);
            System.exit(5);
        } catch (final PeerFailedException e) {
            report(clock, call, e);
        }
        close(job);
    }

    private static void report(final Window clock, final String call, final PeerFailedException e) {
        final double ms = RankSupport.millisSinceDeath(clock, e.rank());
        System.out.println("DETECTED rank=" + e.rank() + " call=" + call + " ms=" + RankSupport.millis(ms)
            + " message=" + e.getMessage());
    }

    private static void close(final RmaJob job) {
        try {
            job.close();
            System.out.println("CLOSED normally");
        } catch (final PeerFailedException e) {
            System.out.println("CLOSED with PeerFailedException rank=" + e.rank());
        }
        System.exit(0);
    }
}
