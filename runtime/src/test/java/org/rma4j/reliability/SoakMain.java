package org.rma4j.reliability;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import org.rma4j.Datatype;
import org.rma4j.Group;
import org.rma4j.Info;
import org.rma4j.LockType;
import org.rma4j.NotifyRequest;
import org.rma4j.Op;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.RmaRequest;
import org.rma4j.Window;
import org.rma4j.WindowFlavor;
import org.rma4j.launch.JobEnvironment;

/**
 * Rank program of {@link SoakTest}: every kind of rma4j call, mixed at random in the same order at every
 * rank, for a given number of seconds, with invariants checked as it goes and at the end.
 *
 * <p>Invariants: after a fence, a PSCW epoch or a notified burst each rank reads what its neighbour put;
 * a counter incremented by get-add-put under exclusive locks, one by accumulate under lock_all, one by
 * fetch-and-op tickets (every ticket drawn once) and one by compare-and-swap loops all end at the number of
 * increments made; a strided (vector) put lands exactly in its elements; a dynamic window reaches the
 * memory its target attached; request-based operations complete. At the end, after every window and
 * allocation is freed, the job directory holds no file (nothing leaked by window churn).
 *
 * <p>Arguments: {@code seed seconds}. Prints {@code SOAK rank=R iterations=N ...} and exits with 0; 7 for a
 * broken invariant ({@code INVARIANT ...}), 8 for any exception.
 */
public final class SoakMain {
    private static final int PHASES = 10;
    /** Slots of the counters window at rank 0. */
    private static final int LOCK_COUNTER = 0;
    private static final int ACCUMULATE_COUNTER = 1;
    private static final int TICKETS = 2;
    private static final int CAS_COUNTER = 3;
    private static final int CONTINUE = 4;
    private static final int COUNTERS = 8;

    private final RmaJob job;
    private final int rank;
    private final int ranks;
    private final int next;
    private final int prev;
    private final Random shared;
    private final Random local;
    private final Window counters;
    private final long[] expected = new long[COUNTERS];
    private final long[] done = new long[PHASES];
    private long ticketsDrawn;
    private long lastTicket = -1;
    private Window data;
    private MemorySegment dataBase;
    private MemorySegment attached;
    private int bursts;

    private SoakMain(final RmaJob job, final long seed) {
        this.job = job;
        this.rank = job.rank();
        this.ranks = job.size();
        this.next = (rank + 1) % ranks;
        this.prev = (rank + ranks - 1) % ranks;
        this.shared = new Random(seed);
        this.local = new Random(seed * 31 + rank);
        this.counters = job.allocateShared(COUNTERS * 8L, 8);
        this.data = createData(0);
    }

    public static void main(final String[] args) throws IOException {
        final long seed = Long.parseLong(args[0]);
        final long seconds = Long.parseLong(args[1]);
        final long startNs = System.nanoTime();
        final long startCpu = RankSupport.processCpuNanos();
        String where = "init";
        try {
            final RmaJob job = Rma.init();
            final SoakMain soak = new SoakMain(job, seed);
            final long deadlineNs = startNs + seconds * 1_000_000_000L;
            int iteration = 0;
            while (soak.keepGoing(iteration, deadlineNs)) {
                where = "iteration " + iteration;
                soak.phase(iteration++);
            }
            where = "end";
            soak.finish();
            System.out.println(
                String.format(Locale.ROOT, "SOAK rank=%d iterations=%d phases=%s cpuMs=%.0f wallMs=%.0f heapMb=%.1f",
                    soak.rank, iteration, Arrays.toString(soak.done), (RankSupport.processCpuNanos() - startCpu) / 1e6,
                    (System.nanoTime() - startNs) / 1e6,
                    (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) / 1048576.0));
            job.close();
            System.exit(0);
        } catch (final IllegalStateException e) {
            System.out.println("INVARIANT " + e.getMessage() + " in " + where);
            System.exit(7);
        } catch (final RuntimeException e) {
            System.out.println("UNEXPECTED " + e + " in " + where);
            e.printStackTrace();
            System.exit(8);
        }
    }

    /**
     * Every 16 iterations rank 0 tells the others, through its part of the counters window, whether the
     * time is up; all ranks then stop after the same iteration.
     */
    private boolean keepGoing(final int iteration, final long deadlineNs) {
        if (iteration % 16 != 0) {
            return true;
        }
        if (rank == 0) {
            counters.segment().setAtIndex(ValueLayout.JAVA_LONG, CONTINUE, System.nanoTime() < deadlineNs ? 1 : 0);
        }
        job.barrier();
        final boolean more = counters.sharedQuery(0).segment().getAtIndex(ValueLayout.JAVA_LONG, CONTINUE) == 1;
        job.barrier();
        return more;
    }

    private void phase(final int iteration) {
        final int phase = shared.nextInt(PHASES);
        done[phase]++;
        switch (phase) {
            case 0 -> fence(iteration);
            case 1 -> exclusiveLock();
            case 2 -> lockAllAtomics();
            case 3 -> pscw(iteration);
            case 4 -> notifyBurst(iteration, 1 + shared.nextInt(12));
            case 5 -> churn(shared.nextInt(4));
            case 6 -> requests(iteration);
            case 7 -> sharedMemory(iteration);
            case 8 -> stridedPut(iteration);
            default -> job.barrier();
        }
    }

    private void fence(final int iteration) {
        data.fence(0);
        put(value(iteration, rank, 0), next, rank);
        data.fence(Rma.MODE_NOSUCCEED);
        checkSlot("fence", prev, value(iteration, prev, 0));
    }

    private void exclusiveLock() {
        final long[] cell = new long[1];
        final int increments = 1 + local.nextInt(3);
        for (int i = 0; i < increments; i++) {
            counters.lock(LockType.EXCLUSIVE, 0);
            counters.get(cell, 0, 1, 0, LOCK_COUNTER);
            cell[0]++;
            counters.put(cell, 0, 1, 0, LOCK_COUNTER);
            counters.unlock(0);
        }
        expected[LOCK_COUNTER] += sum(increments);
    }

    private void lockAllAtomics() {
        counters.lockAll();
        counters.accumulate(MemorySegment.ofArray(new long[] {2}), 1, Datatype.LONG, 0, ACCUMULATE_COUNTER, 1,
            Datatype.LONG, Op.SUM);
        final long ticket = counters.fetchAndOp(1L, 0, TICKETS, Op.SUM);
        check("tickets are drawn in increasing order", ticket > lastTicket ? 1 : 0, 1);
        lastTicket = ticket;
        ticketsDrawn++;
        long seen = counters.fetchAndOp(0L, 0, CAS_COUNTER, Op.NO_OP);
        while (true) {
            final long witness = counters.compareAndSwap(seen, seen + 1, 0, CAS_COUNTER);
            if (witness == seen) {
                break;
            }
            seen = witness;
        }
        counters.flush(0);
        counters.unlockAll();
        expected[ACCUMULATE_COUNTER] += 2L * ranks;
        expected[CAS_COUNTER] += ranks;
    }

    private void pscw(final int iteration) {
        data.post(Group.of(prev), 0);
        data.start(Group.of(next), 0);
        put(value(iteration, rank, 1), next, rank);
        data.complete();
        data.await();
        checkSlot("pscw", prev, value(iteration, prev, 1));
        job.barrier(); // no rank locks a window that is still exposed in a post epoch (11.5.3)
    }

    /**
     * Notified puts (inline and not), a notified accumulate, a fetch-and-op and a get to the next rank;
     * the previous rank's arrive. Slots alternate between bursts (a rank can be one burst ahead).
     */
    private void notifyBurst(final int iteration, final int count) {
        final long slot = (long)ranks * (2 + bursts % 2);
        final long wide = (long)ranks * 4 + 5L * rank;
        bursts++;
        final NotifyRequest request = data.notifyInit(prev, Rma.ANY_TAG, count + 3);
        for (int i = 0; i < count; i++) {
            data.putNotify(new long[] {value(iteration, rank, 2 + i)}, 0, 1, next, disp(next, slot + rank), iteration);
        }
        data.accumulateNotify(MemorySegment.ofArray(new long[] {1}), 1, Datatype.LONG, next,
            disp(next, (long)ranks * 9 + rank), Op.SUM, iteration);
        data.putNotify(MemorySegment.ofArray(new long[] {iteration, 1, 2, 3, 4}), next, disp(next, wide), iteration);
        data.getNotify(MemorySegment.ofArray(new long[1]), next, disp(next, slot + rank), iteration);
        request.start();
        final NotifyRequest.Status status = request.await();
        request.close();
        check("notified count", status.count(), count + 3);
        check("notified tag", status.tag(), iteration);
        checkSlot("notified put", slot + prev, value(iteration, prev, 1 + count));
        checkSlot("wide notified put", (long)ranks * 4 + 5L * prev, iteration);
        job.barrier();
    }

    /**
     * @return the target displacement of long {@code slot} of {@code target}'s data: the slot itself (unit 8),
     *         or, in a dynamic window, the address of the slot in the target's attached memory (unit 1).
     */
    private long disp(final int target, final long slot) {
        return dynamic() ? baseAddress(target) + slot * 8 : slot;
    }

    private boolean dynamic() {
        return data.flavor() == WindowFlavor.DYNAMIC;
    }

    private void requests(final int iteration) {
        data.lock(LockType.EXCLUSIVE, next);
        final MemorySegment origin = MemorySegment.ofArray(new long[] {value(iteration, rank, 9)});
        final MemorySegment back = MemorySegment.ofArray(new long[1]);
        final long disp = disp(next, (long)ranks + rank);
        RmaRequest.waitAll(data.rput(origin, 1, Datatype.LONG, next, disp, 1, Datatype.LONG));
        final RmaRequest get = data.rget(back, 1, Datatype.LONG, next, disp, 1, Datatype.LONG);
        get.await();
        data.unlock(next);
        check("rget after rput", back.get(ValueLayout.JAVA_LONG, 0), value(iteration, rank, 9));
        job.barrier();
    }

    private void sharedMemory(final int iteration) {
        counters.segment().setAtIndex(ValueLayout.JAVA_LONG, COUNTERS - 1, value(iteration, rank, 5));
        counters.sync();
        job.barrier();
        check("shared load", counters.sharedQuery(prev).segment().getAtIndex(ValueLayout.JAVA_LONG, COUNTERS - 1),
            value(iteration, prev, 5));
        job.barrier();
    }

    private void stridedPut(final int iteration) {
        final Datatype column = Datatype.vector(3, 1, ranks, Datatype.LONG);
        final long base = (long)ranks * 10;
        data.lock(LockType.EXCLUSIVE, next);
        data.put(MemorySegment.ofArray(new long[] {iteration, iteration + 1, iteration + 2}), 3, Datatype.LONG, next,
            disp(next, base + rank), 1, column);
        data.unlock(next);
        job.barrier();
        for (int row = 0; row < 3; row++) {
            checkSlot("strided put row " + row, base + (long)row * ranks + prev, iteration + row);
        }
        job.barrier();
    }

    private void churn(final int flavor) {
        data.free();
        releaseDataMemory();
        data = createData(flavor);
    }

    /** Bytes of each rank's data window: slots for puts, bursts, wide puts, accumulates and strided rows. */
    private long dataBytes() {
        return 8L * ranks * 14;
    }

    private Window createData(final int flavor) {
        final Info info = Info.of(RmaJob.NOTIFY_CAPACITY_INFO_KEY, "4");
        return switch (flavor) {
            case 0 -> job.allocateShared(dataBytes(), 8, info);
            case 1 -> job.allocate(dataBytes(), 8, info);
            case 2 -> {
                dataBase = job.allocMem(dataBytes());
                yield job.create(dataBase, 8, info);
            }
            default -> {
                final Window dynamic = job.createDynamic(info);
                attached = job.allocMem(dataBytes());
                dynamic.attach(attached);
                // Every rank publishes the address of its attached memory in the counters window.
                counters.segment().setAtIndex(ValueLayout.JAVA_LONG, COUNTERS - 2, Rma.address(attached));
                job.barrier();
                yield dynamic;
            }
        };
    }

    private long baseAddress(final int target) {
        return counters.sharedQuery(target).segment().getAtIndex(ValueLayout.JAVA_LONG, COUNTERS - 2);
    }

    private void releaseDataMemory() {
        if (dataBase != null) {
            job.freeMem(dataBase);
            dataBase = null;
        }
        if (attached != null) {
            job.freeMem(attached);
            attached = null;
        }
    }

    private void put(final long value, final int target, final long slot) {
        data.put(new long[] {value}, 0, 1, target, disp(target, slot));
    }

    private void checkSlot(final String what, final long slot, final long expectedValue) {
        final MemorySegment own = dynamic() ? attached : data.segment();
        check(what, own.getAtIndex(ValueLayout.JAVA_LONG, slot), expectedValue);
    }

    private void finish() throws IOException {
        job.barrier();
        if (rank == 0) {
            final MemorySegment counts = counters.segment();
            check("exclusive-lock counter", counts.getAtIndex(ValueLayout.JAVA_LONG, LOCK_COUNTER),
                expected[LOCK_COUNTER]);
            check("accumulate counter", counts.getAtIndex(ValueLayout.JAVA_LONG, ACCUMULATE_COUNTER),
                expected[ACCUMULATE_COUNTER]);
            check("tickets", counts.getAtIndex(ValueLayout.JAVA_LONG, TICKETS), ticketsDrawn * ranks);
            check("compare-and-swap counter", counts.getAtIndex(ValueLayout.JAVA_LONG, CAS_COUNTER),
                expected[CAS_COUNTER]);
        }
        data.free();
        releaseDataMemory();
        counters.free();
        job.barrier();
        final List<Path> left;
        try (Stream<Path> entries = Files.list(Path.of(System.getenv(JobEnvironment.JOB_DIR)))) {
            left = entries.toList();
        }
        check("files left in the job directory " + left, left.size(), 0);
        job.barrier();
    }

    /** Sum over ranks of a per-rank count that every rank draws from its own random stream. */
    private long sum(final int own) {
        final long[] all = new long[1];
        counters.segment().setAtIndex(ValueLayout.JAVA_LONG, COUNTERS - 3, own);
        job.barrier();
        for (int r = 0; r < ranks; r++) {
            all[0] += counters.sharedQuery(r).segment().getAtIndex(ValueLayout.JAVA_LONG, COUNTERS - 3);
        }
        job.barrier();
        return all[0];
    }

    private static long value(final int iteration, final int origin, final int step) {
        return ((long)iteration << 32) | ((long)origin << 16) | step;
    }

    private static void check(final String what, final long actual, final long expectedValue) {
        if (actual != expectedValue) {
            throw new IllegalStateException(what + ": expected " + expectedValue + " but was " + actual);
        }
    }
}
