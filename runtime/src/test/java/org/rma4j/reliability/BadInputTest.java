package org.rma4j.reliability;

import org.rma4j.WaitOptions;
import java.time.Duration;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;
import org.rma4j.Datatype;
import org.rma4j.ErrorClass;
import org.rma4j.Group;
import org.rma4j.Info;
import org.rma4j.LockType;
import org.rma4j.NotifyRequest;
import org.rma4j.Op;
import org.rma4j.Rma;
import org.rma4j.RmaException;
import org.rma4j.RmaJob;
import org.rma4j.RmaRequest;
import org.rma4j.Window;
import org.rma4j.test.ShmTestDirectory;

/**
 * The table of bad arguments and wrong call orders of the public API (Window, RmaJob, NotifyRequest,
 * RmaRequest, Datatype, Group, Info, Rma): each row must raise {@link RmaException} with its error class and
 * a message that contains the offending value; afterwards the windows' contents are unchanged, nothing was
 * notified, and the job still works (a put/get round trip, and window creation after failed creations).
 *
 * <p>One thread-mode job of two ranks runs every row: rank 0 makes the local calls; both ranks make the
 * collective ones (only rank 0 with a bad argument: rank 1 must fail too, naming rank 0). Rows that need
 * an open fence epoch get one from a fence at both ranks. Other tests check many of these rows one by one;
 * this table is the one place that lists them all.
 */
@Tag("reliability")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BadInputTest {
    private static final long MAX = RmaJob.MAX_WINDOW_BYTES;
    /** Longs of each rank's part of the main window that carry the pattern; one more is scratch. */
    private static final int PATTERN = 8;
    private static final long SCRATCH = PATTERN;

    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory("rma4j-reliability-");

    @Test
    void shouldRejectEveryBadArgumentWithItsErrorClassAndLeaveTheJobWorking() {
        final List<Row> table = table();
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        Rma.callThreads(2, base.path(), WaitOptions.defaults().withTimeout(Duration.ofSeconds(30)), job -> {
            new Runner(job, base, failures).run(table);
            return null;
        });
        final Map<String, Integer> perApi = new TreeMap<>();
        table.forEach(row -> perApi.merge(row.api, 1, Integer::sum));
        System.out.println("bad input: " + table.size() + " rows " + perApi + ", " + failures.size() + " failed");
        assertEquals(List.of(), failures, () -> failures.size() + " rows failed:\n" + String.join("\n", failures));
    }

    @Test
    void shouldRejectTypedTransfersWhoseByteLengthOverflows() {
        Rma.callThreads(1, base.path(), WaitOptions.defaults(), job -> {
            try (Window window = job.allocate(64, 8)) {
                window.lockAll();
                final MemorySegment buffer = MemorySegment.ofArray(new long[8]);
                for (final long count : new long[] {1L << 60, Long.MAX_VALUE}) {
                    assertRejected(count, () -> window.put(buffer, count, Datatype.LONG, 0, 0, count, Datatype.LONG));
                    assertRejected(count, () -> window.get(buffer, count, Datatype.LONG, 0, 0, count, Datatype.LONG));
                }
                window.unlockAll();
            }
            return null;
        });
    }

    @Test
    void shouldRejectAnAccumulateWhoseByteLengthOverflowsWithoutTouchingAnyWindow() {
        Rma.callThreads(2, base.path(), WaitOptions.defaults(), job -> {
            try (Window window = job.allocateShared(64, 8)) {
                job.barrier();
                if (job.rank() == 0) {
                    final long[] ones = new long[1024];
                    Arrays.fill(ones, 1);
                    final long count = 1L << 60;
                    window.lockAll();
                    assertRejected(count, () -> window.accumulate(MemorySegment.ofArray(ones), count, Datatype.LONG, 0,
                        0, count, Datatype.LONG, Op.SUM));
                    window.unlockAll();
                    for (int rank = 0; rank < 2; rank++) {
                        assertEquals(List.of(0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L), Arrays
                            .stream(window.sharedQuery(rank).segment().toArray(ValueLayout.JAVA_LONG)).boxed().toList(),
                            "memory of rank " + rank + " after a rejected accumulate");
                    }
                }
                job.barrier();
            }
            return null;
        });
    }

    @Test
    void shouldDescribeAHugeContiguousTypeWithoutAnArrayPerElement() {
        final Datatype huge;
        try {
            huge = Datatype.contiguous(Integer.MAX_VALUE, Datatype.BYTE);
        } catch (final OutOfMemoryError e) {
            // NOTE: not rethrown: JUnit treats an OutOfMemoryError as fatal to the whole test JVM.
            fail("contiguous(" + Integer.MAX_VALUE + ", BYTE) ran out of memory: " + e.getMessage());
            return;
        }
        assertEquals(Integer.MAX_VALUE, huge.size());
        assertTrue(huge.isContiguous());
    }

    @Test
    void shouldRejectANegativeGroupRange() {
        final RmaException e = assertThrows(RmaException.class, () -> Group.range(-1));
        assertTrue(e.getMessage().contains("-1"), e::getMessage);
    }

    private static void assertRejected(final long count, final Executable call) {
        final RmaException e = assertThrows(RmaException.class, call);
        assertEquals(ErrorClass.COUNT, e.errorClass(), e::getMessage);
        assertTrue(e.getMessage().contains(Long.toString(count)), e::getMessage);
    }

    // ------------------------------------------------------------------------------------------------ the table

    private static List<Row> table() {
        final List<Row> rows = new ArrayList<>();
        rmaJob(rows);
        communication(rows);
        atomics(rows);
        synchronization(rows);
        flavors(rows);
        freed(rows);
        notified(rows);
        requests(rows);
        datatypes(rows);
        groups(rows);
        infos(rows);
        return rows;
    }

    private static void rmaJob(final List<Row> rows) {
        final String api = "RmaJob";
        rows.add(Row.collective(api, "allocateShared negative size", ErrorClass.SIZE, "size=-1",
            f -> f.job.allocateShared(f.bad(-1, 64), 8)));
        rows.add(Row.collective(api, "allocate size over the limit", ErrorClass.SIZE, "size=" + (MAX + 1),
            f -> f.job.allocate(f.bad(MAX + 1, 64), 8)));
        rows.add(Row.collective(api, "allocate size Long.MAX_VALUE", ErrorClass.SIZE, "size=" + Long.MAX_VALUE,
            f -> f.job.allocate(f.bad(Long.MAX_VALUE, 64), 8)));
        rows.add(Row.collective(api, "allocate disp_unit 0", ErrorClass.DISP, "disp_unit=0",
            f -> f.job.allocate(64, (int)f.bad(0, 8))));
        rows.add(Row.collective(api, "allocateShared negative disp_unit", ErrorClass.DISP, "disp_unit=-8",
            f -> f.job.allocateShared(64, (int)f.bad(-8, 8))));
        rows.add(Row.collective(api, "createDynamic bad info", ErrorClass.INFO_VALUE, "no_locks=perhaps",
            f -> f.job.createDynamic(f.badInfo(Info.NO_LOCKS, "perhaps"))));
        rows.add(
            Row.collective(api, "create from a heap array", ErrorClass.BASE, "is not in a shared mapping of the job",
                f -> f.job.create(f.rank == 0 ? MemorySegment.ofArray(new long[8]) : f.mem, 8, null)));
        rows.add(Row.collective(api, "create from a private native segment", ErrorClass.BASE,
            "is not in a shared mapping of the job",
            f -> f.job.create(f.rank == 0 ? f.privateNative : f.mem, 8, null)));
        rows.add(Row.collective(api, "create disp_unit 0", ErrorClass.DISP, "disp_unit=0",
            f -> f.job.create(f.mem, (int)f.bad(0, 8), null)));
        rows.add(Row.local(api, "allocMem negative size", ErrorClass.SIZE, "size=-1", f -> f.job.allocMem(-1)));
        rows.add(Row.local(api, "allocMem over the limit", ErrorClass.SIZE, "size=" + (MAX + 1),
            f -> f.job.allocMem(MAX + 1)));
        rows.add(Row.local(api, "freeMem of a heap segment", ErrorClass.BASE, "freeMem of",
            f -> f.job.freeMem(MemorySegment.ofArray(new byte[8]))));
        rows.add(Row.local(api, "freeMem of a private native segment", ErrorClass.BASE, "not the start of memory",
            f -> f.job.freeMem(f.privateNative)));
        rows.add(Row.local(api, "freeMem inside an allocation", ErrorClass.BASE, "not the start of memory",
            f -> f.job.freeMem(f.mem.asSlice(8))));
        rows.add(Row.local(api, "freeMem twice", ErrorClass.BASE, "not the start of memory", f -> {
            final MemorySegment once = f.job.allocMem(16);
            f.job.freeMem(once);
            f.job.freeMem(once);
        }));
        rows.add(Row.local(api, "barrier of a closed job", ErrorClass.OTHER, "barrier on a closed job",
            f -> f.closedJob.barrier()));
        rows.add(Row.local(api, "allocate in a closed job", ErrorClass.OTHER, "allocate on a closed job",
            f -> f.closedJob.allocate(8, 8)));
        rows.add(Row.local(api, "allocateShared in a closed job", ErrorClass.OTHER, "allocateShared on a closed job",
            f -> f.closedJob.allocateShared(8, 8)));
        rows.add(Row.local(api, "create in a closed job", ErrorClass.OTHER, "create on a closed job",
            f -> f.closedJob.create(f.mem, 8, null)));
        rows.add(Row.local(api, "createDynamic in a closed job", ErrorClass.OTHER, "createDynamic on a closed job",
            f -> f.closedJob.createDynamic(null)));
        rows.add(Row.local(api, "allocMem in a closed job", ErrorClass.OTHER, "allocMem on a closed job",
            f -> f.closedJob.allocMem(8)));
        rows.add(Row.local(api, "freeMem in a closed job", ErrorClass.OTHER, "freeMem on a closed job",
            f -> f.closedJob.freeMem(f.mem)));
        rows.add(Row.local("Rma", "callThreads of 0 ranks", ErrorClass.ARG, "ranks=0",
            f -> Rma.callThreads(0, f.base.path(), WaitOptions.defaults(), job -> null)));
        rows.add(Row.local("Rma", "runThreads of -3 ranks", ErrorClass.ARG, "ranks=-3", f -> Rma.runThreads(-3, job -> {
        })));
    }

    private static void communication(final List<Row> rows) {
        final String api = "Window";
        final long[] one = {1};
        rows.add(Row.local(api, "put to rank 2 of 2", ErrorClass.RANK, "target rank 2", f -> f.w.put(one, 0, 1, 2, 0)));
        rows.add(Row.local(api, "put to rank -7", ErrorClass.RANK, "target rank -7", f -> f.w.put(one, 0, 1, -7, 0)));
        rows.add(
            Row.local(api, "get from rank 9", ErrorClass.RANK, "target rank 9", f -> f.w.get(new long[1], 0, 1, 9, 0)));
        rows.add(Row.local(api, "put outside an epoch", ErrorClass.RMA_SYNC, "put to rank 1 outside an access epoch",
            f -> f.w.put(one, 0, 1, 1, 0)));
        rows.add(Row.local(api, "get outside an epoch", ErrorClass.RMA_SYNC, "get to rank 1 outside an access epoch",
            f -> f.w.get(new long[1], 0, 1, 1, 0)));
        rows.add(Row.locked(api, "put at a negative displacement", ErrorClass.DISP, "target_disp=-1",
            f -> f.w.put(one, 0, 1, 1, -1)));
        rows.add(Row.locked(api, "put at the end of the window", ErrorClass.RMA_RANGE, "target_disp=9",
            f -> f.w.put(one, 0, 1, 1, 9)));
        rows.add(Row.locked(api, "put at displacement Long.MAX_VALUE", ErrorClass.RMA_RANGE,
            "target_disp=" + Long.MAX_VALUE, f -> f.w.put(one, 0, 1, 1, Long.MAX_VALUE)));
        // NOTE: (2^61 + 1) x disp_unit 8 wraps to byte 8, inside the window: the check must see the overflow.
        rows.add(Row.locked(api, "put at a displacement whose byte offset overflows", ErrorClass.RMA_RANGE,
            "target_disp=" + ((1L << 61) + 1), f -> f.w.put(one, 0, 1, 1, (1L << 61) + 1)));
        rows.add(Row.locked(api, "put longer than the window", ErrorClass.RMA_RANGE, "length=80",
            f -> f.w.put(new long[10], 0, 10, 1, 0)));
        rows.add(Row.locked(api, "get across the end of the window", ErrorClass.RMA_RANGE, "length=16",
            f -> f.w.get(new long[2], 0, 2, 1, 8)));
        rows.add(Row.locked(api, "put from a negative array offset", ErrorClass.COUNT, "offset=-1",
            f -> f.w.put(new long[4], -1, 1, 1, 0)));
        rows.add(Row.locked(api, "put of more longs than the array has", ErrorClass.COUNT, "length=3",
            f -> f.w.put(new long[4], 2, 3, 1, 0)));
        rows.add(Row.locked(api, "put of a negative int count", ErrorClass.COUNT, "length=-1",
            f -> f.w.put(new int[4], 0, -1, 1, 0)));
        rows.add(Row.locked(api, "get into a too short double array", ErrorClass.COUNT, "length=5",
            f -> f.w.get(new double[4], 0, 5, 1, 0)));
        rows.add(Row.locked(api, "typed put negative origin count", ErrorClass.COUNT, "origin_count=-1",
            f -> f.w.put(f.origin, -1, Datatype.LONG, 1, 0, 1, Datatype.LONG)));
        rows.add(Row.locked(api, "typed get negative target count", ErrorClass.COUNT, "target_count=-2",
            f -> f.w.get(f.origin, 1, Datatype.LONG, 1, 0, -2, Datatype.LONG)));
        rows.add(Row.locked(api, "typed put null origin type", ErrorClass.TYPE, "datatype is null",
            f -> f.w.put(f.origin, 1, null, 1, 0, 1, Datatype.LONG)));
        rows.add(Row.locked(api, "typed put of LONG into INT", ErrorClass.TYPE, "type signatures differ",
            f -> f.w.put(f.origin, 2, Datatype.LONG, 1, 0, 2, Datatype.INT)));
        rows.add(Row.locked(api, "typed put of 3 into 2 elements", ErrorClass.TYPE, "= 3 LONG",
            f -> f.w.put(f.origin, 3, Datatype.LONG, 1, 0, 2, Datatype.LONG)));
        rows.add(Row.locked(api, "typed put of a vector into fewer elements", ErrorClass.TYPE, "type signatures differ",
            f -> f.w.put(f.origin, 1, Datatype.vector(2, 1, 2, Datatype.LONG), 1, 0, 1, Datatype.LONG)));
        rows.add(Row.locked(api, "typed put from a too small buffer", ErrorClass.COUNT, "buffer of 8 bytes",
            f -> f.w.put(MemorySegment.ofArray(new long[1]), 2, Datatype.LONG, 1, 0, 2, Datatype.LONG)));
        rows.add(Row.locked(api, "typed get into a too small buffer", ErrorClass.COUNT, "buffer of 8 bytes",
            f -> f.w.get(MemorySegment.ofArray(new long[1]), 2, Datatype.LONG, 1, 0, 2, Datatype.LONG)));
        rows.add(Row.locked(api, "typed put past the end", ErrorClass.RMA_RANGE, "exceeds window size 72",
            f -> f.w.put(MemorySegment.ofArray(new long[10]), 5, Datatype.contiguous(2, Datatype.LONG), 1, 0, 10,
                Datatype.LONG)));
        rows.add(Row.locked(api, "typed strided put past the end", ErrorClass.RMA_RANGE, "exceeds window size 72",
            f -> f.w.put(f.origin, 4, Datatype.LONG, 1, 0, 2, Datatype.vector(2, 1, 4, Datatype.LONG))));
        rows.add(Row.fenced(api, "rput in a fence epoch", ErrorClass.RMA_SYNC, "rput(1) outside a passive-target epoch",
            f -> f.w.rput(f.origin, 1, Datatype.LONG, 1, SCRATCH, 1, Datatype.LONG)));
        rows.add(Row.fenced(api, "rget in a fence epoch", ErrorClass.RMA_SYNC, "rget(1) outside a passive-target epoch",
            f -> f.w.rget(f.origin, 1, Datatype.LONG, 1, 0, 1, Datatype.LONG)));
        rows.add(Row.fenced(api, "raccumulate in a fence epoch", ErrorClass.RMA_SYNC, "raccumulate(1) outside",
            f -> f.w.raccumulate(f.origin, 1, Datatype.LONG, 1, 0, 1, Datatype.LONG, Op.SUM)));
        rows.add(Row.fenced(api, "rgetAccumulate in a fence epoch", ErrorClass.RMA_SYNC, "rgetAccumulate(1) outside",
            f -> f.w.rgetAccumulate(f.origin, 1, Datatype.LONG, f.result, 1, Datatype.LONG, 1, 0, 1, Datatype.LONG,
                Op.SUM)));
        rows.add(Row.locked(api, "rput to rank 4", ErrorClass.RANK, "target rank 4",
            f -> f.w.rput(f.origin, 1, Datatype.LONG, 4, 0, 1, Datatype.LONG)));
    }

    private static void atomics(final List<Row> rows) {
        final String api = "Window";
        rows.add(Row.local(api, "accumulate outside an epoch", ErrorClass.RMA_SYNC, "accumulate to rank 1 outside",
            f -> f.w.accumulate(f.origin, 1, Datatype.LONG, 1, 0, 1, Datatype.LONG, Op.SUM)));
        rows.add(Row.local(api, "fetchAndOp outside an epoch", ErrorClass.RMA_SYNC, "fetchAndOp to rank 1 outside",
            f -> f.w.fetchAndOp(1L, 1, 0, Op.SUM)));
        rows.add(Row.local(api, "compareAndSwap outside an epoch", ErrorClass.RMA_SYNC, "compareAndSwap to rank 1",
            f -> f.w.compareAndSwap(0L, 1L, 1, 0)));
        rows.add(Row.locked(api, "accumulate BAND on DOUBLE", ErrorClass.OP, "MPI_BAND is not defined for type DOUBLE",
            f -> f.w.accumulate(f.origin, 1, Datatype.DOUBLE, 1, 0, 1, Datatype.DOUBLE, Op.BAND)));
        rows.add(Row.locked(api, "accumulate LXOR on FLOAT", ErrorClass.OP, "MPI_LXOR is not defined for type FLOAT",
            f -> f.w.accumulate(f.origin, 1, Datatype.FLOAT, 1, 0, 1, Datatype.FLOAT, Op.LXOR)));
        rows.add(Row.locked(api, "accumulate null op", ErrorClass.OP, "op is null",
            f -> f.w.accumulate(f.origin, 1, Datatype.LONG, 1, 0, 1, Datatype.LONG, null)));
        rows.add(Row.locked(api, "accumulate NO_OP", ErrorClass.OP, "MPI_NO_OP",
            f -> f.w.accumulate(f.origin, 1, Datatype.LONG, 1, 0, 1, Datatype.LONG, Op.NO_OP)));
        rows.add(Row.locked(api, "accumulate INT into LONG", ErrorClass.TYPE, "type signatures differ",
            f -> f.w.accumulate(f.origin, 2, Datatype.INT, 1, 0, 2, Datatype.LONG, Op.SUM)));
        rows.add(Row.locked(api, "accumulate negative count", ErrorClass.COUNT, "origin_count=-4",
            f -> f.w.accumulate(f.origin, -4, Datatype.LONG, 1, 0, -4, Datatype.LONG, Op.SUM)));
        rows.add(Row.locked(api, "accumulate past the end", ErrorClass.RMA_RANGE, "target_disp=8",
            f -> f.w.accumulate(f.origin, 2, Datatype.LONG, 1, 8, 2, Datatype.LONG, Op.SUM)));
        rows.add(Row.locked(api, "getAccumulate result INT for target LONG", ErrorClass.TYPE, "type signatures differ",
            f -> f.w.getAccumulate(f.origin, 1, Datatype.LONG, f.result, 2, Datatype.INT, 1, 0, 1, Datatype.LONG,
                Op.SUM)));
        rows.add(Row.locked(api, "getAccumulate too small result buffer", ErrorClass.COUNT, "result buffer of 8 bytes",
            f -> f.w.getAccumulate(f.origin, 2, Datatype.LONG, MemorySegment.ofArray(new long[1]), 2, Datatype.LONG, 1,
                0, 2, Datatype.LONG, Op.SUM)));
        rows.add(Row.locked(api, "getAccumulate BOR on DOUBLE", ErrorClass.OP, "MPI_BOR is not defined for type DOUBLE",
            f -> f.w.getAccumulate(f.origin, 1, Datatype.DOUBLE, f.result, 1, Datatype.DOUBLE, 1, 0, 1, Datatype.DOUBLE,
                Op.BOR)));
        rows.add(Row.locked(api, "fetchAndOp of a derived type", ErrorClass.TYPE, "must be a predefined basic type",
            f -> f.w.fetchAndOp(f.origin, f.result, Datatype.contiguous(2, Datatype.LONG), 1, 0, Op.SUM)));
        rows.add(Row.locked(api, "fetchAndOp BXOR on a double", ErrorClass.OP,
            "MPI_BXOR is not defined for type DOUBLE", f -> f.w.fetchAndOp(1.0, 1, 0, Op.BXOR)));
        rows.add(
            Row.locked(api, "fetchAndOp null op", ErrorClass.OP, "op is null", f -> f.w.fetchAndOp(1L, 1, 0, null)));
        rows.add(Row.locked(api, "fetchAndOp too small result buffer", ErrorClass.COUNT, "result buffer of 4 bytes",
            f -> f.w.fetchAndOp(f.origin, MemorySegment.ofArray(new int[1]), Datatype.LONG, 1, 0, Op.SUM)));
        rows.add(Row.locked(api, "fetchAndOp past the end", ErrorClass.RMA_RANGE, "target_disp=9",
            f -> f.w.fetchAndOp(1L, 1, 9, Op.SUM)));
        rows.add(Row.locked(api, "compareAndSwap of DOUBLE", ErrorClass.TYPE, "is not an integer type",
            f -> f.w.compareAndSwap(f.origin, f.origin, f.result, Datatype.DOUBLE, 1, 0)));
        rows.add(Row.locked(api, "compareAndSwap of a derived type", ErrorClass.TYPE, "must be a predefined basic type",
            f -> f.w.compareAndSwap(f.origin, f.origin, f.result, Datatype.contiguous(1, Datatype.INT), 1, 0)));
        rows.add(Row.locked(api, "compareAndSwap at rank 5", ErrorClass.RANK, "target rank 5",
            f -> f.w.compareAndSwap(0L, 1L, 5, 0)));
        rows.add(Row.locked(api, "compareAndSwap past the end", ErrorClass.RMA_RANGE, "target_disp=9",
            f -> f.w.compareAndSwap(0L, 1L, 1, 9)));
        // Misaligned targets: window w1 has displacement unit 1.
        rows.add(Row.locked1(api, "accumulate LONG at byte 4", ErrorClass.DISP, "is not aligned to its size 8",
            f -> f.w1.accumulate(f.origin, 1, Datatype.LONG, 1, 4, 1, Datatype.LONG, Op.SUM)));
        rows.add(Row.locked1(api, "accumulate INT at byte 2", ErrorClass.DISP, "is not aligned to its size 4",
            f -> f.w1.accumulate(f.origin, 1, Datatype.INT, 1, 2, 1, Datatype.INT, Op.SUM)));
        rows.add(Row.locked1(api, "accumulate SHORT at byte 1", ErrorClass.DISP, "is not aligned to its size 2",
            f -> f.w1.accumulate(f.origin, 1, Datatype.SHORT, 1, 1, 1, Datatype.SHORT, Op.SUM)));
        rows.add(Row.locked1(api, "getAccumulate DOUBLE at byte 4", ErrorClass.DISP, "is not aligned to its size 8",
            f -> f.w1.getAccumulate(f.origin, 1, Datatype.DOUBLE, f.result, 1, Datatype.DOUBLE, 1, 4, 1,
                Datatype.DOUBLE, Op.SUM)));
        rows.add(Row.locked1(api, "getAccumulate NO_OP LONG at byte 3", ErrorClass.DISP, "is not aligned to its size 8",
            f -> f.w1.getAccumulate(null, 0, Datatype.LONG, f.result, 1, Datatype.LONG, 1, 3, 1, Datatype.LONG,
                Op.NO_OP)));
        rows.add(Row.locked1(api, "fetchAndOp long at byte 3", ErrorClass.DISP, "is not aligned to its size 8",
            f -> f.w1.fetchAndOp(1L, 1, 3, Op.SUM)));
        rows.add(Row.locked1(api, "fetchAndOp int at byte 2", ErrorClass.DISP, "is not aligned to its size 4",
            f -> f.w1.fetchAndOp(1, 1, 2, Op.SUM)));
        rows.add(Row.locked1(api, "compareAndSwap long at byte 4", ErrorClass.DISP, "is not aligned to its size 8",
            f -> f.w1.compareAndSwap(0L, 1L, 1, 4)));
        rows.add(Row.locked1(api, "compareAndSwap int at byte 1", ErrorClass.DISP, "is not aligned to its size 4",
            f -> f.w1.compareAndSwap(0, 1, 1, 1)));
    }

    private static void synchronization(final List<Row> rows) {
        final String api = "Window";
        rows.add(
            Row.local(api, "fence with an unknown assert bit", ErrorClass.ASSERT, "assert=0x40", f -> f.w.fence(0x40)));
        rows.add(Row.local(api, "fence with MODE_NOCHECK", ErrorClass.ASSERT, "assert=0x1",
            f -> f.w.fence(Rma.MODE_NOCHECK)));
        rows.add(Row.local(api, "lock with a null lock type", ErrorClass.LOCKTYPE, "lock type is null",
            f -> f.w.lock(null, 1)));
        rows.add(
            Row.local(api, "lock rank 2 of 2", ErrorClass.RANK, "target rank 2", f -> f.w.lock(LockType.EXCLUSIVE, 2)));
        rows.add(Row.local(api, "lock with MODE_NOSTORE", ErrorClass.ASSERT, "assert=0x2",
            f -> f.w.lock(LockType.EXCLUSIVE, 1, Rma.MODE_NOSTORE)));
        rows.add(Row.local(api, "lockAll with MODE_NOPUT", ErrorClass.ASSERT, "assert=0x4",
            f -> f.w.lockAll(Rma.MODE_NOPUT)));
        rows.add(Row.local(api, "post with MODE_NOSUCCEED", ErrorClass.ASSERT, "assert=0x10",
            f -> f.w.post(Group.EMPTY, Rma.MODE_NOSUCCEED)));
        rows.add(Row.local(api, "start with MODE_NOSTORE", ErrorClass.ASSERT, "assert=0x2",
            f -> f.w.start(Group.EMPTY, Rma.MODE_NOSTORE)));
        rows.add(
            Row.local(api, "post to a null group", ErrorClass.GROUP, "post group is null", f -> f.w.post(null, 0)));
        rows.add(
            Row.local(api, "start of a null group", ErrorClass.GROUP, "start group is null", f -> f.w.start(null, 0)));
        rows.add(Row.local(api, "post to rank 5", ErrorClass.RANK, "group member 5", f -> f.w.post(Group.of(5), 0)));
        rows.add(Row.local(api, "start to rank 2", ErrorClass.RANK, "group member 2", f -> f.w.start(Group.of(2), 0)));
        rows.add(Row.local(api, "lock twice", ErrorClass.RMA_SYNC, "already holds a shared lock on rank 1",
            f -> f.w.lock(LockType.SHARED, 1), f -> f.w.lock(LockType.EXCLUSIVE, 1), f -> f.w.unlock(1)));
        rows.add(Row.local(api, "unlock without lock", ErrorClass.RMA_SYNC, "unlock(1) without a lock on rank 1",
            f -> f.w.unlock(1)));
        rows.add(Row.local(api, "unlock rank 2", ErrorClass.RANK, "target rank 2", f -> f.w.unlock(2)));
        rows.add(Row.local(api, "lockAll twice", ErrorClass.RMA_SYNC, "lock_all while this rank already holds lock_all",
            f -> f.w.lockAll(), f -> f.w.lockAll(), f -> f.w.unlockAll()));
        rows.add(Row.local(api, "lockAll while holding a lock", ErrorClass.RMA_SYNC, "locks held on ranks 1",
            f -> f.w.lock(LockType.SHARED, 1), f -> f.w.lockAll(), f -> f.w.unlock(1)));
        rows.add(
            Row.local(api, "lock while holding lockAll", ErrorClass.RMA_SYNC, "lock(1) while this rank holds lock_all",
                f -> f.w.lockAll(), f -> f.w.lock(LockType.SHARED, 1), f -> f.w.unlockAll()));
        rows.add(Row.local(api, "unlockAll without lockAll", ErrorClass.RMA_SYNC, "unlock_all without lock_all",
            f -> f.w.unlockAll()));
        rows.add(Row.local(api, "unlock while holding lockAll", ErrorClass.RMA_SYNC, "use unlockAll",
            f -> f.w.lockAll(), f -> f.w.unlock(1), f -> f.w.unlockAll()));
        rows.add(Row.local(api, "flush outside a passive epoch", ErrorClass.RMA_SYNC, "flush(1) outside a passive",
            f -> f.w.flush(1)));
        rows.add(Row.local(api, "flushLocal outside a passive epoch", ErrorClass.RMA_SYNC, "flushLocal(1) outside",
            f -> f.w.flushLocal(1)));
        rows.add(Row.local(api, "flushAll outside a passive epoch", ErrorClass.RMA_SYNC, "flushAll outside",
            f -> f.w.flushAll()));
        rows.add(Row.local(api, "flushLocalAll outside a passive epoch", ErrorClass.RMA_SYNC, "flushLocalAll outside",
            f -> f.w.flushLocalAll()));
        rows.add(Row.locked(api, "flush rank 3", ErrorClass.RANK, "target rank 3", f -> f.w.flush(3)));
        rows.add(Row.local(api, "fence while holding a lock", ErrorClass.RMA_SYNC, "(locks held on ranks 1)",
            f -> f.w.lock(LockType.SHARED, 1), f -> f.w.fence(0), f -> f.w.unlock(1)));
        rows.add(Row.local(api, "fence in a post epoch", ErrorClass.RMA_SYNC, "fence while a post epoch is open",
            f -> f.w.post(Group.EMPTY, 0), f -> f.w.fence(0), f -> f.w.await()));
        rows.add(Row.local(api, "fence in a start epoch", ErrorClass.RMA_SYNC, "fence while a start epoch is open",
            f -> f.w.start(Group.EMPTY, 0), f -> f.w.fence(0), f -> f.w.complete()));
        rows.add(Row.fenced(api, "fence NOPRECEDE after a put", ErrorClass.RMA_SYNC, "MODE_NOPRECEDE after RMA calls",
            f -> f.w.put(new long[] {5}, 0, 1, 1, SCRATCH), f -> f.w.fence(Rma.MODE_NOPRECEDE), null));
        rows.add(Row.fenced(api, "lock after a put in a fence epoch", ErrorClass.RMA_SYNC,
            "lock inside a fence epoch in which RMA calls were issued", f -> f.w.put(new long[] {5}, 0, 1, 1, SCRATCH),
            f -> f.w.lock(LockType.SHARED, 1), null));
        rows.add(Row.fenced(api, "lockAll after a put in a fence epoch", ErrorClass.RMA_SYNC,
            "lockAll inside a fence epoch in which RMA calls were issued",
            f -> f.w.put(new long[] {5}, 0, 1, 1, SCRATCH), f -> f.w.lockAll(), null));
        rows.add(Row.fenced(api, "post after a put in a fence epoch", ErrorClass.RMA_SYNC,
            "post inside a fence epoch in which RMA calls were issued", f -> f.w.put(new long[] {5}, 0, 1, 1, SCRATCH),
            f -> f.w.post(Group.EMPTY, 0), null));
        rows.add(Row.fenced(api, "start after a put in a fence epoch", ErrorClass.RMA_SYNC,
            "start inside a fence epoch in which RMA calls were issued", f -> f.w.put(new long[] {5}, 0, 1, 1, SCRATCH),
            f -> f.w.start(Group.EMPTY, 0), null));
        rows.add(Row.local(api, "post twice", ErrorClass.RMA_SYNC, "post while the exposure epoch to Group[] is open",
            f -> f.w.post(Group.EMPTY, 0), f -> f.w.post(Group.EMPTY, 0), f -> f.w.await()));
        rows.add(
            Row.local(api, "wait without post", ErrorClass.RMA_SYNC, "wait without a matching post", f -> f.w.await()));
        rows.add(
            Row.local(api, "test without post", ErrorClass.RMA_SYNC, "test without a matching post", f -> f.w.test()));
        rows.add(Row.local(api, "start twice", ErrorClass.RMA_SYNC, "start while the start epoch to Group[]",
            f -> f.w.start(Group.EMPTY, 0), f -> f.w.start(Group.EMPTY, 0), f -> f.w.complete()));
        rows.add(Row.local(api, "complete without start", ErrorClass.RMA_SYNC, "complete without a matching start",
            f -> f.w.complete()));
        rows.add(Row.local(api, "put to a rank outside the start group", ErrorClass.RMA_SYNC,
            "put to rank 1 which is not in the group Group[0]", f -> f.w.start(Group.of(0), Rma.MODE_NOCHECK),
            f -> f.w.put(new long[] {1}, 0, 1, 1, 0), f -> f.w.complete()));
        rows.add(Row.local(api, "lock in a start epoch", ErrorClass.RMA_SYNC, "lock(1) while the start epoch",
            f -> f.w.start(Group.EMPTY, 0), f -> f.w.lock(LockType.SHARED, 1), f -> f.w.complete()));
        rows.add(Row.local(api, "start while holding a lock", ErrorClass.RMA_SYNC,
            "start while a passive-target epoch is open (locks held on ranks 1)", f -> f.w.lock(LockType.SHARED, 1),
            f -> f.w.start(Group.EMPTY, 0), f -> f.w.unlock(1)));
        rows.add(Row.local(api, "free while holding a lock", ErrorClass.RMA_SYNC,
            "free while a passive-target epoch is open (locks held on ranks 1)", f -> f.w.lock(LockType.SHARED, 1),
            f -> f.w.free(), f -> f.w.unlock(1)));
        rows.add(Row.local(api, "free in a post epoch", ErrorClass.RMA_SYNC, "free while a post epoch is open",
            f -> f.w.post(Group.EMPTY, 0), f -> f.w.free(), f -> f.w.await()));
        rows.add(Row.local(api, "post while the own window is locked", ErrorClass.RMA_CONFLICT,
            "post while this rank's window is locked (exclusive by rank 0)", f -> f.w.lock(LockType.EXCLUSIVE, 0),
            f -> f.w.post(Group.EMPTY, 0), f -> f.w.unlock(0)));
        rows.add(Row.local(api, "lock of a no_locks window", ErrorClass.RMA_SYNC,
            "lock on a window created with info" + " no_locks=true", f -> f.noLocks.lock(LockType.SHARED, 1)));
        rows.add(Row.local(api, "lockAll of a no_locks window", ErrorClass.RMA_SYNC,
            "lockAll on a window created with" + " info no_locks=true", f -> f.noLocks.lockAll()));
    }

    private static void flavors(final List<Row> rows) {
        final String api = "Window";
        rows.add(Row.local(api, "sharedQuery of an allocate window", ErrorClass.RMA_FLAVOR, "flavor ALLOCATE",
            f -> f.allocated.sharedQuery(0)));
        rows.add(Row.local(api, "sharedQuery of rank 2", ErrorClass.RANK, "target rank 2", f -> f.w.sharedQuery(2)));
        rows.add(Row.local(api, "sharedQuery of rank -5", ErrorClass.RANK, "target rank -5", f -> f.w.sharedQuery(-5)));
        rows.add(Row.local(api, "attach to a shared window", ErrorClass.RMA_FLAVOR, "only createDynamic windows",
            f -> f.w.attach(f.mem)));
        rows.add(Row.local(api, "detach from an allocate window", ErrorClass.RMA_FLAVOR,
            "detach on a window of flavor" + " ALLOCATE", f -> f.allocated.detach(f.mem)));
        rows.add(Row.local(api, "attach of a heap segment", ErrorClass.RMA_ATTACH, "not in a shared mapping of the job",
            f -> f.dynamic.attach(MemorySegment.ofArray(new long[4]))));
        rows.add(Row.local(api, "attach of a private native segment", ErrorClass.RMA_ATTACH,
            "not in a shared mapping of the job", f -> f.dynamic.attach(f.privateNative)));
        rows.add(Row.local(api, "attach overlapping an attached region", ErrorClass.RMA_ATTACH, "attach of",
            f -> f.dynamic.attach(f.attached.asSlice(8, 8))));
        rows.add(Row.local(api, "detach of memory never attached", ErrorClass.RMA_ATTACH, "detach of",
            f -> f.dynamic.detach(f.mem)));
        rows.add(Row.local(api, "put to an unattached address", ErrorClass.RMA_RANGE, "target_disp=0x8",
            f -> f.dynamic.lock(LockType.SHARED, 1), f -> f.dynamic.put(new long[] {1}, 0, 1, 1, 8),
            f -> f.dynamic.unlock(1)));
    }

    private static void freed(final List<Row> rows) {
        final String api = "Window";
        final List<Object[]> calls = List.<Object[]>of(
            new Object[] {"put", (Action)f -> f.freed.put(new long[1], 0, 1, 1, 0)},
            new Object[] {"get", (Action)f -> f.freed.get(new long[1], 0, 1, 1, 0)},
            new Object[] {"accumulate",
                (Action)f -> f.freed.accumulate(f.origin, 1, Datatype.LONG, 1, 0, 1, Datatype.LONG, Op.SUM)},
            new Object[] {"fetchAndOp", (Action)f -> f.freed.fetchAndOp(1L, 1, 0, Op.SUM)},
            new Object[] {"compareAndSwap", (Action)f -> f.freed.compareAndSwap(0L, 1L, 1, 0)},
            new Object[] {"fence", (Action)f -> f.freed.fence(0)},
            new Object[] {"lock", (Action)f -> f.freed.lock(LockType.SHARED, 1)},
            new Object[] {"unlock", (Action)f -> f.freed.unlock(1)},
            new Object[] {"lockAll", (Action)f -> f.freed.lockAll()},
            new Object[] {"unlockAll", (Action)f -> f.freed.unlockAll()},
            new Object[] {"flush", (Action)f -> f.freed.flush(1)},
            new Object[] {"flushAll", (Action)f -> f.freed.flushAll()},
            new Object[] {"sync", (Action)f -> f.freed.sync()},
            new Object[] {"post", (Action)f -> f.freed.post(Group.EMPTY, 0)},
            new Object[] {"start", (Action)f -> f.freed.start(Group.EMPTY, 0)},
            new Object[] {"complete", (Action)f -> f.freed.complete()},
            new Object[] {"wait", (Action)f -> f.freed.await()}, new Object[] {"test", (Action)f -> f.freed.test()},
            new Object[] {"free", (Action)f -> f.freed.free()},
            new Object[] {"segment", (Action)f -> f.freed.segment()},
            new Object[] {"sharedQuery", (Action)f -> f.freed.sharedQuery(0)},
            new Object[] {"attach", (Action)f -> f.freed.attach(f.mem)},
            new Object[] {"putNotify", (Action)f -> f.freed.putNotify(new long[1], 0, 1, 1, 0, 0)},
            new Object[] {"notifyInit", (Action)f -> f.freed.notifyInit(Rma.ANY_SOURCE, Rma.ANY_TAG, 1)},
            new Object[] {"unexpectedNotifications", (Action)f -> f.freed.unexpectedNotifications()});
        for (final Object[] call : calls) {
            rows.add(Row.local(api, call[0] + " on a freed window", ErrorClass.WIN, call[0] + " on a freed window",
                (Action)call[1]));
        }
        rows.add(Row.local(api, "put on a window of a closed job", ErrorClass.WIN, "put on a freed window",
            f -> f.closedWindow.put(new long[1], 0, 1, 0, 0)));
        rows.add(Row.local("NotifyRequest", "start of a request of a freed window", ErrorClass.WIN,
            "start on a freed window", f -> f.requestOfFreed.start()));
    }

    private static void notified(final List<Row> rows) {
        final String api = "Window";
        final long[] one = {1};
        rows.add(Row.local(api, "putNotify negative tag", ErrorClass.TAG, "tag=-1",
            f -> f.w.putNotify(one, 0, 1, 1, 0, -1)));
        rows.add(Row.local(api, "putNotify to rank 2", ErrorClass.RANK, "target rank 2",
            f -> f.w.putNotify(one, 0, 1, 2, 0, 0)));
        rows.add(Row.local(api, "putNotify to rank -9", ErrorClass.RANK, "target rank -9",
            f -> f.w.putNotify(one, 0, 1, -9, 0, 0)));
        rows.add(Row.local(api, "putNotify negative displacement", ErrorClass.DISP, "target_disp=-1",
            f -> f.w.putNotify(one, 0, 1, 1, -1, 0)));
        rows.add(Row.local(api, "putNotify past the end", ErrorClass.RMA_RANGE, "target_disp=9",
            f -> f.w.putNotify(one, 0, 1, 1, 9, 0)));
        rows.add(Row.local(api, "putNotify large past the end", ErrorClass.RMA_RANGE, "length=80",
            f -> f.w.putNotify(new long[10], 0, 10, 1, 0, 0)));
        rows.add(Row.local(api, "putNotify bad array offset", ErrorClass.COUNT, "offset=5",
            f -> f.w.putNotify(one, 5, 1, 1, 0, 0)));
        rows.add(Row.local(api, "typed putNotify signature mismatch", ErrorClass.TYPE, "type signatures differ",
            f -> f.w.putNotify(f.origin, 1, Datatype.LONG, 1, 0, 1, Datatype.DOUBLE, 0)));
        rows.add(Row.local(api, "typed putNotify negative tag", ErrorClass.TAG, "tag=-2",
            f -> f.w.putNotify(f.origin, 1, Datatype.LONG, 1, 0, 1, Datatype.LONG, -2)));
        rows.add(
            Row.local(api, "getNotify negative tag", ErrorClass.TAG, "tag=-3", f -> f.w.getNotify(f.result, 1, 0, -3)));
        rows.add(Row.local(api, "getNotify past the end", ErrorClass.RMA_RANGE, "target_disp=8",
            f -> f.w.getNotify(MemorySegment.ofArray(new long[2]), 1, 8, 0)));
        rows.add(Row.local(api, "accumulateNotify NO_OP", ErrorClass.OP, "MPI_NO_OP",
            f -> f.w.accumulateNotify(f.origin, 1, Datatype.LONG, 1, 0, Op.NO_OP, 0)));
        rows.add(Row.local(api, "accumulateNotify BAND on DOUBLE", ErrorClass.OP,
            "MPI_BAND is not defined for type" + " DOUBLE",
            f -> f.w.accumulateNotify(f.origin, 1, Datatype.DOUBLE, 1, 0, Op.BAND, 0)));
        rows.add(Row.local(api, "accumulateNotify negative count", ErrorClass.COUNT, "origin_count=-1",
            f -> f.w.accumulateNotify(f.origin, -1, Datatype.LONG, 1, 0, Op.SUM, 0)));
        rows.add(Row.local(api, "accumulateNotify misaligned", ErrorClass.DISP, "is not aligned to its size 8",
            f -> f.w1.accumulateNotify(f.origin, 1, Datatype.LONG, 1, 4, Op.SUM, 0)));
        rows.add(Row.local(api, "fetchAndOpNotify null op", ErrorClass.OP, "op is null",
            f -> f.w.fetchAndOpNotify(1, 1, 0, null, 0)));
        rows.add(Row.local(api, "fetchAndOpNotify negative tag", ErrorClass.TAG, "tag=-5",
            f -> f.w.fetchAndOpNotify(1, 1, 0, Op.SUM, -5)));
        rows.add(Row.local(api, "fetchAndOpNotify misaligned", ErrorClass.DISP, "is not aligned to its size 8",
            f -> f.w1.fetchAndOpNotify(1, 1, 4, Op.SUM, 0)));
        rows.add(Row.local(api, "notifyInit source rank 2", ErrorClass.RANK, "rank 2 is outside 0..1",
            f -> f.w.notifyInit(2, 0, 1)));
        rows.add(Row.local(api, "notifyInit source rank -5", ErrorClass.RANK, "rank -5 is outside 0..1",
            f -> f.w.notifyInit(-5, 0, 1)));
        rows.add(Row.local(api, "notifyInit negative tag", ErrorClass.TAG, "tag=-7",
            f -> f.w.notifyInit(Rma.ANY_SOURCE, -7, 1)));
        rows.add(Row.local(api, "notifyInit negative count", ErrorClass.COUNT, "expected_count=-1",
            f -> f.w.notifyInit(Rma.ANY_SOURCE, Rma.ANY_TAG, -1)));
    }

    private static void requests(final List<Row> rows) {
        final String api = "NotifyRequest";
        rows.add(Row.local(api, "test before start", ErrorClass.REQUEST, "test of an inactive notification request",
            f -> f.request.test()));
        rows.add(Row.local(api, "await before start", ErrorClass.REQUEST, "await of an inactive notification request",
            f -> f.request.await()));
        rows.add(Row.local(api, "start twice", ErrorClass.REQUEST, "start of an active notification request",
            f -> f.request.start(), f -> f.request.start(), f -> f.renewRequest()));
        rows.add(Row.local(api, "start after close", ErrorClass.REQUEST, "start of a freed notification request",
            f -> f.closedRequest.start()));
        rows.add(Row.local(api, "test after close", ErrorClass.REQUEST, "test of a freed notification request",
            f -> f.closedRequest.test()));
        rows.add(Row.local(api, "await after close", ErrorClass.REQUEST, "await of a freed notification request",
            f -> f.closedRequest.await()));
        rows.add(Row.local("RmaRequest", "await of a released request", ErrorClass.REQUEST,
            "await on a released rput request", f -> f.released.await()));
        rows.add(Row.local("RmaRequest", "test of a released request", ErrorClass.REQUEST,
            "test on a released rput request", f -> f.released.test()));
    }

    private static void datatypes(final List<Row> rows) {
        final String api = "Datatype";
        rows.add(Row.local(api, "contiguous negative count", ErrorClass.COUNT, "contiguous count=-1",
            f -> Datatype.contiguous(-1, Datatype.INT)));
        rows.add(Row.local(api, "contiguous of null", ErrorClass.TYPE, "contiguous old type is null",
            f -> Datatype.contiguous(2, null)));
        rows.add(Row.local(api, "vector negative count", ErrorClass.COUNT, "vector count=-2",
            f -> Datatype.vector(-2, 1, 1, Datatype.INT)));
        rows.add(Row.local(api, "vector negative blocklength", ErrorClass.COUNT, "vector blocklength=-1",
            f -> Datatype.vector(2, -1, 1, Datatype.INT)));
        rows.add(Row.local(api, "vector negative stride", ErrorClass.TYPE, "displacement -3 is negative",
            f -> Datatype.vector(2, 1, -3, Datatype.INT)));
        rows.add(Row.local(api, "vector of null", ErrorClass.TYPE, "vector old type is null",
            f -> Datatype.vector(2, 1, 1, null)));
        rows.add(Row.local(api, "indexedBlock negative blocklength", ErrorClass.COUNT, "indexedBlock blocklength=-1",
            f -> Datatype.indexedBlock(-1, new int[] {0}, Datatype.INT)));
        rows.add(Row.local(api, "indexedBlock negative displacement", ErrorClass.TYPE, "displacement -2 is negative",
            f -> Datatype.indexedBlock(1, new int[] {0, -2}, Datatype.INT)));
        rows.add(Row.local(api, "indexed lengths and displacements differ", ErrorClass.COUNT,
            "2 blocklengths but 1 displacements",
            f -> Datatype.indexed(new int[] {1, 2}, new int[] {0}, Datatype.INT)));
        rows.add(Row.local(api, "indexed negative blocklength", ErrorClass.COUNT, "indexed blocklengths[1]=-1",
            f -> Datatype.indexed(new int[] {1, -1}, new int[] {0, 4}, Datatype.INT)));
        rows.add(Row.local(api, "indexed negative displacement", ErrorClass.TYPE, "displacement -4 is negative",
            f -> Datatype.indexed(new int[] {1}, new int[] {-4}, Datatype.INT)));
    }

    private static void groups(final List<Row> rows) {
        final String api = "Group";
        rows.add(
            Row.local(api, "of a negative rank", ErrorClass.RANK, "group member -1 is negative", f -> Group.of(-1)));
        rows.add(Row.local(api, "of a repeated rank", ErrorClass.GROUP, "group member 1 appears twice in [1, 3, 1]",
            f -> Group.of(1, 3, 1)));
        rows.add(Row.local(api, "member past the end", ErrorClass.RANK, "group rank 5 is outside 0..1",
            f -> Group.range(2).member(5)));
        rows.add(
            Row.local(api, "member -1", ErrorClass.RANK, "group rank -1 is outside", f -> Group.range(2).member(-1)));
        rows.add(Row.local(api, "incl of a missing position", ErrorClass.RANK, "group rank 2 is outside 0..1",
            f -> Group.range(2).incl(2)));
        rows.add(Row.local(api, "excl of a negative position", ErrorClass.RANK, "group rank -1 is outside",
            f -> Group.range(2).excl(-1)));
        rows.add(Row.local(api, "translateRanks of a missing position", ErrorClass.RANK, "group rank 3 is outside",
            f -> Group.range(2).translateRanks(new int[] {3}, Group.range(4))));
    }

    private static void infos(final List<Row> rows) {
        final String api = "Info";
        final String longKey = "k".repeat(256);
        rows.add(Row.local(api, "set a null key", ErrorClass.INFO_KEY, "info key 'null'",
            f -> Info.create().set(null, "v")));
        rows.add(
            Row.local(api, "set an empty key", ErrorClass.INFO_KEY, "info key ''", f -> Info.create().set("", "v")));
        rows.add(Row.local(api, "set a key of 256 characters", ErrorClass.INFO_KEY, "info key '" + longKey + "'",
            f -> Info.create().set(longKey, "v")));
        rows.add(Row.local(api, "set a null value", ErrorClass.INFO_VALUE, "info value of key 'k' is null",
            f -> Info.of("k", null)));
        for (final String[] bad : new String[][] {{Info.NO_LOCKS, "maybe"}, {Info.SAME_SIZE, "yes"},
            {Info.ALLOC_SHARED_NONCONTIG, "2"}, {Info.ACCUMULATE_OPS, "sum_only"}, {Info.ACCUMULATE_ORDERING, "fifo"},
            {Info.ACCUMULATE_ORDERING, "rar,xyz"}, {RmaJob.NOTIFY_CAPACITY_INFO_KEY, "3"},
            {RmaJob.NOTIFY_CAPACITY_INFO_KEY, "0"}, {RmaJob.NOTIFY_CAPACITY_INFO_KEY, "-4"},
            {RmaJob.NOTIFY_CAPACITY_INFO_KEY, "32768"}, {RmaJob.NOTIFY_CAPACITY_INFO_KEY, "many"}}) {
            rows.add(Row.collective(api, "window with " + bad[0] + "=" + bad[1], ErrorClass.INFO_VALUE,
                bad[0] + "=" + bad[1], f -> f.job.allocate(64, 8, f.badInfo(bad[0], bad[1]))));
        }
    }

    // ------------------------------------------------------------------------------------------------ the runner

    /** A step of a row, made by one rank with its fixture. */
    @FunctionalInterface
    interface Action {
        void run(Fixture f) throws Exception;
    }

    /** Who makes a row's calls. */
    enum Kind {
        /** Rank 0 only. */
        LOCAL,
        /** Both ranks (a collective call). */
        COLLECTIVE,
        /** Rank 0 only, inside a fence epoch that both ranks open before and close after. */
        FENCED
    }

    /**
     * One bad call: {@code setup} (may be null) brings the window into the state the row needs, {@code call}
     * must throw, {@code teardown} (may be null) restores the state.
     */
    record Row(String api, String name, ErrorClass expected, String fragment, Kind kind, Action setup, Action call,
        Action teardown) {
        static Row local(final String api, final String name, final ErrorClass expected, final String fragment,
            final Action call) {
            return new Row(api, name, expected, fragment, Kind.LOCAL, null, call, null);
        }

        static Row local(final String api, final String name, final ErrorClass expected, final String fragment,
            final Action setup, final Action call, final Action teardown) {
            return new Row(api, name, expected, fragment, Kind.LOCAL, setup, call, teardown);
        }

        /** A call on the main window inside an exclusive lock of rank 1. */
        static Row locked(final String api, final String name, final ErrorClass expected, final String fragment,
            final Action call) {
            return local(api, name, expected, fragment, f -> f.w.lock(LockType.EXCLUSIVE, 1), call, f -> f.w.unlock(1));
        }

        /** A call on the window of displacement unit 1 inside an exclusive lock of rank 1. */
        static Row locked1(final String api, final String name, final ErrorClass expected, final String fragment,
            final Action call) {
            return local(api, name, expected, fragment, f -> f.w1.lock(LockType.EXCLUSIVE, 1), call,
                f -> f.w1.unlock(1));
        }

        static Row collective(final String api, final String name, final ErrorClass expected, final String fragment,
            final Action call) {
            return new Row(api, name, expected, fragment, Kind.COLLECTIVE, null, call, null);
        }

        static Row fenced(final String api, final String name, final ErrorClass expected, final String fragment,
            final Action call) {
            return new Row(api, name, expected, fragment, Kind.FENCED, null, call, null);
        }

        static Row fenced(final String api, final String name, final ErrorClass expected, final String fragment,
            final Action setup, final Action call, final Action teardown) {
            return new Row(api, name, expected, fragment, Kind.FENCED, setup, call, teardown);
        }

        @Override
        public String toString() {
            return api + " / " + name;
        }
    }

    /** The windows and objects the rows use, at one rank. */
    static final class Fixture {
        final RmaJob job;
        final int rank;
        final ShmTestDirectory base;
        /** Shared, 9 longs per rank (8 of pattern, 1 scratch), displacement unit 8. */
        Window w;
        /** Shared, 64 bytes per rank, displacement unit 1. */
        Window w1;
        Window allocated;
        Window dynamic;
        Window noLocks;
        Window freed;
        Window closedWindow;
        RmaJob closedJob;
        NotifyRequest request;
        NotifyRequest closedRequest;
        NotifyRequest requestOfFreed;
        RmaRequest released;
        MemorySegment mem;
        MemorySegment attached;
        MemorySegment privateNative;
        final MemorySegment origin = MemorySegment.ofArray(new long[4]);
        final MemorySegment result = MemorySegment.ofArray(new long[4]);
        private final Arena arena = Arena.ofShared();

        Fixture(final RmaJob job, final ShmTestDirectory base) {
            this.job = job;
            this.rank = job.rank();
            this.base = base;
        }

        /** A value that is bad at rank 0 and good at the others. */
        long bad(final long bad, final long good) {
            return rank == 0 ? bad : good;
        }

        /** An info that is bad at rank 0 and empty at the others. */
        Info badInfo(final String key, final String value) {
            return rank == 0 ? Info.of(key, value) : Info.create();
        }

        void renewRequest() {
            request.close();
            request = w.notifyInit(Rma.ANY_SOURCE, Rma.ANY_TAG, 1);
        }

        void setUp() throws Exception {
            w = job.allocateShared((PATTERN + 1) * 8L, 8);
            w1 = job.allocateShared(64, 1);
            allocated = job.allocate(64, 8);
            dynamic = job.createDynamic(null);
            noLocks = job.allocate(64, 8, Info.of(Info.NO_LOCKS, "true"));
            freed = job.allocate(64, 8);
            requestOfFreed = freed.notifyInit(Rma.ANY_SOURCE, Rma.ANY_TAG, 1);
            freed.free();
            mem = job.allocMem(64);
            attached = job.allocMem(64);
            dynamic.attach(attached);
            privateNative = arena.allocate(64, 8);
            request = w.notifyInit(Rma.ANY_SOURCE, Rma.ANY_TAG, 1);
            closedRequest = w.notifyInit(Rma.ANY_SOURCE, Rma.ANY_TAG, 1);
            closedRequest.close();
            for (int i = 0; i < PATTERN; i++) {
                w.segment().setAtIndex(ValueLayout.JAVA_LONG, i, pattern(rank, i));
                allocated.segment().setAtIndex(ValueLayout.JAVA_LONG, i, pattern(rank, i));
            }
            for (int i = 0; i < 64; i++) {
                w1.segment().set(ValueLayout.JAVA_BYTE, i, (byte)(rank * 64 + i));
            }
            if (rank == 0) {
                w.lock(LockType.SHARED, 1);
                released = w.rput(origin, 1, Datatype.LONG, 1, SCRATCH, 1, Datatype.LONG);
                w.unlock(1);
                released.await();
                final List<Object[]> closed = Rma.callThreads(1, base.path(), WaitOptions.defaults(),
                    sub -> new Object[] {sub, sub.allocate(64, 8)});
                closedJob = (RmaJob)closed.getFirst()[0];
                closedWindow = (Window)closed.getFirst()[1];
            }
            job.barrier();
        }

        void tearDown() {
            request.close();
            dynamic.detach(attached);
            for (final Window window : List.of(w, w1, allocated, dynamic, noLocks)) {
                window.free();
            }
            job.freeMem(attached);
            job.freeMem(mem);
            arena.close();
        }

        static long pattern(final int rank, final int index) {
            return 1000L * (rank + 1) + index;
        }
    }

    /** Runs the table at one rank. */
    static final class Runner {
        private final RmaJob job;
        private final int rank;
        private final Fixture f;
        private final List<String> failures;

        Runner(final RmaJob job, final ShmTestDirectory base, final List<String> failures) {
            this.job = job;
            this.rank = job.rank();
            this.f = new Fixture(job, base);
            this.failures = failures;
        }

        void run(final List<Row> table) throws Exception {
            f.setUp();
            int index = 0;
            for (final Row row : table) {
                job.barrier();
                if (row.kind == Kind.FENCED) {
                    f.w.fence(0);
                }
                if (rank == 0 || row.kind == Kind.COLLECTIVE) {
                    runRow(row);
                }
                if (row.kind == Kind.FENCED) {
                    f.w.fence(Rma.MODE_NOSUCCEED);
                }
                job.barrier();
                if (rank == 0) {
                    checkJobStillWorks(row, ++index);
                }
            }
            job.barrier();
            check(null, f.w.unexpectedNotifications() == 0,
                "notifications arrived at rank " + rank + ": " + f.w.unexpectedNotifications());
            // After every failed creation, creation still works, with an unknown info key kept and ignored.
            try (Window fresh = job.allocate(16, 8, Info.of("rma4j_reliability_unknown_key", "anything"))) {
                check(null, "anything".equals(fresh.getInfo().get("rma4j_reliability_unknown_key").orElse(null)),
                    "an unknown info key was not kept");
            }
            f.tearDown();
        }

        private void runRow(final Row row) {
            if (row.setup != null && !step(row, "setup", row.setup)) {
                return;
            }
            Throwable thrown = null;
            try {
                row.call.run(f);
            } catch (final Throwable t) {
                thrown = t;
            }
            if (row.teardown != null) {
                step(row, "teardown", row.teardown);
            }
            final String expectedText = rank == 0 ? row.fragment : "rank 0 passed an invalid argument";
            if (!(thrown instanceof RmaException e)) {
                failures.add("[rank " + rank + "] " + row + ": expected RmaException " + row.expected + " containing '"
                    + expectedText + "' but " + (thrown == null ? "nothing was thrown" : "got " + thrown));
                return;
            }
            if (e.errorClass() != row.expected || !e.getMessage().contains(expectedText)) {
                failures.add("[rank " + rank + "] " + row + ": expected " + row.expected + " containing '"
                    + expectedText + "' but got " + e.errorClass() + ": " + e.getMessage());
            }
        }

        private boolean step(final Row row, final String what, final Action action) {
            try {
                action.run(f);
                return true;
            } catch (final Throwable t) {
                failures.add("[rank " + rank + "] " + row + ": " + what + " failed: " + t);
                return false;
            }
        }

        /**
         * At rank 0, after a row: the pattern of every rank's memory of the shared and allocate windows is
         * unchanged, and a put/get round trip to rank 1 works.
         */
        private void checkJobStillWorks(final Row row, final int index) {
            try {
                for (int target = 0; target < 2; target++) {
                    final MemorySegment shared = f.w.sharedQuery(target).segment();
                    final MemorySegment bytes = f.w1.sharedQuery(target).segment();
                    final long[] allocated = new long[PATTERN];
                    f.allocated.lock(LockType.SHARED, target);
                    f.allocated.get(allocated, 0, PATTERN, target, 0);
                    f.allocated.unlock(target);
                    for (int i = 0; i < PATTERN; i++) {
                        check(row, shared.getAtIndex(ValueLayout.JAVA_LONG, i) == Fixture.pattern(target, i),
                            "shared window long " + i + " of rank " + target + " changed");
                        check(row, allocated[i] == Fixture.pattern(target, i),
                            "allocate window long " + i + " of rank " + target + " changed");
                    }
                    for (int i = 0; i < 64; i++) {
                        check(row, bytes.get(ValueLayout.JAVA_BYTE, i) == (byte)(target * 64 + i),
                            "unit-1 window byte " + i + " of rank " + target + " changed");
                    }
                }
                final long[] back = new long[1];
                f.w.lock(LockType.EXCLUSIVE, 1);
                f.w.put(new long[] {-index}, 0, 1, 1, SCRATCH);
                f.w.get(back, 0, 1, 1, SCRATCH);
                f.w.unlock(1);
                check(row, back[0] == -index, "round trip read " + back[0] + " after writing " + -index);
            } catch (final RuntimeException e) {
                failures.add("[rank 0] " + row + ": the job no longer works: " + e);
            }
        }

        private void check(final Row row, final boolean condition, final String problem) {
            if (!condition) {
                failures
                    .add("[rank " + rank + "] " + (row == null ? "after the table" : "after " + row) + ": " + problem);
            }
        }
    }
}
