package org.rma4j.mpi.ranks;

import static org.rma4j.mpi.ranks.RankMain.print;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.LinkedHashMap;
import java.util.Map;

import org.rma4j.mpi.Mpi;
import org.rma4j.mpi.MpiBasicType;
import org.rma4j.mpi.MpiComm;
import org.rma4j.mpi.MpiDatatype;
import org.rma4j.mpi.MpiException;
import org.rma4j.mpi.MpiLockType;
import org.rma4j.mpi.MpiWin;

/**
 * Erroneous calls return as {@link MpiException}s with their MPI error class (MPI_ERRORS_RETURN), and the
 * job goes on: a valid put after them arrives.
 */
final class ErrorScenarios {
    private ErrorScenarios() {
    }

    static void errors(final Mpi mpi, final Arena arena) {
        final MpiComm world = mpi.world();
        final int rank = world.rank();
        final MpiDatatype int64 = mpi.datatype(MpiBasicType.INT64_T);
        final MpiWin win = MpiWin.allocate(world, 64, 8, Map.of());
        final MemorySegment value = arena.allocate(ValueLayout.JAVA_LONG);
        final Map<String, String> classes = new LinkedHashMap<>();
        if (rank == 0) {
            classes.put("outsideEpoch", failure(() -> win.put(value, 1, int64, 2, 0)));
            win.lockAll(0);
            classes.put("badRank", failure(() -> win.put(value, 1, int64, 99, 0)));
            classes.put("negativeDisp", failure(() -> win.put(value, 1, int64, 2, -1)));
            classes.put("negativeCount", failure(() -> win.put(value, -1, int64, 2, 0)));
            classes.put("lockInLockAll", failure(() -> win.lock(MpiLockType.EXCLUSIVE, 2, 0)));
            classes.put("smallBuffer", failure(() -> win.put(value, 2, int64, 2, 0)));
            classes.put("heapBuffer", failure(() -> win.put(MemorySegment.ofArray(new long[1]), 1, int64, 2, 0)));
            win.unlockAll();
            classes.put("unlockNotLocked", failure(() -> win.unlock(2)));
            classes.put("flushNoEpoch", failure(() -> win.flush(2)));
            classes.put("badAssert", failure(() -> win.fence(1 << 20)));
            classes.put("sendBadRank", failure(() -> world.send(value, 1, int64, 42, 0)));
            classes.put("freeWorld", failure(world::free));
        }
        world.barrier();
        win.lockAll(0);
        value.set(ValueLayout.JAVA_LONG, 0, 5000 + rank);
        win.put(value, 1, int64, (rank + 1) % world.size(), 0);
        win.flush((rank + 1) % world.size());
        win.unlockAll();
        world.barrier();
        win.lock(MpiLockType.SHARED, rank, 0);
        final long arrived = win.base().get(ValueLayout.JAVA_LONG, 0);
        win.unlock(rank);
        final StringBuilder line = new StringBuilder();
        classes.forEach((call, errorClass) -> line.append(call).append('=').append(errorClass).append(' '));
        print(rank, "errors", line + "arrived=" + arrived);
        win.free();
    }

    /** @return the error class of the exception the call throws, or "none". */
    private static String failure(final Runnable call) {
        try {
            call.run();
            return "none";
        } catch (final MpiException e) {
            return e.errorClass().name() + (e.errorCode() == MpiException.NOT_FROM_MPI ? "(binding)" : "");
        }
    }
}
