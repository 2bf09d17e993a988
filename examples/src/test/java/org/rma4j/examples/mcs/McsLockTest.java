package org.rma4j.examples.mcs;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.Op;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.examples.SpinWait;

/**
 * {@link McsLock} in thread mode: mutual exclusion observed from inside the critical section, a tail
 * at a rank other than 0, and the state checks.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class McsLockTest {
    /** Element indices (displacements, unit 8) of the counters at rank 0, and of the results. */
    private static final int HOLDERS = 0;
    private static final int ENTRIES = 1;
    private static final int OVERLAPS = 2;
    /** Number of counters; also the index of the rank's queued acquisitions in the results. */
    private static final int QUEUED = 3;

    /**
     * Inside the critical section every rank counts the holders with atomic increments; the count must
     * always be one. Violations are counted rather than asserted inside, so that a failure cannot leave
     * ranks waiting for a rank that died.
     */
    @Test
    void admitsOneHolderAtATime() {
        final int ranks = 4;
        final int acquisitions = 1000;
        final List<long[]> results = Rma.callThreads(ranks, job -> countHolders(job, 0, acquisitions));
        final long[] atRankZero = results.getFirst();
        assertEquals(0, atRankZero[OVERLAPS], "times two ranks held the lock at once");
        assertEquals((long)ranks * acquisitions, atRankZero[ENTRIES]);
        assertEquals(0, atRankZero[HOLDERS], "holders after the last release");
    }

    /**
     * Rank 0 holds the lock until the tail shows that another rank has swapped itself in behind it, so
     * at least one rank queues and is handed the lock (the path of Listing 2's wait and Listing 3's
     * hand-over), whatever the scheduling.
     */
    @Test
    void rankArrivingWhileTheLockIsHeldQueuesBehindTheHolder() {
        final List<Long> queued = Rma.callThreads(4, job -> {
            final McsLock lock = McsLock.create(job);
            if (job.rank() == 0) {
                lock.acquire();
            }
            job.barrier();
            if (job.rank() == 0) {
                final SpinWait spin = new SpinWait();
                while (lock.tail() == 0) {
                    spin.idle();
                }
                lock.release();
            } else {
                lock.acquire();
                lock.release();
            }
            job.barrier();
            final long count = lock.queuedAcquisitions();
            assertEquals(McsLayout.NIL, lock.tail(), "tail after every rank released");
            lock.close();
            return count;
        });
        assertEquals(0, queued.getFirst(), "rank 0 found the lock free");
        assertTrue(queued.stream().mapToLong(Long::longValue).sum() >= 1, "queued acquisitions " + queued);
    }

    @Test
    void tailMayLiveAtAnyRank() {
        final List<long[]> results = Rma.callThreads(3, job -> countHolders(job, 2, 300));
        assertEquals(0, results.getFirst()[OVERLAPS]);
        assertEquals(900, results.getFirst()[ENTRIES]);
    }

    @Test
    void singleRankTakesTheLockWithoutWaiting() {
        Rma.runThreads(1, job -> {
            try (McsLock lock = McsLock.create(job)) {
                for (int i = 0; i < 100; i++) {
                    lock.acquire();
                    assertTrue(lock.isHeld());
                    lock.release();
                    assertFalse(lock.isHeld());
                }
            }
        });
    }

    @Test
    void misuseIsRejected() {
        Rma.runThreads(1, job -> {
            final McsLock lock = McsLock.create(job);
            assertThrows(IllegalStateException.class, lock::release);
            lock.acquire();
            assertThrows(IllegalStateException.class, lock::acquire);
            final IllegalStateException held = assertThrows(IllegalStateException.class, lock::close);
            assertTrue(held.getMessage().contains("rank 0 holds it"), held.getMessage());
            lock.release();
            lock.close();
            lock.close();
            assertThrows(IllegalStateException.class, lock::acquire);
        });
    }

    @Test
    void hostRankOutsideTheJobIsRejected() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> Rma.runThreads(2, job -> McsLock.create(job, 2)));
        assertTrue(e.getMessage().contains("host rank 2"), e.getMessage());
    }

    /**
     * Every rank enters the critical section {@code acquisitions} times; inside, it increments the
     * holder count at rank 0, checks that it was 0, counts the entry, and decrements the holder count.
     *
     * @return at rank 0 the final holders, entries and overlaps counters (0 elsewhere), and at every
     *         rank its queued acquisitions.
     */
    private static long[] countHolders(final RmaJob job, final int hostRank, final int acquisitions) {
        final McsLock lock = McsLock.create(job, hostRank);
        final Window counters = job.allocate(job.rank() == 0 ? QUEUED * Long.BYTES : 0, Long.BYTES);
        if (job.rank() == 0) {
            counters.segment().fill((byte)0);
        }
        job.barrier();
        counters.lockAll();
        for (int i = 0; i < acquisitions; i++) {
            lock.acquire();
            final long before = counters.fetchAndOp(1L, 0, HOLDERS, Op.SUM);
            counters.flush(0);
            if (before != 0) {
                counters.fetchAndOp(1L, 0, OVERLAPS, Op.SUM);
            }
            counters.fetchAndOp(1L, 0, ENTRIES, Op.SUM);
            // Widen the window in which a second holder would be seen.
            for (int spin = 0; spin < 100; spin++) {
                Thread.onSpinWait();
            }
            counters.fetchAndOp(-1L, 0, HOLDERS, Op.SUM);
            counters.flush(0);
            lock.release();
        }
        counters.unlockAll();
        job.barrier();
        final long[] values = new long[QUEUED + 1];
        if (job.rank() == 0) {
            for (int i = 0; i < QUEUED; i++) {
                values[i] = counters.segment().get(JAVA_LONG, (long)i * Long.BYTES);
            }
        }
        values[QUEUED] = lock.queuedAcquisitions();
        counters.free();
        lock.close();
        return values;
    }
}
