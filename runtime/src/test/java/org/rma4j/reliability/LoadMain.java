package org.rma4j.reliability;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;
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
 * Rank program of {@link OversubscriptionTest}: every kind of synchronization with more ranks than cores.
 *
 * <p>Traffic phases (fence, PSCW ring, exclusive-lock counter, lock_all + accumulate + flush, notified
 * exchange through 4-entry rings) run {@code iterations} rounds each and check their results. Blocking
 * phases then make every rank but 0 wait in one call (fence, start, lock, lock_all, notification await)
 * while rank 0 sleeps {@code blockMs} before releasing them: almost all of that time should be spent
 * asleep. For each phase every rank prints {@code PHASE name kind=traffic|blocking cpuMs=C wallMs=W}
 * with its own process's CPU time (all threads, user + system) over the phase, and at the end
 * {@code TOTAL cpuMs=C wallMs=W} from before joining to the end. Exit status: 0, 3 RankFailedException,
 * 7 a wrong result.
 */
public final class LoadMain {
    private final RmaJob job;
    private final Window window;
    private final int rank;
    private final int ranks;
    private final int next;
    private final int prev;
    private final int counterSlot;
    private final int accumulateSlot;

    private LoadMain(final RmaJob job) {
        this.job = job;
        this.rank = job.rank();
        this.ranks = job.size();
        this.next = (rank + 1) % ranks;
        this.prev = (rank + ranks - 1) % ranks;
        this.counterSlot = ranks;
        this.accumulateSlot = ranks + 1;
        this.window = job.allocateShared(8L * (ranks + 2), 8, Info.of(RmaJob.NOTIFY_CAPACITY_INFO_KEY, "4"));
    }

    public static void main(final String[] args) {
        final int iterations = Integer.parseInt(args[0]);
        final long blockMs = Long.parseLong(args[1]);
        final long startNs = System.nanoTime();
        final long startCpu = RankSupport.processCpuNanos();
        try {
            final RmaJob job = Rma.init();
            final LoadMain program = new LoadMain(job);
            program.traffic(2, "-warm-up");
            program.traffic(iterations, "");
            program.blocking(blockMs);
            program.window.free();
            job.close();
            report("TOTAL", "", startCpu, startNs);
            System.out.println("done");
            System.exit(0);
        } catch (final RankFailedException e) {
            System.out.println("PEER_FAILED " + e.getMessage());
            System.exit(3);
        } catch (final IllegalStateException e) {
            System.out.println("WRONG " + e.getMessage());
            System.exit(7);
        }
    }

    private void traffic(final int iterations, final String suffix) {
        phase("fence" + suffix, "traffic", () -> {
            window.fence(0);
            for (int i = 0; i < iterations; i++) {
                window.put(new long[] {value(i)}, 0, 1, next, rank);
                window.fence(0);
                check("fence", window.segment().getAtIndex(ValueLayout.JAVA_LONG, prev), valueOf(prev, i));
                window.fence(0);
            }
            window.fence(Rma.MODE_NOSUCCEED);
        });
        phase("pscw" + suffix, "traffic", () -> {
            for (int i = 0; i < iterations; i++) {
                window.post(Group.of(prev), 0);
                window.start(Group.of(next), 0);
                window.put(new long[] {value(i)}, 0, 1, next, rank);
                window.complete();
                window.await();
                check("pscw", window.segment().getAtIndex(ValueLayout.JAVA_LONG, prev), valueOf(prev, i));
            }
        });
        phase("lock" + suffix, "traffic", () -> {
            final long[] cell = new long[1];
            for (int i = 0; i < iterations; i++) {
                window.lock(LockType.EXCLUSIVE, 0);
                window.get(cell, 0, 1, 0, counterSlot);
                cell[0]++;
                window.put(cell, 0, 1, 0, counterSlot);
                window.unlock(0);
            }
            job.barrier();
            if (rank == 0) {
                final long counter = window.segment().getAtIndex(ValueLayout.JAVA_LONG, counterSlot);
                check("lock counter", counter, (long)ranks * iterations);
                window.segment().setAtIndex(ValueLayout.JAVA_LONG, counterSlot, 0);
            }
            job.barrier();
        });
        phase("lockAll" + suffix, "traffic", () -> {
            final MemorySegment one = MemorySegment.ofArray(new long[] {1});
            for (int i = 0; i < iterations; i++) {
                window.lockAll();
                for (int target = 0; target < ranks; target++) {
                    window.accumulate(one, 1, Datatype.LONG, target, accumulateSlot, 1, Datatype.LONG, Op.SUM);
                }
                window.flushAll();
                window.unlockAll();
            }
            job.barrier();
            check("accumulate counter", window.segment().getAtIndex(ValueLayout.JAVA_LONG, accumulateSlot),
                (long)ranks * iterations);
            window.segment().setAtIndex(ValueLayout.JAVA_LONG, accumulateSlot, 0);
            job.barrier();
        });
        phase("notify" + suffix, "traffic", () -> {
            final NotifyRequest request = window.notifyInit(prev, Rma.ANY_TAG, iterations);
            request.start();
            for (int i = 0; i < iterations; i++) {
                window.putNotify(new long[] {value(i)}, 0, 1, next, rank, i);
            }
            final NotifyRequest.Status status = request.await();
            request.close();
            check("notified count", status.count(), iterations);
            check("notified last tag", status.tag(), iterations - 1);
            check("notified data", window.segment().getAtIndex(ValueLayout.JAVA_LONG, prev),
                valueOf(prev, iterations - 1));
            job.barrier();
        });
    }

    private void blocking(final long blockMs) {
        window.fence(0);
        phase("fence", "blocking", () -> {
            if (rank == 0) {
                RankSupport.sleep(blockMs);
            }
            window.fence(0);
        });
        window.fence(Rma.MODE_NOSUCCEED);
        phase("pscw", "blocking", () -> {
            if (rank == 0) {
                RankSupport.sleep(blockMs);
                window.post(Group.range(ranks).excl(0), 0);
                window.await();
            } else {
                window.start(Group.of(0), 0);
                window.put(new long[] {rank}, 0, 1, 0, rank);
                window.complete();
            }
        });
        lockedPhase("lock", blockMs, () -> {
            window.lock(LockType.SHARED, 0);
            window.get(new long[1], 0, 1, 0, 0);
            window.unlock(0);
        });
        lockedPhase("lockAll", blockMs, () -> {
            window.lockAll();
            window.get(new long[1], 0, 1, 0, 0);
            window.flush(0);
            window.unlockAll();
        });
        phase("notify", "blocking", () -> {
            if (rank == 0) {
                RankSupport.sleep(blockMs);
                for (int target = 1; target < ranks; target++) {
                    window.putNotify(new long[] {target}, 0, 1, target, 0, 77);
                }
            } else {
                final NotifyRequest request = window.notifyInit(0, 77, 1);
                request.start();
                request.await();
                request.close();
            }
        });
    }

    /**
     * A blocking phase in which rank 0 holds its own window exclusively while the others try to get in.
     */
    private void lockedPhase(final String name, final long blockMs, final Runnable waiter) {
        job.barrier(); // every rank is out of the previous phase, which may have waited for this lock
        if (rank == 0) {
            window.lock(LockType.EXCLUSIVE, 0);
        }
        phase(name, "blocking", () -> {
            if (rank == 0) {
                RankSupport.sleep(blockMs);
                window.unlock(0);
            } else {
                waiter.run();
            }
        });
    }

    private void phase(final String name, final String kind, final Runnable body) {
        job.barrier();
        final long cpu = RankSupport.processCpuNanos();
        final long startNs = System.nanoTime();
        body.run();
        report("PHASE " + name, "kind=" + kind + " ", cpu, startNs);
    }

    private static void report(final String what, final String kind, final long cpuStart, final long startNs) {
        System.out.println(String.format(Locale.ROOT, "%s %scpuMs=%.1f wallMs=%.1f", what, kind,
            (RankSupport.processCpuNanos() - cpuStart) / 1e6, (System.nanoTime() - startNs) / 1e6));
    }

    private long value(final int iteration) {
        return valueOf(rank, iteration);
    }

    private static long valueOf(final int rank, final int iteration) {
        return ((long)rank << 32) | iteration;
    }

    private static void check(final String what, final long actual, final long expected) {
        if (actual != expected) {
            throw new IllegalStateException(what + ": expected " + expected + " but was " + actual);
        }
    }
}
