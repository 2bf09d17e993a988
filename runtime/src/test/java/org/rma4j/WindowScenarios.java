package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.function.Consumer;
import org.rma4j.shm.WaitState;
import org.rma4j.shm.Words;

/**
 * The programs of the window contract tests: each runs at every rank of a job, in thread mode or as
 * real processes ({@link WindowContractTest}), and fails by throwing.
 */
final class WindowScenarios {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private WindowScenarios() {
    }

    /** Runs the scenario of that name at this rank. */
    static void run(final String name, final RmaJob job) throws Throwable {
        Scenarios.invoke(WindowScenarios.class, name, job);
    }

    /** Sizes differ per rank (rank 0 exposes nothing), contiguous layout, attributes, sharedQuery. */
    static void attributes(final RmaJob job) {
        final int me = job.rank();
        try (Window window = job.allocateShared(64L * me, me + 1)) {
            assertEquals(64L * me, window.size());
            assertEquals(me + 1, window.dispUnit());
            assertEquals(64L * me, window.segment().byteSize());
            assertEquals(WindowFlavor.SHARED, window.flavor());
            assertEquals(MemoryModel.UNIFIED, window.model());
            assertEquals(job.size(), window.ranks());
            assertEquals("false", window.getInfo().get(Info.NO_LOCKS).orElseThrow());
            assertEquals("rar,raw,war,waw", window.getInfo().get(Info.ACCUMULATE_ORDERING).orElseThrow());
            for (int r = 0; r < job.size(); r++) {
                final SharedRegion region = window.sharedQuery(r);
                assertEquals(r, region.rank());
                assertEquals(64L * r, region.sizeBytes());
                assertEquals(r + 1, region.dispUnit());
                if (r > 0) {
                    final SharedRegion previous = window.sharedQuery(r - 1);
                    assertEquals(previous.segment().address() + previous.sizeBytes(), region.segment().address(),
                        "rank " + r + " must follow rank " + (r - 1) + " contiguously");
                }
            }
            final SharedRegion lowest = window.sharedQuery(Rma.PROC_NULL);
            assertEquals(job.size() > 1 ? 1 : 0, lowest.rank());
            assertEquals(window.sharedQuery(me).segment().address(), window.segment().address());
        }
    }

    /** alloc_shared_noncontig=true places each rank's part on its own page; unknown keys are kept. */
    static void noncontiguous(final RmaJob job) {
        final Info info = Info.of(Info.ALLOC_SHARED_NONCONTIG, "true").set("vendor_hint", "ignored");
        try (Window window = job.allocateShared(24, 8, info)) {
            assertEquals("true", window.getInfo().get(Info.ALLOC_SHARED_NONCONTIG).orElseThrow());
            assertEquals("ignored", window.getInfo().get("vendor_hint").orElseThrow());
            for (int r = 0; r < job.size(); r++) {
                assertEquals(0, window.sharedQuery(r).segment().address() % 4096, "rank " + r + " page-aligned");
            }
        }
    }

    /** Direct stores through sharedQuery are seen by other ranks after a barrier. */
    static void sharedLoadStore(final RmaJob job) {
        try (Window window = job.allocateShared(8L * job.size(), 8)) {
            final int right = (job.rank() + 1) % job.size();
            window.sharedQuery(right).segment().set(ValueLayout.JAVA_LONG, 8L * job.rank(), 1000L + job.rank());
            job.barrier();
            for (int r = 0; r < job.size(); r++) {
                if ((r + 1) % job.size() == job.rank()) {
                    assertEquals(1000L + r, window.segment().get(ValueLayout.JAVA_LONG, 8L * r));
                }
            }
            job.barrier();
        }
    }

    /** put and get between fences, with displacement units of 8 and Java-array overloads. */
    static void fencePutGet(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        try (Window window = Scenarios.allocate(job, 8L * n, 8)) {
            window.fence(Rma.MODE_NOPRECEDE);
            for (int target = 0; target < n; target++) {
                window.put(new long[] {100L * me + target}, 0, 1, target, me);
            }
            window.fence(0);
            for (int origin = 0; origin < n; origin++) {
                assertEquals(100L * origin + me, window.segment().get(ValueLayout.JAVA_LONG, 8L * origin));
            }
            final long[] row = new long[n];
            final int right = (me + 1) % n;
            window.get(row, 0, n, right, 0);
            window.fence(Rma.MODE_NOSUCCEED);
            for (int origin = 0; origin < n; origin++) {
                assertEquals(100L * origin + right, row[origin]);
            }
        }
    }

    /** Segment, byte, int and double overloads land at disp x disp_unit. */
    static void putGetOverloads(final RmaJob job) {
        try (Window window = Scenarios.allocate(job, 256, 4)) {
            final int right = (job.rank() + 1) % job.size();
            window.fence(0);
            window.put(new int[] {7, 8, 9}, 1, 2, right, 2);
            window.put(new byte[] {1, 2, 3, 4}, 0, 4, right, 10);
            window.put(new double[] {2.5}, 0, 1, right, 12);
            final MemorySegment bytes = MemorySegment.ofArray(new byte[] {5, 6, 7, 8, 9, 10, 11, 12});
            window.put(bytes, right, 20);
            window.put(MemorySegment.ofArray(new byte[0]), right, 64);
            window.fence(0);
            final MemorySegment mine = window.segment();
            assertEquals(8, mine.get(ValueLayout.JAVA_INT, 8));
            assertEquals(9, mine.get(ValueLayout.JAVA_INT, 12));
            assertEquals(0x04030201, mine.get(ValueLayout.JAVA_INT, 40));
            assertEquals(2.5, mine.get(ValueLayout.JAVA_DOUBLE, 48));
            final byte[] back = new byte[8];
            window.get(back, 0, 8, right, 20);
            final int[] ints = new int[2];
            window.get(ints, 0, 2, right, 2);
            final double[] doubles = new double[1];
            window.get(doubles, 0, 1, right, 12);
            window.fence(Rma.MODE_NOSUCCEED);
            assertArrayEquals(new byte[] {5, 6, 7, 8, 9, 10, 11, 12}, back);
            assertArrayEquals(new int[] {8, 9}, ints);
            assertEquals(2.5, doubles[0]);
        }
    }

    /** Mutual exclusion: every rank adds 1 to a plain counter at rank 0 under an exclusive lock. */
    static void exclusiveLockCounter(final RmaJob job) {
        exclusiveCounter(job, Integer.getInteger("rma4j.test.increments", 2_000));
    }

    static void exclusiveCounter(final RmaJob job, final int increments) {
        try (Window window = Scenarios.allocate(job, job.rank() == 0 ? 8 : 0, 8)) {
            final long[] value = new long[1];
            for (int i = 0; i < increments; i++) {
                window.lock(LockType.EXCLUSIVE, 0);
                window.get(value, 0, 1, 0, 0);
                value[0]++;
                window.put(value, 0, 1, 0, 0);
                window.unlock(0);
            }
            job.barrier();
            window.lock(LockType.SHARED, 0);
            window.get(value, 0, 1, 0, 0);
            window.unlock(0);
            assertEquals((long)increments * job.size(), value[0]);
        }
    }

    /** lock_all + put + flush + flag put: the target polls the flag with acquire reads and sees the data. */
    static void lockAllFlushFlag(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int right = (me + 1) % n;
        final int left = (me + n - 1) % n;
        final int words = 64;
        try (Window window = Scenarios.allocate(job, 8L * (words + 1), 8)) {
            window.lockAll();
            final long[] data = new long[words];
            for (int i = 0; i < words; i++) {
                data[i] = me * 1_000_000L + i;
            }
            window.put(data, 0, words, right, 0);
            window.flush(right);
            window.put(new long[] {1}, 0, 1, right, words);
            window.flush(right);
            final MemorySegment mine = window.segment();
            while ((long)LONG.getAcquire(mine, 8L * words) != 1) {
                Thread.onSpinWait();
                Thread.yield();
            }
            for (int i = 0; i < words; i++) {
                assertEquals(left * 1_000_000L + i, mine.get(ValueLayout.JAVA_LONG, 8L * i));
            }
            window.unlockAll();
            job.barrier();
        }
    }

    /**
     * Shared locks on every target at once, and in them: a put is at the target after flush /
     * flushAll (a get in the same epoch reads it back); after flushLocal / flushLocalAll the origin
     * buffer may be reused without changing what the target received; after unlock and a barrier
     * every rank's slot of every window holds what it put. MODE_NOCHECK and PROC_NULL epochs too.
     */
    static void sharedLocksAndFlushes(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        // Word 2s of every window is written by rank s through flush, word 2s + 1 through flushLocal; word 2n
        // by every rank at once (concurrent puts: undefined which one lands last, but not erroneous).
        try (Window window = Scenarios.allocate(job, 16L * n + 8, 8)) {
            for (int target = 0; target < n; target++) {
                window.lock(LockType.SHARED, target);
            }
            final long[] readBack = new long[1];
            for (int target = 0; target < n; target++) {
                window.put(new long[] {value(me, target, 0)}, 0, 1, target, 2L * me);
                window.flush(target);
                window.get(readBack, 0, 1, target, 2L * me);
                window.flush(target);
                assertEquals(value(me, target, 0), readBack[0], "put then flush, read back from rank " + target);

                final MemorySegment origin = MemorySegment.ofArray(new long[] {value(me, target, 1)});
                window.put(origin, target, 2L * me + 1);
                window.flushLocal(target);
                origin.set(ValueLayout.JAVA_LONG, 0, -1L);
                window.flush(target);
                window.get(readBack, 0, 1, target, 2L * me + 1);
                window.flushLocal(target);
                assertEquals(value(me, target, 1), readBack[0],
                    "reusing the origin buffer after flushLocal changed what rank " + target + " received");
            }
            // flushAll / flushLocalAll over every target at once.
            final MemorySegment all = MemorySegment.ofArray(new long[] {value(me, me, 2)});
            for (int target = 0; target < n; target++) {
                window.put(all, target, 2L * me + 1);
            }
            window.flushLocalAll();
            all.set(ValueLayout.JAVA_LONG, 0, -1L);
            window.flushAll();
            for (int target = 0; target < n; target++) {
                window.get(readBack, 0, 1, target, 2L * me + 1);
                window.flushAll();
                assertEquals(value(me, me, 2), readBack[0], "flushAll / flushLocalAll to rank " + target);
            }
            for (int target = 0; target < n; target++) {
                window.put(new long[] {value(me, target, 3)}, 0, 1, target, 2L * n);
            }
            for (int target = n - 1; target >= 0; target--) {
                window.unlock(target);
            }
            window.sync();
            job.barrier();
            final long shared = window.segment().get(ValueLayout.JAVA_LONG, 16L * n);
            boolean someRanks = false;
            for (int source = 0; source < n; source++) {
                someRanks |= shared == value(source, me, 3);
            }
            assertTrue(someRanks, "the word every rank put to holds " + shared + ", which no rank put");
            for (int source = 0; source < n; source++) {
                assertEquals(value(source, me, 0), window.segment().get(ValueLayout.JAVA_LONG, 16L * source),
                    "slot of rank " + source);
                assertEquals(value(source, source, 2), window.segment().get(ValueLayout.JAVA_LONG, 16L * source + 8),
                    "second slot of rank " + source);
            }
            job.barrier();
            window.lockAll(Rma.MODE_NOCHECK);
            window.unlockAll();
            window.lock(LockType.EXCLUSIVE, me, Rma.MODE_NOCHECK);
            window.unlock(me);
            window.lock(LockType.SHARED, Rma.PROC_NULL);
            window.put(new long[] {1}, 0, 1, Rma.PROC_NULL, 0);
            window.unlock(Rma.PROC_NULL);
        }
    }

    private static long value(final int origin, final int target, final int kind) {
        return 1_000_000L * (origin + 1) + 1_000L * target + kind;
    }

    /**
     * An exclusive lock is not granted while another rank holds lockAll: rank 0 holds lockAll and marks
     * every target "held" while it holds it; rank 1 (and every other rank) asks for an exclusive lock on
     * target 0 only after rank 0 holds lockAll, and must read the mark cleared once granted. Then the
     * converse: lockAll waits for an exclusive holder.
     */
    static void exclusiveAgainstLockAll(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int rounds = 20;
        // word 0: the "held" mark; word 1: how many ranks asked for their lock this round.
        try (Window window = Scenarios.allocate(job, 16, 8)) {
            final long[] mark = new long[1];
            for (int round = 1; round <= rounds; round++) {
                if (me == 0) {
                    window.lockAll();
                    for (int target = 0; target < n; target++) {
                        window.put(new long[] {round}, 0, 1, target, 0);
                    }
                    window.flushAll();
                    job.barrier();
                    // The other ranks now ask for the exclusive lock; release only once all of them have.
                    awaitLong(window.segment(), 8, (long)(n - 1) * round);
                    for (int target = 0; target < n; target++) {
                        window.put(new long[] {0}, 0, 1, target, 0);
                    }
                    window.unlockAll();
                } else {
                    job.barrier();
                    // Announce the request (a shared lock is compatible with lockAll), then ask.
                    window.lock(LockType.SHARED, 0);
                    window.fetchAndOp(1L, 0, 1, Op.SUM);
                    window.unlock(0);
                    window.lock(LockType.EXCLUSIVE, 0);
                    window.get(mark, 0, 1, 0, 0);
                    window.flush(0);
                    window.unlock(0);
                    assertEquals(0, mark[0],
                        "exclusive lock on rank 0 granted while rank 0 held lockAll, round " + round);
                }
                job.barrier();
            }
            // Converse: the last rank holds an exclusive lock on rank 0; everybody else's lockAll waits for it.
            // The requests are announced in the holder's own word 1 (0 until now unless the holder is rank 0).
            final int holder = n - 1;
            if (me == holder) {
                final long announced = Words.getLongVolatile(window.segment(), 8);
                window.lock(LockType.EXCLUSIVE, 0);
                window.put(new long[] {-1}, 0, 1, 0, 0);
                window.flush(0);
                job.barrier();
                awaitLong(window.segment(), 8, announced + n - 1);
                window.put(new long[] {0}, 0, 1, 0, 0);
                window.unlock(0);
            } else {
                job.barrier();
                window.lock(LockType.SHARED, holder);
                window.fetchAndOp(1L, holder, 1, Op.SUM);
                window.unlock(holder);
                window.lockAll();
                window.get(mark, 0, 1, 0, 0);
                window.flushAll();
                window.unlockAll();
                assertEquals(0, mark[0], "lockAll granted while rank " + holder + " held an exclusive lock on rank 0");
            }
            job.barrier();
        }
    }

    /**
     * lockAll past a held target (11.5.3): rank 0 holds an exclusive lock on the last rank; every other rank's lockAll
     * takes the targets below it without waiting, then waits for it, and rank 0 lets go only once each of them has
     * published that wait (LOCK_ALL). Each then counts itself at rank 0 inside its epoch. Afterwards rank 0 takes
     * every target exclusively, which it could not if a lockAll had kept a shared hold.
     */
    static void lockAllPastHeldTarget(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int held = n - 1;
        try (Window window = Scenarios.allocate(job, 8, 8)) {
            if (me == 0) {
                window.lock(LockType.EXCLUSIVE, held);
                job.barrier();
                for (int rank = 1; rank < n; rank++) {
                    WaitEventScenarios.awaitPublished(job, rank, WaitState.Call.LOCK_ALL);
                }
                window.unlock(held);
            } else {
                job.barrier();
                window.lockAll();
                window.fetchAndOp(1L, 0, 0, Op.SUM);
                window.unlockAll();
            }
            job.barrier();
            if (me == 0) {
                assertEquals(n - 1, Words.getLongVolatile(window.segment(), 0), "lockAll epochs counted at rank 0");
                for (int target = 0; target < n; target++) {
                    window.lock(LockType.EXCLUSIVE, target);
                    window.unlock(target);
                }
            }
            job.barrier();
        }
    }

    /**
     * sync on its own orders a rank's direct stores to its window: rank 0 stores the data, syncs, then
     * stores a flag; a reader that sees the flag through get under lockAll, then syncs, reads the data.
     */
    static void syncOnly(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int words = 16;
        final int rounds = 50;
        try (Window window = Scenarios.allocate(job, me == 0 ? 8L * (words + 1) : 0, 8)) {
            window.lockAll();
            final long[] flag = new long[1];
            final long[] data = new long[words];
            for (int round = 1; round <= rounds; round++) {
                if (me == 0) {
                    final MemorySegment mine = window.segment();
                    for (int i = 0; i < words; i++) {
                        mine.set(ValueLayout.JAVA_LONG, 8L * i, round * 100L + i);
                    }
                    window.sync();
                    mine.set(ValueLayout.JAVA_LONG, 8L * words, round);
                    window.sync();
                } else {
                    do {
                        window.get(flag, 0, 1, 0, words);
                        window.sync();
                    } while (flag[0] != round);
                    window.get(data, 0, words, 0, 0);
                    window.sync();
                    for (int i = 0; i < words; i++) {
                        assertEquals(round * 100L + i, data[i], "word " + i + " of round " + round);
                    }
                }
                job.barrier();
            }
            window.unlockAll();
            assertEquals(n, job.size());
        }
    }

    private static void awaitLong(final MemorySegment segment, final long offset, final long expected) {
        while ((long)LONG.getAcquire(segment, offset) != expected) {
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /** Many rounds of fence and lock, meant for more ranks than cores. */
    static void oversubscribedRounds(final RmaJob job) {
        final int n = job.size();
        try (Window window = Scenarios.allocate(job, 8L * n, 8)) {
            for (int round = 1; round <= 50; round++) {
                window.fence(0);
                window.put(new long[] {round}, 0, 1, (job.rank() + round) % n, job.rank());
                window.fence(0);
                for (int origin = 0; origin < n; origin++) {
                    if ((origin + round) % n == job.rank()) {
                        assertEquals(round, window.segment().get(ValueLayout.JAVA_LONG, 8L * origin));
                    }
                }
            }
            window.fence(Rma.MODE_NOSUCCEED);
        }
        exclusiveCounter(job, 200);
    }

    /** PSCW between ring neighbours, a partial group polled with test, NOCHECK, and misuse. */
    static void pscw(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int left = (me + n - 1) % n;
        final int right = (me + 1) % n;
        try (Window window = Scenarios.allocate(job, 8L * n, 8)) {
            for (int round = 1; round <= 20; round++) {
                window.post(Group.of(left), 0);
                window.start(Group.of(right), 0);
                window.put(new long[] {round * 100L + me}, 0, 1, right, me);
                if (n > 2) {
                    expect(ErrorClass.RMA_SYNC, () -> window.put(new long[] {-1}, 0, 1, (right + 1) % n, me));
                }
                expect(ErrorClass.RMA_SYNC, () -> window.start(Group.of(right), 0));
                expect(ErrorClass.RMA_SYNC, () -> window.lock(LockType.SHARED, right));
                expect(ErrorClass.RMA_SYNC, () -> window.fence(0));
                window.complete();
                expect(ErrorClass.RMA_SYNC, window::complete);
                expect(ErrorClass.RMA_SYNC, () -> window.post(Group.of(left), 0));
                window.await();
                expect(ErrorClass.RMA_SYNC, window::await);
                expect(ErrorClass.RMA_SYNC, window::test);
                assertEquals(round * 100L + left, window.segment().get(ValueLayout.JAVA_LONG, 8L * left));
            }
        }
        try (Window window = Scenarios.allocate(job, 8L * n, 8)) {
            if (me == 0) {
                final Group origins = job.group().excl(0);
                window.post(origins, Rma.MODE_NOSTORE);
                while (!window.test()) {
                    Thread.yield();
                }
                for (int origin = 1; origin < n; origin++) {
                    assertEquals(origin * 7L, window.segment().get(ValueLayout.JAVA_LONG, 8L * origin));
                }
            } else {
                window.start(Group.of(0), 0);
                window.put(new long[] {me * 7L}, 0, 1, 0, me);
                window.complete();
            }
            job.barrier();
            window.post(Group.of(left), Rma.MODE_NOCHECK);
            job.barrier();
            window.start(Group.of(right), Rma.MODE_NOCHECK);
            window.put(new long[] {-me}, 0, 1, right, me);
            window.complete();
            window.await();
            assertEquals(-left, window.segment().get(ValueLayout.JAVA_LONG, 8L * left));

            expect(ErrorClass.RANK, () -> window.post(Group.of(n), 0));
            expect(ErrorClass.RANK, () -> window.start(Group.of(n + 3), 0));
            expect(ErrorClass.GROUP, () -> window.post(null, 0));
            expect(ErrorClass.GROUP, () -> Group.of(right, right, 0));
            expect(ErrorClass.ASSERT, () -> window.start(Group.of(right), Rma.MODE_NOSTORE));
            expect(ErrorClass.ASSERT, () -> window.post(Group.of(left), Rma.MODE_NOSUCCEED));
            window.post(Group.EMPTY, 0);
            window.start(Group.EMPTY, 0);
            window.complete();
            assertTrue(window.test());
        }
    }

    /** MPI_Win_create over allocMem memory and a dynamic window with attach / detach. */
    static void createAndDynamic(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int left = (me + n - 1) % n;
        final int right = (me + 1) % n;
        final MemorySegment memory = job.allocMem(8L * n + 8);
        try (Window window = job.create(memory.asSlice(8), 8, null)) {
            assertEquals(WindowFlavor.CREATE, window.flavor());
            assertEquals(8L * n, window.size());
            assertEquals(memory.address() + 8, window.segment().address());
            expect(ErrorClass.RMA_FLAVOR, () -> window.sharedQuery(me));
            expect(ErrorClass.RMA_FLAVOR, () -> window.attach(memory));
            window.fence(0);
            window.put(new long[] {me + 1}, 0, 1, right, me);
            window.fence(0);
            assertEquals(left + 1, memory.get(ValueLayout.JAVA_LONG, 8 + 8L * left));
            // NOTE: every rank reads before any rank adds to rank 0's last word below.
            job.barrier();
            window.lockAll();
            window.fetchAndOp(1L, 0, n - 1, Op.SUM);
            window.unlockAll();
            job.barrier();
            if (me == 0) {
                assertEquals(n + n, memory.get(ValueLayout.JAVA_LONG, 8 + 8L * (n - 1)));
            }
            job.barrier();
        }
        job.freeMem(memory);
        expect(ErrorClass.BASE, () -> job.freeMem(memory));
        expect(ErrorClass.BASE, () -> job.create(MemorySegment.ofArray(new long[4]), 8, null));
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            final MemorySegment privateMemory = arena.allocate(64);
            expect(ErrorClass.BASE, () -> job.create(privateMemory, 8, null));
        }
        try (Window empty = job.create(MemorySegment.NULL, 1, null)) {
            assertEquals(0, empty.size());
        }

        try (Window dynamic = job.createDynamic(null); Window addresses = Scenarios.allocate(job, 8, 8)) {
            assertEquals(WindowFlavor.DYNAMIC, dynamic.flavor());
            assertEquals(0, dynamic.size());
            final MemorySegment region = job.allocMem(64);
            final MemorySegment other = job.allocMem(16);
            dynamic.attach(region);
            expect(ErrorClass.RMA_ATTACH, () -> dynamic.attach(region.asSlice(8, 8)));
            expect(ErrorClass.RMA_ATTACH, () -> dynamic.attach(MemorySegment.ofArray(new byte[8])));
            expect(ErrorClass.RMA_ATTACH, () -> dynamic.detach(other));
            addresses.segment().set(ValueLayout.JAVA_LONG, 0, Rma.address(region));
            job.barrier();
            // Across nodes the address travels by RMA (no sharedQuery there).
            final long[] rightWord = new long[1];
            if (Scenarios.acrossNodes()) {
                addresses.lock(LockType.SHARED, right);
                addresses.get(rightWord, 0, 1, right, 0);
                addresses.unlock(right);
            } else {
                rightWord[0] = addresses.sharedQuery(right).segment().get(ValueLayout.JAVA_LONG, 0);
            }
            final long rightAddress = rightWord[0];
            dynamic.lockAll();
            dynamic.put(new long[] {me * 10L + 3}, 0, 1, right, rightAddress + 8);
            dynamic.flush(right);
            expect(ErrorClass.RMA_RANGE, () -> dynamic.put(new long[] {1}, 0, 1, right, rightAddress + 64));
            expect(ErrorClass.RMA_RANGE, () -> dynamic.get(new long[1], 0, 1, right, 8));
            assertEquals(me * 10L + 3, dynamic.fetchAndOp(0L, right, rightAddress + 8, Op.NO_OP));
            dynamic.unlockAll();
            job.barrier();
            assertEquals(left * 10L + 3, region.get(ValueLayout.JAVA_LONG, 8));
            job.barrier();
            dynamic.detach(region);
            expect(ErrorClass.RMA_ATTACH, () -> dynamic.detach(region));
            job.freeMem(region);
            job.freeMem(other);
        }
    }

    /** Every misuse raises its error class, leaves the window unchanged and the job usable. */
    static void errorClasses(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int right = (me + 1) % n;
        try (Window window = job.allocateShared(64, 8)) {
            window.segment().fill((byte)0x5A);
            job.barrier();
            final long[] one = {42};
            expect(ErrorClass.RMA_SYNC, () -> window.put(one, 0, 1, right, 0));
            expect(ErrorClass.RMA_SYNC, () -> window.get(one, 0, 1, right, 0));
            expect(ErrorClass.RMA_SYNC, () -> window.unlock(right));
            expect(ErrorClass.RMA_SYNC, window::unlockAll);
            expect(ErrorClass.RMA_SYNC, () -> window.flush(right));
            expect(ErrorClass.RMA_SYNC, window::flushAll);
            expect(ErrorClass.RMA_SYNC, () -> window.flushLocal(right));
            expect(ErrorClass.RMA_SYNC, window::flushLocalAll);
            expect(ErrorClass.LOCKTYPE, () -> window.lock(null, right));
            expect(ErrorClass.ASSERT, () -> window.lock(LockType.SHARED, right, Rma.MODE_NOSTORE));
            expect(ErrorClass.ASSERT, () -> window.lockAll(Rma.MODE_NOPUT));
            expect(ErrorClass.ASSERT, () -> window.fence(Rma.MODE_NOCHECK));
            expect(ErrorClass.ASSERT, () -> window.fence(1 << 20));
            expect(ErrorClass.RANK, () -> window.lock(LockType.SHARED, n));
            expect(ErrorClass.RANK, () -> window.sharedQuery(-7));
            expect(ErrorClass.RANK, () -> window.sharedQuery(n));

            window.lock(LockType.SHARED, right);
            expect(ErrorClass.RANK, () -> window.put(one, 0, 1, n, 0));
            expect(ErrorClass.RANK, () -> window.get(one, 0, 1, -2, 0));
            expect(ErrorClass.DISP, () -> window.put(one, 0, 1, right, -1));
            expect(ErrorClass.RMA_RANGE, () -> window.put(one, 0, 1, right, 8));
            expect(ErrorClass.RMA_RANGE, () -> window.get(new long[2], 0, 2, right, 7));
            expect(ErrorClass.RMA_RANGE, () -> window.put(one, 0, 1, right, Long.MAX_VALUE / 4));
            expect(ErrorClass.COUNT, () -> window.put(one, 0, 2, right, 0));
            expect(ErrorClass.COUNT, () -> window.put(one, -1, 1, right, 0));
            expect(ErrorClass.RMA_SYNC, () -> window.lock(LockType.EXCLUSIVE, right));
            expect(ErrorClass.RMA_SYNC, window::lockAll);
            expect(ErrorClass.RMA_SYNC, () -> window.fence(0));
            expect(ErrorClass.RMA_SYNC, window::free);
            if (n > 1) {
                expect(ErrorClass.RMA_SYNC, () -> window.flush((right + 1) % n));
            }
            window.unlock(right);

            window.lockAll();
            expect(ErrorClass.RMA_SYNC, () -> window.lock(LockType.SHARED, right));
            expect(ErrorClass.RMA_SYNC, () -> window.unlock(right));
            window.unlockAll();

            window.fence(0);
            window.put(one, 0, 1, right, 0);
            expect(ErrorClass.RMA_SYNC, () -> window.lock(LockType.SHARED, right));
            expect(ErrorClass.RMA_SYNC, () -> window.fence(Rma.MODE_NOPRECEDE));
            window.fence(Rma.MODE_NOSUCCEED);
            expect(ErrorClass.RMA_SYNC, () -> window.put(one, 0, 1, right, 0));

            job.barrier();
            // Only the fence epoch's put changed memory: 42 in the first word, the rest untouched.
            assertEquals(42L, window.segment().get(ValueLayout.JAVA_LONG, 0));
            for (long offset = 8; offset < 64; offset++) {
                assertEquals((byte)0x5A, window.segment().get(ValueLayout.JAVA_BYTE, offset), "byte " + offset);
            }
        }

        try (Window allocated = job.allocate(16, 8)) {
            expect(ErrorClass.RMA_FLAVOR, () -> allocated.sharedQuery(0));
            assertEquals(WindowFlavor.ALLOCATE, allocated.flavor());
        }

        final Window freed = job.allocateShared(8, 8);
        freed.free();
        assertTrue(freed.isFreed());
        expect(ErrorClass.WIN, () -> freed.fence(0));
        expect(ErrorClass.WIN, () -> freed.lock(LockType.SHARED, 0));
        expect(ErrorClass.WIN, freed::free);
        expect(ErrorClass.WIN, freed::segment);
        freed.close();

        // Collective creation errors: every rank throws, the offending rank with its own values.
        expect(ErrorClass.SIZE, () -> job.allocateShared(me == 0 ? -5 : 8, 8));
        expect(ErrorClass.DISP, () -> job.allocateShared(8, me == n - 1 ? 0 : 8));
        expect(ErrorClass.INFO_VALUE, () -> job.allocateShared(8, 8, Info.of(Info.NO_LOCKS, "maybe")));
        expect(ErrorClass.INFO_VALUE, () -> job.allocateShared(8, 8, Info.of(Info.ACCUMULATE_ORDERING, "rar,xyz")));
        expect(ErrorClass.INFO_VALUE, () -> job.allocateShared(8, 8, Info.of(Info.ACCUMULATE_OPS, "any_op")));
        expect(ErrorClass.INFO_KEY, () -> Info.create().set("", "x"));

        try (Window noLocks = job.allocateShared(8, 8, Info.of(Info.NO_LOCKS, "true"))) {
            expect(ErrorClass.RMA_SYNC, () -> noLocks.lock(LockType.SHARED, 0));
            expect(ErrorClass.RMA_SYNC, noLocks::lockAll);
            noLocks.fence(0);
            noLocks.put(new long[] {me}, 0, 1, right, 0);
            noLocks.fence(0);
            assertEquals((me + n - 1) % n, noLocks.segment().get(ValueLayout.JAVA_LONG, 0));
        }

        try (Window unchecked = job.allocateShared(8, 8, Info.of(RmaJob.EPOCH_CHECKS_INFO_KEY, "false"))) {
            job.barrier();
            unchecked.put(new long[] {7}, 0, 1, me, 0);
            assertEquals(7L, unchecked.segment().get(ValueLayout.JAVA_LONG, 0));
        }
        // RMA_CONFLICT: a window may not be locked and exposed in a post epoch at once (11.5.3).
        final int last = n - 1;
        try (Window conflict = job.allocateShared(8, 8)) {
            if (me == 0) {
                conflict.post(Group.EMPTY, 0);
            }
            job.barrier();
            if (me == last) {
                expect(ErrorClass.RMA_CONFLICT, () -> conflict.lock(LockType.EXCLUSIVE, 0));
                expect(ErrorClass.RMA_CONFLICT, conflict::lockAll);
            }
            job.barrier();
            if (me == 0) {
                conflict.await();
            }
            job.barrier();
            if (me == last) {
                conflict.lock(LockType.EXCLUSIVE, 0);
            }
            job.barrier();
            if (me == 0) {
                expect(ErrorClass.RMA_CONFLICT, () -> conflict.post(Group.EMPTY, 0));
            }
            job.barrier();
            if (me == last) {
                conflict.unlock(0);
            }
            job.barrier();
        }

        // RMA_SHARED: the window file cannot be created, so no rank gets shared memory.
        final java.nio.file.Path blocker = job.directory().file("win-" + job.windowSequence());
        if (me == 0) {
            try {
                java.nio.file.Files.createFile(blocker);
            } catch (final java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        job.barrier();
        expect(ErrorClass.RMA_SHARED, () -> job.allocateShared(8, 8));
        if (me == 0) {
            try {
                java.nio.file.Files.delete(blocker);
            } catch (final java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        try (Window after = job.allocateShared(8, 8)) {
            assertEquals(8, after.size());
        }
        job.barrier();
        assertFalse(job.isClosed());
    }

    private static void expect(final ErrorClass errorClass, final ThrowingRunnable call) {
        final RmaException e = assertThrows(RmaException.class, call::run);
        assertEquals(errorClass, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().startsWith(errorClass.mpiName() + ": "), e.getMessage());
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Throwable;
    }

}
