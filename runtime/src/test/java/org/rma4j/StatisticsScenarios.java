package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.rma4j.WindowStatistics.Operation;
import org.rma4j.WindowStatistics.Wait;

/**
 * Programs run at both ranks of a two-rank job by {@link StatisticsContractTest}: known operations on a
 * window, then exact counts in {@link Window#statistics()}.
 */
final class StatisticsScenarios {
    private StatisticsScenarios() {
    }

    /**
     * Rank r makes, to the other rank: 3 puts of 8 bytes and 1 of 16, 2 gets of 4 bytes, 1 accumulate of 2
     * longs, 2 fetchAndOps and 1 compareAndSwap, 1 putNotify of 8 bytes; and to itself 1 put of 24 bytes
     * and 1 to PROC_NULL (not counted). Then each counter is exact, per target.
     */
    static void countsOperationsAndBytesPerTarget(final RmaJob job) {
        final int me = job.rank();
        final int other = 1 - me;
        try (Window window = job.allocate(256, 1)) {
            final WindowStatistics before = window.statistics();
            assertEquals(0, before.operations(Operation.PUT));
            window.fence(0);
            for (int i = 0; i < 3; i++) {
                window.put(new long[] {i}, 0, 1, other, 8L * i);
            }
            window.put(MemorySegment.ofArray(new long[2]), other, 32);
            window.put(new byte[24], 0, 24, me, 64);
            window.put(new byte[8], 0, 8, Rma.PROC_NULL, 0);
            window.get(new int[1], 0, 1, other, 0);
            window.get(new int[1], 0, 1, other, 4);
            window.accumulate(MemorySegment.ofArray(new long[] {1, 2}), 2, Datatype.LONG, other, 96, 2, Datatype.LONG,
                Op.SUM);
            window.fetchAndOp(1L, other, 112, Op.SUM);
            window.fetchAndOp(1L, other, 112, Op.SUM);
            window.compareAndSwap(0L, 5L, other, 120);
            window.fence(0);
            try (NotifyRequest request = window.notifyInit(other, 7, 1)) {
                request.start();
                window.putNotify(MemorySegment.ofArray(new long[1]), other, 128, 7);
                request.await();
            }
            window.fence(0);

            final WindowStatistics stats = window.statistics();
            assertEquals(me, stats.rank());
            assertEquals(2, stats.ranks());
            assertEquals(4, stats.operations(Operation.PUT, other), stats::toString);
            assertEquals(3 * 8 + 16, stats.bytes(Operation.PUT, other), stats::toString);
            assertEquals(1, stats.operations(Operation.PUT, me), stats::toString);
            assertEquals(24, stats.bytes(Operation.PUT, me), stats::toString);
            assertEquals(5, stats.operations(Operation.PUT));
            assertEquals(2, stats.operations(Operation.GET, other));
            assertEquals(8, stats.bytes(Operation.GET, other));
            assertEquals(0, stats.operations(Operation.GET, me));
            assertEquals(1, stats.operations(Operation.ACCUMULATE, other));
            assertEquals(16, stats.bytes(Operation.ACCUMULATE, other));
            assertEquals(3, stats.operations(Operation.ATOMIC, other));
            assertEquals(24, stats.bytes(Operation.ATOMIC, other));
            assertEquals(1, stats.operations(Operation.NOTIFIED, other));
            assertEquals(8, stats.bytes(Operation.NOTIFIED, other));
            assertEquals(3, stats.waits(Wait.FENCE), stats::toString);
            // fence is timed only while a recording enables org.rma4j.Fence (WaitEventRecordingTest)
            assertEquals(0, stats.waitNs(Wait.FENCE), stats::toString);
            assertEquals(1, stats.waits(Wait.NOTIFICATION), stats::toString);
            assertEquals(0, stats.waits(Wait.LOCK));

            window.lock(LockType.EXCLUSIVE, other);
            window.unlock(other);
            window.lockAll();
            window.unlockAll();
            final WindowStatistics locked = window.statistics();
            assertEquals(1, locked.waits(Wait.LOCK), locked::toString);
            assertEquals(1, locked.waits(Wait.LOCK_ALL), locked::toString);
            assertEquals(stats.operations(Operation.PUT, other), locked.operations(Operation.PUT, other));
            assertEquals(ErrorClass.RANK,
                assertThrows(RmaException.class, () -> locked.operations(Operation.PUT, 2)).errorClass());
            window.fence(0);
        }
    }

    /**
     * Operations from a second thread of the rank are counted too (in that thread's cells).
     */
    static void countsOperationsOfEveryThread(final RmaJob job) throws InterruptedException {
        final int other = 1 - job.rank();
        try (Window window = job.allocate(64, 1)) {
            window.lockAll();
            final Thread second = new Thread(() -> {
                for (int i = 0; i < 10; i++) {
                    window.put(new byte[2], 0, 2, other, 0);
                }
            });
            second.start();
            for (int i = 0; i < 5; i++) {
                window.put(new byte[4], 0, 4, other, 8);
            }
            second.join();
            window.unlockAll();
            final WindowStatistics stats = window.statistics();
            assertEquals(15, stats.operations(Operation.PUT, other), stats::toString);
            assertEquals(10 * 2 + 5 * 4, stats.bytes(Operation.PUT, other), stats::toString);
            job.barrier();
        }
    }

    /**
     * In a process started without {@code -Drma4j.statistics=true} (the default, or {@code =false}): the
     * operations and blocking calls work as always, and {@link Window#statistics()} refuses with OTHER, naming
     * the property, its value and the one that turns counting on.
     */
    static void refusesStatisticsWhenSwitchedOff(final RmaJob job) {
        final int other = 1 - job.rank();
        try (Window window = job.allocate(64, 1)) {
            window.lock(LockType.EXCLUSIVE, other);
            window.put(new byte[8], 0, 8, other, 0);
            assertEquals(0L, window.fetchAndOp(1L, other, 8, Op.SUM));
            window.unlock(other);
            window.lockAll();
            assertEquals(1L, window.fetchAndOp(1L, other, 8, Op.SUM));
            window.unlockAll();
            window.fence(0);
            final RmaException refused = assertThrows(RmaException.class, window::statistics);
            assertEquals(ErrorClass.OTHER, refused.errorClass());
            assertTrue(refused.getMessage().contains("-D" + WindowStatistics.ENABLED_PROP_NAME + "=false"),
                refused::getMessage);
            assertTrue(refused.getMessage().contains("-D" + WindowStatistics.ENABLED_PROP_NAME + "=true"),
                refused::getMessage);
            job.barrier();
        }
    }
}
