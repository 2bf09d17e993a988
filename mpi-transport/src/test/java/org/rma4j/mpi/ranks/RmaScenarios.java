package org.rma4j.mpi.ranks;

import static org.rma4j.mpi.ranks.CommScenarios.list;
import static org.rma4j.mpi.ranks.RankMain.print;
import static org.rma4j.mpi.ranks.RankMain.require;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Map;

import org.rma4j.mpi.Mpi;
import org.rma4j.mpi.MpiBasicType;
import org.rma4j.mpi.MpiComm;
import org.rma4j.mpi.MpiDatatype;
import org.rma4j.mpi.MpiGroup;
import org.rma4j.mpi.MpiLockType;
import org.rma4j.mpi.MpiMode;
import org.rma4j.mpi.MpiOp;
import org.rma4j.mpi.MpiRequest;
import org.rma4j.mpi.MpiWin;

/**
 * Scenarios of one-sided communication on 4 ranks, ranks 0 and 1 on node 0, 2 and 3 on node 1 (MPI-3.1
 * chapter 11): every value is checked exactly, in the rank and again by the test from the printed lines.
 */
final class RmaScenarios {
    /** Longs of the put / get scenario: 1 MiB, fragmented by any TCP transport. */
    static final int PUT_LONGS = 1 << 17;
    /** Fetch-and-op calls per rank. */
    static final int FETCH_OPS = 200;
    /** Compare-and-swap increments per rank. */
    static final int CAS_INCREMENTS = 50;
    /** Locked read-modify-writes per rank. */
    static final int LOCKED_INCREMENTS = 40;

    private RmaScenarios() {
    }

    /** lock_all, a 1 MiB put to the other node, flush, barrier, a get back of the same, checks of both ends. */
    static void putGet(final Mpi mpi, final Arena arena) {
        final MpiComm world = mpi.world();
        final int rank = world.rank();
        final int target = (rank + 2) % 4;
        final int origin = (rank + 2) % 4;
        final MpiDatatype int64 = mpi.datatype(MpiBasicType.INT64_T);
        final MpiWin win = MpiWin.allocate(world, 8L * PUT_LONGS, 8, Map.of());
        final MemorySegment data = arena.allocate(ValueLayout.JAVA_LONG, PUT_LONGS);
        for (int i = 0; i < PUT_LONGS; i++) {
            data.setAtIndex(ValueLayout.JAVA_LONG, i, rank * 1_000_000L + i);
        }
        win.lockAll(0);
        win.put(data, PUT_LONGS, int64, target, 0);
        win.flush(target);
        world.barrier();
        final MemorySegment back = arena.allocate(ValueLayout.JAVA_LONG, PUT_LONGS);
        win.get(back, PUT_LONGS, int64, target, 0);
        win.flush(target);
        win.sync();
        boolean ownOk = true;
        for (int i = 0; i < PUT_LONGS; i++) {
            ownOk &= win.base().getAtIndex(ValueLayout.JAVA_LONG, i) == origin * 1_000_000L + i;
        }
        win.unlockAll();
        world.barrier();
        print(rank, "putget",
            "target=" + target + " getOk=" + (back.mismatch(data) == -1) + " ownOk=" + ownOk + " ownFirst="
                + win.base().get(ValueLayout.JAVA_LONG, 0) + " ownLast="
                + win.base().getAtIndex(ValueLayout.JAVA_LONG, PUT_LONGS - 1));
        win.free();
    }

    /**
     * Every rank adds 1 {@value #FETCH_OPS} times to a counter of rank 3 with fetch_and_op + flush; the
     * fetched values of all ranks are 0 .. 4 x FETCH_OPS - 1, each once.
     */
    static void fetchAndOp(final Mpi mpi, final Arena arena) {
        final MpiComm world = mpi.world();
        final int rank = world.rank();
        final MpiDatatype int64 = mpi.datatype(MpiBasicType.INT64_T);
        final MpiWin win = zeroedWindow(world, 8);
        final MemorySegment one = arena.allocate(ValueLayout.JAVA_LONG);
        one.set(ValueLayout.JAVA_LONG, 0, 1);
        final MemorySegment fetched = arena.allocate(ValueLayout.JAVA_LONG, FETCH_OPS);
        win.lockAll(0);
        for (int i = 0; i < FETCH_OPS; i++) {
            win.fetchAndOp(one, fetched.asSlice(8L * i, 8), int64, 3, 0, MpiOp.SUM);
            win.flush(3);
        }
        win.unlockAll();
        world.barrier();
        final MemorySegment all = arena.allocate(ValueLayout.JAVA_LONG, 4L * FETCH_OPS);
        world.allgather(fetched, FETCH_OPS, int64, all, FETCH_OPS, int64);
        final long[] values = all.toArray(ValueLayout.JAVA_LONG);
        Arrays.sort(values);
        boolean unique = true;
        for (int i = 0; i < values.length; i++) {
            unique &= values[i] == i;
        }
        print(rank, "fetchop", "final=" + readLong(win, arena, 3, 0) + " unique=" + unique);
        win.free();
    }

    /**
     * One compare-and-swap of -1 to each rank's number at rank 2 (exactly one wins), then
     * {@value #CAS_INCREMENTS} increments per rank of a counter by CAS retry loops.
     */
    static void compareAndSwap(final Mpi mpi, final Arena arena) {
        final MpiComm world = mpi.world();
        final int rank = world.rank();
        final MpiDatatype int64 = mpi.datatype(MpiBasicType.INT64_T);
        final MpiWin win = zeroedWindow(world, 16);
        if (rank == 2) {
            win.lock(MpiLockType.EXCLUSIVE, 2, 0);
            win.base().set(ValueLayout.JAVA_LONG, 0, -1);
            win.unlock(2);
        }
        world.barrier();
        final MemorySegment origin = arena.allocate(ValueLayout.JAVA_LONG);
        final MemorySegment compare = arena.allocate(ValueLayout.JAVA_LONG);
        final MemorySegment result = arena.allocate(ValueLayout.JAVA_LONG);
        win.lockAll(0);
        origin.set(ValueLayout.JAVA_LONG, 0, rank);
        compare.set(ValueLayout.JAVA_LONG, 0, -1);
        win.compareAndSwap(origin, compare, result, int64, 2, 0);
        win.flush(2);
        final boolean won = result.get(ValueLayout.JAVA_LONG, 0) == -1;
        int retries = 0;
        for (int i = 0; i < CAS_INCREMENTS; i++) {
            win.fetchAndOp(origin, compare, int64, 2, 1, MpiOp.NO_OP);
            win.flush(2);
            while (true) {
                origin.set(ValueLayout.JAVA_LONG, 0, compare.get(ValueLayout.JAVA_LONG, 0) + 1);
                win.compareAndSwap(origin, compare, result, int64, 2, 1);
                win.flush(2);
                if (result.get(ValueLayout.JAVA_LONG, 0) == compare.get(ValueLayout.JAVA_LONG, 0)) {
                    break;
                }
                retries++;
                compare.set(ValueLayout.JAVA_LONG, 0, result.get(ValueLayout.JAVA_LONG, 0));
            }
        }
        win.unlockAll();
        final long winners = world.allreduce(won ? 1 : 0, MpiOp.SUM);
        print(rank, "cas", "won=" + won + " winners=" + winners + " slot=" + readLong(win, arena, 2, 0) + " counter="
            + readLong(win, arena, 2, 1) + " retries=" + retries);
        win.free();
    }

    /**
     * {@value #LOCKED_INCREMENTS} non-atomic increments per rank of a counter of rank 1 (get, flush, put) each
     * under an exclusive lock: the final count is exact only if the lock excludes across nodes.
     */
    static void exclusiveLock(final Mpi mpi, final Arena arena) {
        final MpiComm world = mpi.world();
        final int rank = world.rank();
        final MpiDatatype int64 = mpi.datatype(MpiBasicType.INT64_T);
        final MpiWin win = zeroedWindow(world, 8);
        final MemorySegment value = arena.allocate(ValueLayout.JAVA_LONG);
        for (int i = 0; i < LOCKED_INCREMENTS; i++) {
            win.lock(MpiLockType.EXCLUSIVE, 1, 0);
            win.get(value, 1, int64, 1, 0);
            win.flush(1);
            value.set(ValueLayout.JAVA_LONG, 0, value.get(ValueLayout.JAVA_LONG, 0) + 1);
            win.put(value, 1, int64, 1, 0);
            win.unlock(1);
        }
        world.barrier();
        print(rank, "lock", "final=" + readLong(win, arena, 1, 0));
        win.free();
    }

    /** A fence epoch: every rank puts 100 + its rank into slot rank of every rank, then gets a neighbour's. */
    static void fence(final Mpi mpi, final Arena arena) {
        final MpiComm world = mpi.world();
        final int rank = world.rank();
        final int size = world.size();
        final MpiDatatype int64 = mpi.datatype(MpiBasicType.INT64_T);
        final MpiWin win = MpiWin.allocate(world, 8L * size, 8, Map.of());
        final MemorySegment mine = arena.allocate(ValueLayout.JAVA_LONG);
        mine.set(ValueLayout.JAVA_LONG, 0, 100 + rank);
        final MemorySegment neighbour = arena.allocate(ValueLayout.JAVA_LONG, size);
        win.fence(MpiMode.NOPRECEDE);
        for (int target = 0; target < size; target++) {
            win.put(mine, 1, int64, target, rank);
        }
        win.fence(0);
        win.get(neighbour, size, int64, (rank + 1) % size, 0);
        win.fence(MpiMode.NOSUCCEED);
        print(rank, "fence", "own=" + list(win.base().toArray(ValueLayout.JAVA_LONG)) + " neighbour="
            + list(neighbour.toArray(ValueLayout.JAVA_LONG)));
        win.free();
    }

    /**
     * General active target: origins 0 and 3 start an access epoch to targets 1 and 2 and put 10 x origin +
     * target into slot (0 for origin 0, 1 for origin 3); target 1 waits, target 2 polls MPI_Win_test.
     */
    static void pscw(final Mpi mpi, final Arena arena) {
        final MpiComm world = mpi.world();
        final int rank = world.rank();
        final MpiDatatype int64 = mpi.datatype(MpiBasicType.INT64_T);
        final MpiWin win = zeroedWindow(world, 16);
        final MpiGroup worldGroup = world.group();
        final MemorySegment value = arena.allocate(ValueLayout.JAVA_LONG);
        if (rank == 0 || rank == 3) {
            final MpiGroup targets = worldGroup.incl(1, 2);
            win.start(targets, 0);
            for (final int target : new int[] {1, 2}) {
                value.set(ValueLayout.JAVA_LONG, 0, 10L * rank + target);
                win.put(value, 1, int64, target, rank == 0 ? 0 : 1);
            }
            win.complete();
            targets.free();
            print(rank, "pscw", "origin");
        } else {
            final MpiGroup origins = worldGroup.incl(0, 3);
            win.post(origins, 0);
            int tests = 0;
            if (rank == 1) {
                win.await();
            } else {
                while (!win.test()) {
                    tests++;
                    Thread.yield();
                }
            }
            origins.free();
            print(rank, "pscw", "slots=" + list(win.base().toArray(ValueLayout.JAVA_LONG)) + " tests=" + tests);
        }
        worldGroup.free();
        world.barrier();
        win.free();
    }

    /**
     * Request-based calls in a lock_all epoch: rput of 1 KiB to the next rank, raccumulate of ones, then
     * rget and rget_accumulate (MPI_NO_OP) back; MpiRequest.await and test.
     */
    static void requests(final Mpi mpi, final Arena arena) {
        final MpiComm world = mpi.world();
        final int rank = world.rank();
        final int size = world.size();
        final int count = 128;
        final int target = (rank + 1) % size;
        final MpiDatatype int64 = mpi.datatype(MpiBasicType.INT64_T);
        final MpiWin win = zeroedWindow(world, 16L * count);
        final MemorySegment data = arena.allocate(ValueLayout.JAVA_LONG, count);
        final MemorySegment ones = arena.allocate(ValueLayout.JAVA_LONG, count);
        for (int i = 0; i < count; i++) {
            data.setAtIndex(ValueLayout.JAVA_LONG, i, rank * 1000L + i);
            ones.setAtIndex(ValueLayout.JAVA_LONG, i, 1);
        }
        win.lockAll(0);
        final MpiRequest put = win.rput(data, count, int64, target, 0);
        put.await();
        final MpiRequest accumulate = win.raccumulate(ones, count, int64, target, count, MpiOp.SUM);
        accumulate.await();
        win.flush(target);
        world.barrier();
        final MemorySegment back = arena.allocate(ValueLayout.JAVA_LONG, count);
        final MpiRequest get = win.rget(back, count, int64, target, 0);
        while (!get.test()) {
            Thread.yield();
        }
        final MemorySegment sums = arena.allocate(ValueLayout.JAVA_LONG, count);
        win.rgetAccumulate(MemorySegment.NULL, sums, count, int64, target, count, MpiOp.NO_OP).await();
        win.unlockAll();
        world.barrier();
        boolean sumsOk = true;
        boolean ownOk = true;
        final int origin = (rank + size - 1) % size;
        for (int i = 0; i < count; i++) {
            sumsOk &= sums.getAtIndex(ValueLayout.JAVA_LONG, i) == 1;
            ownOk &= win.base().getAtIndex(ValueLayout.JAVA_LONG, i) == origin * 1000L + i;
            ownOk &= win.base().getAtIndex(ValueLayout.JAVA_LONG, count + i) == 1;
        }
        print(rank, "rput", "getOk=" + (back.mismatch(data) == -1) + " sumsOk=" + sumsOk + " ownOk=" + ownOk
            + " complete=" + (put.isComplete() && get.isComplete()));
        win.free();
    }

    /**
     * MPI_Win_allocate_shared on the node communicator: each rank stores into its part, the node neighbour
     * reads it through MPI_Win_shared_query. On the world communicator (two nodes) it is an error.
     */
    static void shared(final Mpi mpi, final Arena arena) {
        final MpiComm world = mpi.world();
        final int rank = world.rank();
        final MpiComm node = world.splitTypeShared(0);
        final MpiWin win = MpiWin.allocateShared(node, 64, 8, Map.of());
        win.lockAll(0);
        win.base().set(ValueLayout.JAVA_LONG, 0, 1000 + rank);
        win.sync();
        node.barrier();
        win.sync();
        final MpiWin.Region other = win.sharedQuery(1 - node.rank());
        final long neighbour = other.segment().get(ValueLayout.JAVA_LONG, 0);
        win.unlockAll();
        node.barrier();
        String acrossNodes = "none";
        try {
            MpiWin.allocateShared(world, 64, 8, Map.of()).free();
        } catch (final org.rma4j.mpi.MpiException e) {
            acrossNodes = e.errorClass().name();
        }
        print(rank, "shared", "neighbour=" + neighbour + " dispUnit=" + other.dispUnit() + " size="
            + other.segment().byteSize() + " acrossNodes=" + acrossNodes);
        win.free();
        require(!other.segment().scope().isAlive(), "the shared part's segment is closed with the window");
        node.free();
    }

    /** MPI_Win_create_dynamic: each rank attaches 8 longs, publishes their address, and the previous rank puts. */
    static void dynamic(final Mpi mpi, final Arena arena) {
        final MpiComm world = mpi.world();
        final int rank = world.rank();
        final int size = world.size();
        final MpiDatatype int64 = mpi.datatype(MpiBasicType.INT64_T);
        final MpiWin win = MpiWin.createDynamic(world, Map.of());
        final MemorySegment memory = arena.allocate(ValueLayout.JAVA_LONG, 8);
        memory.fill((byte)0);
        win.attach(memory);
        final MemorySegment address = arena.allocate(ValueLayout.JAVA_LONG);
        address.set(ValueLayout.JAVA_LONG, 0, MpiWin.address(memory));
        final MemorySegment addresses = arena.allocate(ValueLayout.JAVA_LONG, size);
        world.allgather(address, 1, int64, addresses, 1, int64);
        final int target = (rank + 1) % size;
        final MemorySegment value = arena.allocate(ValueLayout.JAVA_LONG);
        value.set(ValueLayout.JAVA_LONG, 0, 7000 + rank);
        win.lockAll(0);
        win.put(value, 1, int64, target, addresses.getAtIndex(ValueLayout.JAVA_LONG, target) + 8);
        win.flush(target);
        win.unlockAll();
        world.barrier();
        print(rank, "dynamic", "slot1=" + memory.getAtIndex(ValueLayout.JAVA_LONG, 1));
        win.detach(memory);
        win.free();
    }

    /** An MPI_Win_allocate window of {@code bytes} zeroed by its owner before anyone accesses it. */
    private static MpiWin zeroedWindow(final MpiComm comm, final long bytes) {
        final MpiWin win = MpiWin.allocate(comm, bytes, 8, Map.of());
        final int rank = comm.rank();
        win.lock(MpiLockType.EXCLUSIVE, rank, 0);
        win.base().fill((byte)0);
        win.unlock(rank);
        comm.barrier();
        return win;
    }

    /** Reads a long of a target under a shared lock. */
    private static long readLong(final MpiWin win, final Arena arena, final int target, final long disp) {
        final MemorySegment value = arena.allocate(ValueLayout.JAVA_LONG);
        win.lock(MpiLockType.SHARED, target, 0);
        win.get(value, 1, MpiDatatype.of(MpiBasicType.INT64_T), target, disp);
        win.unlock(target);
        return value.get(ValueLayout.JAVA_LONG, 0);
    }
}
