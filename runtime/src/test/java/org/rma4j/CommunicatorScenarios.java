package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.rma4j.messaging.Messaging;
import org.rma4j.shm.WaitState;

/**
 * The programs of the communicator contract tests (MPI-3.1 chapter 6): each runs at every rank of a job,
 * in thread mode or as real processes ({@link CommunicatorContractTest}), and fails by throwing.
 */
final class CommunicatorScenarios {
    private CommunicatorScenarios() {
    }

    /** The world: ranks, group, identity; the job's shorthands are calls on it. */
    static void world(final RmaJob job) {
        final Communicator world = job.world();
        assertSame(world, job.world());
        assertEquals(job.rank(), world.rank());
        assertEquals(job.size(), world.size());
        assertEquals(job.group(), world.group());
        assertEquals(Comparison.IDENT, world.compare(job.world()));
        expect(ErrorClass.COMM, world::free);
        expect(ErrorClass.COMM, () -> world.compare(null));
        world.barrier();
        try (Window window = job.allocate(8, 8)) {
            assertEquals(world.group(), window.group());
        }
    }

    /**
     * Split with UNDEFINED (ranks divisible by 3 join nothing) and keys that reverse the order: the new
     * ranks follow the keys, the groups list the job ranks in that order.
     */
    static void splitUndefinedAndKeys(final RmaJob job) {
        final int me = job.rank();
        final int color = me % 3 == 0 ? Rma.UNDEFINED : me % 2;
        final Communicator half = job.world().split(color, -me);
        if (color == Rma.UNDEFINED) {
            assertNull(half);
        } else {
            final int[] expected = java.util.stream.IntStream.range(0, job.size())
                .filter(r -> r % 3 != 0 && r % 2 == color).boxed().sorted(java.util.Comparator.reverseOrder())
                .mapToInt(Integer::intValue).toArray();
            assertArrayEquals(expected, half.group().members());
            assertEquals(expected.length, half.size());
            assertEquals(half.group().indexOf(me), half.rank());
            assertEquals(expected.length, half.allreduce(1L, Op.SUM));
            assertEquals(me, half.allgather(new long[] {me})[half.rank()]);
            half.free();
            assertTrue(half.isFreed());
            expect(ErrorClass.COMM, half::barrier);
            expect(ErrorClass.COMM, half::dup);
        }
        // Keys equal: ties go by the rank in the parent.
        final Communicator same = job.world().split(0, 0);
        assertEquals(Comparison.CONGRUENT, same.compare(job.world()));
        assertEquals(me, same.rank());
        same.free();
        expect(ErrorClass.ARG, () -> job.world().split(me == 1 ? -5 : 0, 0));
        job.barrier();
    }

    /** dup, splitShared, create(Group) with non-members, compare and Group.compare. */
    static void constructorsAndCompare(final RmaJob job) {
        final int me = job.rank();
        final int n = job.size();
        final Communicator world = job.world();
        final Communicator dup = world.dup();
        assertEquals(Comparison.CONGRUENT, world.compare(dup));
        assertEquals(Comparison.IDENT, dup.compare(dup));
        assertEquals(Comparison.IDENT, world.group().compare(dup.group()));
        final Communicator reversed = world.split(0, n - me);
        assertEquals(Comparison.SIMILAR, world.compare(reversed));
        assertEquals(Comparison.SIMILAR, world.group().compare(reversed.group()));
        assertEquals(n - 1 - me, reversed.rank());
        final Communicator shared = world.splitShared(me);
        if (Scenarios.acrossNodes()) {
            // Two nodes of two ranks: the node's ranks, in job order.
            assertArrayEquals(new int[] {me & ~1, me | 1}, shared.group().members());
            assertEquals(Comparison.UNEQUAL, shared.compare(world));
        } else {
            assertEquals(Comparison.CONGRUENT, shared.compare(world), "one node: every rank shares memory");
        }
        // The odd ranks, highest first; the even ones get the null communicator.
        final Group odd = world.group()
            .incl(java.util.stream.IntStream.range(0, n).map(i -> n - 1 - i).filter(r -> r % 2 == 1).toArray());
        final Communicator created = dup.create(odd);
        if (me % 2 == 0) {
            assertNull(created);
        } else {
            assertNotNull(created);
            assertEquals(odd.indexOf(me), created.rank());
            assertEquals(odd, created.group());
            assertEquals(Comparison.UNEQUAL, created.compare(world));
            assertEquals(Comparison.UNEQUAL, created.group().compare(world.group()));
            // A group with a process outside the communicator: GROUP at every member.
            final Group outside = created.group().union(Group.of(0));
            expect(ErrorClass.GROUP, () -> created.create(outside));
            expect(ErrorClass.GROUP, () -> created.create(null));
            // Members that pass different groups: ARG at every member.
            final Group mine = created.rank() == 0 ? created.group() : created.group().incl(0);
            if (created.size() > 1) {
                expect(ErrorClass.ARG, () -> created.create(mine));
            }
            final Communicator empty = created.create(Group.EMPTY);
            assertNull(empty);
            created.free();
        }
        assertEquals(Comparison.UNEQUAL, Group.of(1, 2).compare(Group.of(1, 3)));
        expect(ErrorClass.GROUP, () -> Group.of(1).compare(null));
        reversed.free();
        shared.free();
        dup.free();
        expect(ErrorClass.COMM, dup::free);
    }

    /**
     * A window of every flavor over a split communicator (ranks in reverse order): ranks in the window's
     * calls are the communicator's, its group is the communicator's, PSCW groups name job ranks.
     */
    static void windowsOverSplit(final RmaJob job) {
        final int me = job.rank();
        final Communicator comm = job.world().split(me % 2, -me);
        final int n = comm.size();
        final int r = comm.rank();
        final int right = (r + 1) % n;
        final int left = (r + n - 1) % n;
        try (Window shared = Scenarios.allocate(comm, 8L * n, 8, null);
            Window allocated = comm.allocate(8L * n, 8);
            Window dynamic = comm.createDynamic(null)) {
            final MemorySegment memory = job.allocMem(8L * n);
            try (Window created = comm.create(memory, 8, null)) {
                for (final Window window : new Window[] {shared, allocated, created}) {
                    assertEquals(n, window.ranks());
                    assertEquals(r, window.rank());
                    assertEquals(comm.group(), window.group());
                    window.fence(0);
                    window.put(new long[] {1000L * me + r}, 0, 1, right, r);
                    window.fence(0);
                    assertEquals(1000L * comm.group().member(left) + left,
                        window.segment().get(ValueLayout.JAVA_LONG, 8L * left));
                    window.fence(0);
                }
                // PSCW: groups name processes by job rank, translated to the window's ranks.
                created.post(comm.group().incl(left), 0);
                created.start(comm.group().incl(right), 0);
                created.put(new long[] {-r - 1}, 0, 1, right, 0);
                created.complete();
                created.await();
                assertEquals(-left - 1, memory.get(ValueLayout.JAVA_LONG, 0));
                final int stranger = (me + 1) % job.size();
                if (!comm.group().contains(stranger)) {
                    expect(ErrorClass.RANK, () -> created.post(Group.of(stranger), 0));
                }
                // Dynamic: a region attached at each rank, reached by its address.
                final MemorySegment region = job.allocMem(8);
                dynamic.attach(region);
                final long[] addresses = comm.allgather(new long[] {Rma.address(region)});
                dynamic.lockAll();
                dynamic.put(new long[] {7L + r}, 0, 1, right, addresses[right]);
                dynamic.flushAll();
                dynamic.unlockAll();
                comm.barrier();
                assertEquals(7L + left, region.get(ValueLayout.JAVA_LONG, 0));
                comm.barrier();
                dynamic.detach(region);
                job.freeMem(region);
            }
            job.freeMem(memory);
        }
        // Windows stay usable after their communicator is freed (MPI-3.1 section 6.4.3).
        final Window after = Scenarios.allocate(comm, 8, 8, null);
        comm.free();
        after.fence(0);
        after.put(new long[] {r}, 0, 1, right, 0);
        after.fence(0);
        assertEquals(left, after.segment().get(ValueLayout.JAVA_LONG, 0));
        after.free();
        job.barrier();
    }

    /**
     * Two halves at once on 6 ranks: ranks 0 and 1 sleep in their half's barrier (published as a wait in
     * the control file, the slow path of a wait; in thread mode also seen asleep in FUTEX_WAIT), which
     * rank 2 enters only after the other half created,
     * used and freed windows of every flavor and told it so; if the halves' collective calls involved each
     * other, the job would hang.
     */
    static void halvesAtOnce(final RmaJob job) throws Exception {
        // NOTE: no try-with-resources: a failed assertion must reach the runner at once (which marks the rank
        // failed, so that every peer throws), not close windows collectively while the other half waits.
        final int me = job.rank();
        final int n = job.size();
        final Messaging messages = Messaging.create(job);
        final Window result = job.allocateShared(8, 8);
        final boolean first = me < n / 2;
        final Communicator half = job.world().split(first ? 0 : 1, me);
        if (first) {
            if (half.rank() == half.size() - 1) {
                final long[] done = new long[1];
                messages.recv(done, 0, 1, n / 2, 5);
                assertEquals(1, done[0]);
            }
            half.barrier();
            // The other half's result was stored before the message that let this half pass its barrier.
            assertEquals(expectedHalfResult(n - n / 2),
                result.sharedQuery(n / 2).segment().get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
        } else {
            if (half.rank() == 0) {
                for (int r = 0; r < n / 2 - 1; r++) {
                    awaitBarrierWait(job, r);
                    if (!job.processMode()) {
                        awaitFutexSleep("rma4j-rank-" + r);
                    }
                }
            }
            half.barrier();
            final long sum = useWindows(job, half);
            assertEquals(expectedHalfResult(half.size()), sum);
            if (half.rank() == 0) {
                result.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, 0, sum);
                result.sync();
                messages.send(new long[] {1}, 0, 1, n / 2 - 1, 5);
            }
        }
        half.free();
        job.barrier();
        result.free();
        messages.close();
    }

    private static long expectedHalfResult(final int size) {
        // Each flavor's ring put sums to 0 + 1 + ... + (size - 1), four flavors.
        return 4L * size * (size - 1) / 2;
    }

    /** Creates, uses and frees a window of each flavor over {@code comm}; returns the sum of what arrived. */
    private static long useWindows(final RmaJob job, final Communicator comm) {
        final int n = comm.size();
        final int r = comm.rank();
        final int right = (r + 1) % n;
        long sum = 0;
        final MemorySegment memory = job.allocMem(8);
        final Window shared = comm.allocateShared(8, 8);
        final Window allocated = comm.allocate(8, 8);
        final Window created = comm.create(memory, 8, null);
        final Window dynamic = comm.createDynamic(null);
        for (final Window window : new Window[] {shared, allocated, created}) {
            window.fence(0);
            window.put(new long[] {r}, 0, 1, right, 0);
            window.fence(0);
            sum += comm.allreduce(window.segment().get(ValueLayout.JAVA_LONG, 0), Op.SUM);
        }
        final MemorySegment region = job.allocMem(8);
        dynamic.attach(region);
        final long[] addresses = comm.allgather(new long[] {Rma.address(region)});
        dynamic.fence(0);
        dynamic.put(new long[] {r}, 0, 1, right, addresses[right]);
        dynamic.fence(0);
        sum += comm.allreduce(region.get(ValueLayout.JAVA_LONG, 0), Op.SUM);
        dynamic.detach(region);
        for (final Window window : new Window[] {dynamic, created, allocated, shared}) {
            window.free();
        }
        job.freeMem(region);
        job.freeMem(memory);
        return sum;
    }

    /** Waits until job rank {@code rank} published that it sleeps in a barrier (a handshake, not a delay). */
    private static void awaitBarrierWait(final RmaJob job, final int rank) {
        while (true) {
            final WaitState wait = job.control().waitState(rank);
            if (wait != null && wait.call() == WaitState.Call.BARRIER) {
                return;
            }
            LockSupport.parkNanos(1_000_000L);
        }
    }

    /**
     * Thread mode: waits until the thread {@code name} is asleep in the kernel in FUTEX_WAIT (shared, op 0:
     * rma4j's waits, not the JVM's private parking), as {@code /proc/self/task/<tid>/syscall} shows it
     * while the thread sleeps there: the thread sleeps, it does not spin.
     */
    private static void awaitFutexSleep(final String name) throws java.io.IOException {
        final String futex = switch (System.getProperty("os.arch")) {
            case "amd64", "x86_64" -> "202";
            default -> "98";
        };
        while (true) {
            try (Stream<java.nio.file.Path> tasks = Files.list(java.nio.file.Path.of("/proc/self/task"))) {
                for (final java.nio.file.Path task : tasks.toList()) {
                    try {
                        final String[] call = Files.readString(task.resolve("syscall")).trim().split(" ");
                        if (Files.readString(task.resolve("comm")).trim().equals(name) && call.length > 2
                            && call[0].equals(futex) && call[2].equals("0x0")) {
                            return;
                        }
                    } catch (final java.nio.file.NoSuchFileException ended) {
                        // a thread of the JVM ended meanwhile
                    }
                }
            }
            LockSupport.parkNanos(1_000_000L);
        }
    }

    /**
     * Two libraries each make a Messaging layer on their own dup and use the same tags: neither sees the
     * other's messages, and their collective calls never meet.
     */
    static void dupIsolation(final RmaJob job) {
        final int me = job.rank();
        final int n = job.size();
        final Communicator libraryA = job.world().dup();
        final Communicator libraryB = job.world().dup();
        try (Messaging a = Messaging.create(libraryA); Messaging b = Messaging.create(libraryB)) {
            final int right = (me + 1) % n;
            final int left = (me + n - 1) % n;
            a.send(new long[] {100 + me}, 0, 1, right, 7);
            b.send(new long[] {200 + me}, 0, 1, right, 7);
            // B first, with wildcards: only B's message can match, although A's arrived earlier.
            final long[] got = new long[1];
            b.recv(got, 0, 1, Rma.ANY_SOURCE, Rma.ANY_TAG);
            assertEquals(200 + left, got[0]);
            a.recv(got, 0, 1, Rma.ANY_SOURCE, 7);
            assertEquals(100 + left, got[0]);
            final MemorySegment sum = MemorySegment.ofArray(new long[1]);
            b.allreduce(MemorySegment.ofArray(new long[] {me}), sum, 1, Datatype.LONG, Op.SUM);
            assertEquals((long)n * (n - 1) / 2, sum.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(me, a.rank());
        }
        libraryA.free();
        libraryB.free();
    }

    /** Collective calls that do not match on a communicator are reported with both calls and ranks. */
    static void mismatchOnCommunicator(final RmaJob job) {
        final Communicator comm = job.world().dup();
        final RmaException e = assertThrows(RmaException.class, () -> {
            if (comm.rank() == 0) {
                comm.barrier();
            } else {
                comm.allreduce(1L, Op.SUM);
            }
        });
        assertTrue(e.getMessage().contains("collective calls do not match"), e.getMessage());
        assertTrue(e.getMessage().contains("barrier") && e.getMessage().contains("allreduce"), e.getMessage());
        assertTrue(e.getMessage().contains("communicator"), e.getMessage());
        // The rank is out of step on that communicator, and on the job (the world holds every rank).
        expect(ErrorClass.OTHER, comm::barrier);
        expect(ErrorClass.OTHER, job::barrier);
    }

    /** The communicator files are gone from the job directory once created, and every rank mapped them. */
    static void noFilesLeft(final RmaJob job) throws Exception {
        final Communicator dup = job.world().dup();
        dup.barrier();
        try (Stream<java.nio.file.Path> files = Files.list(job.directory().path())) {
            assertFalse(files.anyMatch(file -> file.getFileName().toString().startsWith("comm-")));
        }
        dup.free();
    }

    /**
     * A 3 x 2 grid on 6 ranks, periodic in dimension 0 only (MPI-3.1 section 7.5): row-major coordinates,
     * shifts across the periodic edge and to PROC_NULL past the others, a halo exchange through a window
     * over the grid, sub-grids, a grid smaller than the communicator, and bad arguments.
     */
    static void cartesian(final RmaJob job) {
        assertEquals(6, job.size(), "the scenario is written for 6 ranks");
        final int[] dims = Rma.dimsCreate(job.size(), new int[2]);
        assertArrayEquals(new int[] {3, 2}, dims);
        final CartCommunicator grid = job.world().cartCreate(dims, new boolean[] {true, false}, true);
        final int me = grid.rank();
        final int[] c = grid.coords();
        assertEquals(2, grid.ndims());
        assertArrayEquals(new int[] {me / 2, me % 2}, c, "row-major: the last coordinate varies fastest");
        for (int r = 0; r < grid.size(); r++) {
            assertEquals(r, grid.cartRank(grid.cartCoords(r)));
        }
        final CartCommunicator.Shift down = grid.cartShift(0, 1);
        assertEquals(grid.cartRank(new int[] {(c[0] + 2) % 3, c[1]}), down.source());
        assertEquals(grid.cartRank(new int[] {(c[0] + 1) % 3, c[1]}), down.dest());
        assertEquals(down, grid.cartShift(0, -2), "periodic: two steps back are one step forth");
        final CartCommunicator.Shift right = grid.cartShift(1, 1);
        assertEquals(c[1] == 0 ? Rma.PROC_NULL : me - 1, right.source());
        assertEquals(c[1] == 1 ? Rma.PROC_NULL : me + 1, right.dest());
        assertEquals(new CartCommunicator.Shift(Rma.PROC_NULL, Rma.PROC_NULL), grid.cartShift(1, 2));
        assertEquals(grid.cartRank(new int[] {2, c[1]}), grid.cartRank(new int[] {-1, c[1]}));
        expect(ErrorClass.ARG, () -> grid.cartRank(new int[] {0, 2}));
        expect(ErrorClass.ARG, () -> grid.cartRank(new int[] {0}));
        expect(ErrorClass.DIMS, () -> grid.cartShift(2, 1));
        expect(ErrorClass.RANK, () -> grid.cartCoords(6));
        // Halo: each rank puts its rank into its dest's slot of each direction; PROC_NULL puts do nothing.
        final Window halo = grid.allocate(16, 8);
        halo.fence(0);
        halo.put(new long[] {me + 1}, 0, 1, down.dest(), 0);
        halo.put(new long[] {me + 1}, 0, 1, right.dest(), 1);
        halo.fence(0);
        assertEquals(down.source() + 1, halo.segment().get(ValueLayout.JAVA_LONG, 0));
        assertEquals(right.source() == Rma.PROC_NULL ? 0 : right.source() + 1,
            halo.segment().get(ValueLayout.JAVA_LONG, 8));
        halo.free();
        final CartCommunicator row = grid.cartSub(new boolean[] {false, true});
        assertArrayEquals(new int[] {2}, row.dims());
        assertArrayEquals(new boolean[] {false}, row.periods());
        assertEquals(c[1], row.rank());
        assertEquals(Group.of(grid.group().member(c[0] * 2), grid.group().member(c[0] * 2 + 1)), row.group());
        final CartCommunicator column = grid.cartSub(new boolean[] {true, false});
        assertEquals(3, column.size());
        assertEquals(c[0], column.rank());
        assertArrayEquals(new boolean[] {true}, column.periods());
        assertEquals(3L * c[1] + 6, column.allreduce((long)me, Op.SUM));
        final CartCommunicator point = grid.cartSub(new boolean[] {false, false});
        assertEquals(1, point.size());
        assertEquals(0, point.ndims());
        final CartCommunicator copy = grid.dup();
        assertArrayEquals(dims, copy.dims());
        assertEquals(Comparison.CONGRUENT, copy.compare(grid));
        final CartCommunicator small = job.world().cartCreate(new int[] {2, 2}, new boolean[2], false);
        if (job.rank() < 4) {
            assertEquals(job.rank(), small.rank());
            small.free();
        } else {
            assertNull(small);
        }
        expect(ErrorClass.DIMS, () -> job.world().cartCreate(new int[] {0, 2}, new boolean[2], false));
        expect(ErrorClass.TOPOLOGY, () -> job.world().cartCreate(new int[] {7, 1}, new boolean[2], false));
        expect(ErrorClass.ARG, () -> job.world().cartCreate(new int[] {2}, new boolean[2], false));
        expect(ErrorClass.DIMS, () -> grid.cartSub(new boolean[1]));
        for (final Communicator comm : new Communicator[] {copy, point, column, row, grid}) {
            comm.free();
        }
    }

    /**
     * Two threads of every rank make collective calls at once, each on its own dup of the world (the way
     * to overlap collectives with other work): every result is exact.
     */
    static void concurrentDups(final RmaJob job) throws Exception {
        final int n = job.size();
        final int me = job.rank();
        final Communicator first = job.world().dup();
        final Communicator second = job.world().dup();
        final java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        final Thread helper = new Thread(() -> {
            try {
                collectiveRounds(second, 7);
            } catch (final Throwable t) {
                failure.set(t);
            }
        }, "rank-" + me + "-helper");
        helper.start();
        collectiveRounds(first, 3);
        helper.join();
        if (failure.get() != null) {
            throw new AssertionError("the helper thread failed", failure.get());
        }
        assertEquals((long)n * (n - 1) / 2, first.allreduce((long)me, Op.SUM));
        first.free();
        second.free();
    }

    private static void collectiveRounds(final Communicator comm, final long factor) {
        final int n = comm.size();
        final int me = comm.rank();
        for (int round = 0; round < 200; round++) {
            assertEquals(factor * round * n + (long)n * (n - 1) / 2, comm.allreduce(factor * round + me, Op.SUM));
            final long[] data = {me == round % n ? factor * round : -1};
            comm.bcast(data, round % n);
            assertEquals(factor * round, data[0]);
            if (round % 50 == 0) {
                final Window window = Scenarios.allocate(comm, 8, 8, null);
                window.fence(0);
                window.put(new long[] {factor + me}, 0, 1, (me + 1) % n, 0);
                window.fence(0);
                assertEquals(factor + (me + n - 1) % n, window.segment().get(ValueLayout.JAVA_LONG, 0));
                window.free();
                comm.dup().free();
            }
        }
    }

    static void expect(final ErrorClass errorClass, final ThrowingRunnable call) {
        final RmaException e = assertThrows(RmaException.class, call::run);
        assertEquals(errorClass, e.errorClass(), e.getMessage());
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Throwable;
    }
}
