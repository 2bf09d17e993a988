package org.rma4j.mpi.ranks;

import static org.rma4j.mpi.ranks.RankMain.print;
import static org.rma4j.mpi.ranks.RankMain.require;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.stream.IntStream;

import org.rma4j.mpi.Mpi;
import org.rma4j.mpi.MpiBasicType;
import org.rma4j.mpi.MpiComm;
import org.rma4j.mpi.MpiDatatype;
import org.rma4j.mpi.MpiGroup;
import org.rma4j.mpi.MpiOp;
import org.rma4j.mpi.MpiRequest;
import org.rma4j.mpi.MpiStatus;

/** Scenarios of communicators, groups, collectives and point-to-point communication (4 ranks on 2 nodes). */
final class CommScenarios {
    /** Rounds of the signals scenario, one null in 1000. */
    static final int SIGNAL_ROUNDS = 2_000_000;

    private CommScenarios() {
    }

    /**
     * Rank, size, host, the node communicator of MPI_Comm_split_type(SHARED) and its members in the world,
     * allreduce, bcast, allgather(v), split (with MPI_UNDEFINED), dup, group incl.
     */
    static void basics(final Mpi mpi, final Arena arena) {
        final MpiComm world = mpi.world();
        final int rank = world.rank();
        final MpiComm node = world.splitTypeShared(rank);
        final MpiGroup worldGroup = world.group();
        final MpiGroup nodeGroup = node.group();
        final int[] members = nodeGroup.translateRanks(IntStream.range(0, node.size()).toArray(), worldGroup);
        final long sum = world.allreduce(rank, MpiOp.SUM);
        world.barrier();
        final MpiDatatype int64 = mpi.datatype(MpiBasicType.INT64_T);
        final MemorySegment value = arena.allocate(ValueLayout.JAVA_LONG);
        value.set(ValueLayout.JAVA_LONG, 0, rank == 2 ? 4242 : -1);
        world.bcast(value, 1, int64, 2);
        final MemorySegment mine = arena.allocate(ValueLayout.JAVA_LONG, rank + 1);
        mine.fill((byte)0);
        for (int i = 0; i <= rank; i++) {
            mine.setAtIndex(ValueLayout.JAVA_LONG, i, rank);
        }
        final int size = world.size();
        final MemorySegment gathered = arena.allocate(ValueLayout.JAVA_LONG, size);
        world.allgather(mine, 1, int64, gathered, 1, int64);
        final int[] counts = IntStream.range(0, size).map(r -> r + 1).toArray();
        final int[] displacements = IntStream.range(0, size).map(r -> r * (r + 1) / 2).toArray();
        final MemorySegment gatheredV = arena.allocate(ValueLayout.JAVA_LONG, size * (size + 1) / 2);
        world.allgatherv(mine, rank + 1, int64, gatheredV, counts, displacements, int64);
        final MpiComm parity = world.split(rank % 2, -rank);
        final MpiComm undefined = world.split(rank == 0 ? Mpi.UNDEFINED : 1, 0);
        require(undefined.isNull() == (rank == 0), "split with MPI_UNDEFINED gives MPI_COMM_NULL to rank 0 only");
        final MpiComm dup = world.dup();
        final MpiGroup picked = worldGroup.incl(3, 1);
        print(rank, "basics",
            "size=" + size + " host=" + RankMain.hostname() + " nodeSize=" + node.size() + " nodeRank=" + node.rank()
                + " nodeMembers=" + list(members) + " sum=" + sum + " bcast=" + value.get(ValueLayout.JAVA_LONG, 0)
                + " allgather=" + list(gathered.toArray(ValueLayout.JAVA_LONG)) + " allgatherv="
                + list(gatheredV.toArray(ValueLayout.JAVA_LONG)) + " paritySize=" + parity.size() + " parityRank="
                + parity.rank() + " dupRank=" + dup.rank() + " inclRank=" + picked.rank() + " inclSize=" + picked.size()
                + " level=" + mpi.providedThreadLevel() + " abi=" + Mpi.abi().name().replace(" ", ""));
        picked.free();
        nodeGroup.free();
        worldGroup.free();
        dup.free();
        parity.free();
        if (!undefined.isNull()) {
            undefined.free();
        }
        node.free();
    }

    /**
     * The nonblocking collectives: an ibarrier, an iallgather and an iallgatherv, each completed by a loop of
     * MPI_Test (as the runtime completes them, serving other work between tests).
     */
    static void nonblockingCollectives(final Mpi mpi, final Arena arena) {
        final MpiComm world = mpi.world();
        final int rank = world.rank();
        final int size = world.size();
        final MpiDatatype int64 = mpi.datatype(MpiBasicType.INT64_T);
        int tests = testUntilComplete(world.ibarrier());
        final MemorySegment mine = arena.allocate(ValueLayout.JAVA_LONG, rank + 1);
        for (int i = 0; i <= rank; i++) {
            mine.setAtIndex(ValueLayout.JAVA_LONG, i, 10L * rank + i);
        }
        final MemorySegment gathered = arena.allocate(ValueLayout.JAVA_LONG, size);
        tests += testUntilComplete(world.iallgather(mine, 1, int64, gathered, 1, int64));
        final int[] counts = IntStream.range(0, size).map(r -> r + 1).toArray();
        final int[] displacements = IntStream.range(0, size).map(r -> r * (r + 1) / 2).toArray();
        final MemorySegment gatheredV = arena.allocate(ValueLayout.JAVA_LONG, size * (size + 1) / 2);
        tests += testUntilComplete(world.iallgatherv(mine, rank + 1, int64, gatheredV, counts, displacements, int64));
        print(rank, "nbc", "iallgather=" + list(gathered.toArray(ValueLayout.JAVA_LONG)) + " iallgatherv="
            + list(gatheredV.toArray(ValueLayout.JAVA_LONG)) + " tested=" + (tests > 0));
    }

    /** @return how many MPI_Test calls it took. */
    private static int testUntilComplete(final MpiRequest request) {
        int tests = 0;
        while (!request.test()) {
            tests++;
            Thread.yield();
        }
        require(request.isComplete(), "a completed request is MPI_REQUEST_NULL");
        return tests + 1;
    }

    /**
     * A ring of isend / recv from MPI_ANY_SOURCE with MPI_ANY_TAG, 1 MiB from rank 0 to rank 3 (other node)
     * through irecv, iprobe, and MPI_PROC_NULL.
     */
    static void sendRecv(final Mpi mpi, final Arena arena) {
        final MpiComm world = mpi.world();
        final int rank = world.rank();
        final int size = world.size();
        final MpiDatatype int64 = mpi.datatype(MpiBasicType.INT64_T);
        final MemorySegment out = arena.allocate(ValueLayout.JAVA_LONG);
        out.set(ValueLayout.JAVA_LONG, 0, rank * 10L);
        final MemorySegment in = arena.allocate(ValueLayout.JAVA_LONG);
        final MpiRequest sent = world.isend(out, 1, int64, (rank + 1) % size, 7);
        final MpiStatus ring = world.recv(in, 1, int64, Mpi.ANY_SOURCE, Mpi.ANY_TAG);
        sent.await();
        require(sent.isComplete(), "a completed request is MPI_REQUEST_NULL");

        final int bigCount = 1 << 17;
        final MemorySegment big = arena.allocate(ValueLayout.JAVA_LONG, bigCount);
        int received = -1;
        boolean bigOk = true;
        if (rank == 0) {
            for (int i = 0; i < bigCount; i++) {
                big.setAtIndex(ValueLayout.JAVA_LONG, i, i * 3L);
            }
            world.send(big, bigCount, int64, 3, 8);
        } else if (rank == 3) {
            final MpiStatus status = world.irecv(big, bigCount, int64, 0, 8).awaitStatus();
            received = status.count();
            for (int i = 0; i < bigCount; i++) {
                bigOk &= big.getAtIndex(ValueLayout.JAVA_LONG, i) == i * 3L;
            }
        }

        int probed = -1;
        final MpiDatatype int32 = mpi.datatype(MpiBasicType.INT32_T);
        final MemorySegment three = arena.allocate(ValueLayout.JAVA_INT, 3);
        if (rank == 1) {
            world.send(three, 3, int32, 2, 9);
        } else if (rank == 2) {
            MpiStatus status;
            while ((status = world.iprobe(1, 9)) == null) {
                Thread.yield();
            }
            probed = status.count();
            world.recv(three, 3, int32, 1, 9);
        }

        world.send(out, 1, int64, Mpi.PROC_NULL, 3);
        final MpiStatus nothing = world.recv(in.asSlice(0, 0), 0, int64, Mpi.PROC_NULL, 3);
        print(rank, "sendrecv",
            "ringFrom=" + ring.source() + " ringTag=" + ring.tag() + " ringCount=" + ring.count() + " ringValue="
                + in.get(ValueLayout.JAVA_LONG, 0) + " bigCount=" + received + " bigOk=" + bigOk + " probeBytes="
                + probed + " procNullSource=" + nothing.source() + " procNullTag=" + nothing.tag() + " procNullCount="
                + nothing.count());
        world.barrier();
    }

    /**
     * The JVM's own uses of SIGSEGV go on working with the MPI library loaded and initialized: implicit null
     * checks of compiled code (caught NullPointerExceptions) and safepoint polls (System.gc) in a hot loop.
     */
    static void signals(final Mpi mpi, final Arena arena) {
        int caught = 0;
        for (int i = 0; i < SIGNAL_ROUNDS; i++) {
            try {
                caught += length(i % 1000 == 0 ? null : "x") - 1;
            } catch (final NullPointerException e) {
                caught++;
            }
            if (i % (SIGNAL_ROUNDS / 4) == 0) {
                System.gc();
            }
        }
        print(mpi.world().rank(), "signals", "npes=" + caught);
        mpi.world().barrier();
    }

    private static int length(final String text) {
        return text.length();
    }

    /** Rank 3 halts with status 7 after a barrier; the others wait in a second barrier. */
    static void exitAbnormally(final Mpi mpi, final Arena arena) {
        final MpiComm world = mpi.world();
        world.barrier();
        if (world.rank() == 3) {
            print(3, "exit", "halting with status 7");
            Runtime.getRuntime().halt(7);
        }
        world.barrier();
        print(world.rank(), "exit", "UNEXPECTED passed the barrier");
    }

    /** Rank 2 calls MPI_Abort with error code 5; the others wait in a barrier. */
    static void abort(final Mpi mpi, final Arena arena) {
        final MpiComm world = mpi.world();
        world.barrier();
        if (world.rank() == 2) {
            print(2, "abort", "aborting with 5");
            mpi.abort(world, 5);
        }
        world.barrier();
        print(world.rank(), "abort", "UNEXPECTED passed the barrier");
    }

    static String list(final int[] values) {
        return Arrays.toString(values).replace(" ", "");
    }

    static String list(final long[] values) {
        return Arrays.toString(values).replace(" ", "");
    }
}
