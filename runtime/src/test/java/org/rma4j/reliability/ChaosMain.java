package org.rma4j.reliability;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.rma4j.Datatype;
import org.rma4j.Group;
import org.rma4j.Info;
import org.rma4j.LockType;
import org.rma4j.NotifyRequest;
import org.rma4j.Op;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.RankFailedException;

/**
 * Rank program of {@link RandomKillTest}: random rma4j work (fence, exclusive lock, lock_all with
 * accumulate and flush, PSCW, notified bursts into 4-entry rings, window churn over three flavors,
 * barriers), the same sequence of collective phases at every rank, with invariants checked after each
 * phase. It is meant to be killed at any point; the survivors must notice.
 *
 * <p>Arguments: {@code seed iterations [joinDelayMs [holdFile]]}: {@code iterations} 0 runs until the rank
 * is killed or a peer fails; the delay, at rank 1 only, comes before it joins the job; with a hold file,
 * each rank waits after its iterations, outside rma4j, until that file exists. Prints
 * {@code started <pid>} first, {@code ready <pid>} once every rank has joined and
 * {@code done iterations=N} at a normal end. Exit status: 0 normal end, 3 RankFailedException
 * ({@code PEER_FAILED rank=R}), 7 a violated invariant ({@code INVARIANT ...}), 8 any other exception
 * ({@code UNEXPECTED ...}).
 */
public final class ChaosMain {
    static final int EXIT_PEER_FAILED = 3;
    static final int EXIT_INVARIANT = 7;
    static final int EXIT_UNEXPECTED = 8;

    private static final String[] PHASE_NAMES = {"fence", "lock", "lockAll", "pscw", "notify", "churn", "barrier"};
    private static final int PHASES = PHASE_NAMES.length;
    private static final int LOCK_SLOT = 0;
    private static final int ACCUMULATE_SLOT = 1;

    /** What the program does now, printed if it is stopped by a signal (SIGTERM from the launcher). */
    private static volatile String where = "start";
    private static volatile boolean exiting;

    private final RmaJob job;
    private final int rank;
    private final int ranks;
    private final int next;
    private final int prev;
    private final Random shared;
    private final Random local;
    private final Window counters;
    private final long[] lockExpected;
    private long accumulateExpected;
    private Window data;
    private MemorySegment dataBase;
    private int bursts;

    private ChaosMain(final RmaJob job, final long seed) {
        this.job = job;
        this.rank = job.rank();
        this.ranks = job.size();
        this.next = (rank + 1) % ranks;
        this.prev = (rank + ranks - 1) % ranks;
        this.shared = new Random(seed);
        this.local = new Random(seed * 31 + rank);
        this.counters = job.allocateShared(16, 8);
        this.lockExpected = new long[ranks];
        this.data = createData(0);
    }

    public static void main(final String[] args) {
        final long seed = Long.parseLong(args[0]);
        final int iterations = Integer.parseInt(args[1]);
        final long joinDelayMs = args.length > 2 ? Long.parseLong(args[2]) : 0;
        final Path holdFile = args.length > 3 ? Path.of(args[3]) : null;
        System.out.println("started " + ProcessHandle.current().pid());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (!exiting) {
                System.out.println("STOPPED in " + where);
            }
        }));
        where = "init";
        try {
            if (joinDelayMs > 0 && "1".equals(System.getenv("RMA4J_RANK"))) {
                RankSupport.sleep(joinDelayMs);
            }
            final RmaJob job = Rma.init();
            System.out.println("ready " + ProcessHandle.current().pid());
            where = "setup";
            final ChaosMain program = new ChaosMain(job, seed);
            for (int iteration = 0; iterations == 0 || iteration < iterations; iteration++) {
                program.phase(iteration);
            }
            if (holdFile != null) {
                where = "hold";
                while (!Files.exists(holdFile)) {
                    RankSupport.sleep(5);
                }
            }
            where = "close";
            program.data.free();
            program.freeDataBase();
            program.counters.free();
            job.close();
            System.out.println("done iterations=" + iterations);
            exit(0);
        } catch (final RankFailedException e) {
            System.out.println(
                "PEER_FAILED rank=" + e.rank() + " at=" + System.nanoTime() + " in " + where + ": " + e.getMessage());
            exit(EXIT_PEER_FAILED);
        } catch (final InvariantViolation e) {
            System.out.println("INVARIANT " + e.getMessage() + " in " + where);
            exit(EXIT_INVARIANT);
        } catch (final Throwable t) {
            System.out.println("UNEXPECTED " + t + " in " + where);
            t.printStackTrace();
            exit(EXIT_UNEXPECTED);
        }
    }

    private static void exit(final int status) {
        exiting = true;
        System.exit(status);
    }

    private void phase(final int iteration) {
        final int phase = shared.nextInt(PHASES);
        where = "iteration " + iteration + " phase " + PHASE_NAMES[phase];
        if (local.nextInt(4) == 0) {
            RankSupport.sleep(local.nextInt(3));
        }
        switch (phase) {
            case 0 -> fence(iteration);
            case 1 -> exclusiveLock(shared.nextInt(ranks));
            case 2 -> lockAllAccumulate();
            case 3 -> pscw(iteration);
            case 4 -> notifyBurst(iteration, 1 + shared.nextInt(10));
            case 5 -> churn(shared.nextInt(3));
            default -> job.barrier();
        }
    }

    private void fence(final int iteration) {
        data.fence(0);
        data.put(new long[] {value(iteration, rank, 0)}, 0, 1, next, rank);
        data.fence(0);
        check("fence", data.segment().get(ValueLayout.JAVA_LONG, prev * 8L), value(iteration, prev, 0));
    }

    private void exclusiveLock(final int target) {
        final long[] cell = new long[1];
        counters.lock(LockType.EXCLUSIVE, target);
        counters.get(cell, 0, 1, target, LOCK_SLOT);
        cell[0]++;
        counters.put(cell, 0, 1, target, LOCK_SLOT);
        counters.unlock(target);
        lockExpected[target] += ranks;
        job.barrier();
        counters.lock(LockType.SHARED, target);
        counters.get(cell, 0, 1, target, LOCK_SLOT);
        counters.unlock(target);
        check("exclusive lock counter of rank " + target, cell[0], lockExpected[target]);
        job.barrier(); // nobody increments again before every rank has read
    }

    private void lockAllAccumulate() {
        final MemorySegment one = MemorySegment.ofArray(new long[] {1});
        counters.lockAll();
        for (int target = 0; target < ranks; target++) {
            counters.accumulate(one, 1, Datatype.LONG, target, ACCUMULATE_SLOT, 1, Datatype.LONG, Op.SUM);
        }
        counters.flushAll();
        counters.unlockAll();
        accumulateExpected += ranks;
        job.barrier();
        check("accumulate counter", counters.segment().get(ValueLayout.JAVA_LONG, ACCUMULATE_SLOT * 8L),
            accumulateExpected);
        job.barrier();
    }

    private void pscw(final int iteration) {
        data.post(Group.of(prev), 0);
        data.start(Group.of(next), 0);
        data.put(new long[] {value(iteration, rank, 1)}, 0, 1, next, rank);
        data.complete();
        data.await();
        check("pscw", data.segment().get(ValueLayout.JAVA_LONG, prev * 8L), value(iteration, prev, 1));
    }

    /**
     * Sends a burst of notified puts to the next rank and receives one from the previous. Bursts of
     * consecutive notify phases are not otherwise synchronized: while a rank still receives burst b, the
     * ranks after it around the ring each get one burst further, so its previous rank may have sent up to
     * burst b + ranks - 1 (each waits only for its own previous rank). Inline data lands when the
     * receiver drains, so each origin's slot cycles over {@code ranks} sets: a later burst never
     * overwrites one that is still to be checked.
     */
    private void notifyBurst(final int iteration, final int count) {
        final long slot = (long)ranks * (1 + bursts % ranks);
        bursts++;
        final NotifyRequest request = data.notifyInit(prev, Rma.ANY_TAG, count);
        for (int i = 0; i < count; i++) {
            data.putNotify(new long[] {value(iteration, rank, 2 + i)}, 0, 1, next, slot + rank, iteration);
        }
        request.start();
        final NotifyRequest.Status status = request.await();
        request.close();
        check("notified burst count", status.count(), count);
        check("notified burst tag", status.tag(), iteration);
        check("notified burst data", data.segment().get(ValueLayout.JAVA_LONG, (slot + prev) * 8),
            value(iteration, prev, 1 + count));
    }

    private void churn(final int flavor) {
        data.free();
        freeDataBase();
        data = createData(flavor);
    }

    private Window createData(final int flavor) {
        final Info info = Info.of(RmaJob.NOTIFY_CAPACITY_INFO_KEY, "4");
        final long bytes = 8L * (1 + ranks) * ranks; // the PSCW slots, then one burst slot set per rank
        return switch (flavor) {
            case 0 -> job.allocateShared(bytes, 8, info);
            case 1 -> job.allocate(bytes, 8, info);
            default -> {
                dataBase = job.allocMem(bytes);
                yield job.create(dataBase, 8, info);
            }
        };
    }

    private void freeDataBase() {
        if (dataBase != null) {
            job.freeMem(dataBase);
            dataBase = null;
        }
    }

    private static long value(final int iteration, final int origin, final int step) {
        return ((long)iteration << 32) | ((long)origin << 16) | step;
    }

    private static void check(final String what, final long actual, final long expected) {
        if (actual != expected) {
            throw new InvariantViolation(what + ": expected " + expected + " but was " + actual);
        }
    }

    /** A violated invariant of the program. */
    private static final class InvariantViolation extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InvariantViolation(final String message) {
            super(message);
        }
    }
}
