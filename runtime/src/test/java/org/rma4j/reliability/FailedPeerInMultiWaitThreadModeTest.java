package org.rma4j.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.messaging.MessageRequest;
import org.rma4j.messaging.Messaging;
import org.rma4j.NotifyRequest;
import org.rma4j.RankFailedException;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.WaitOptions;
import org.rma4j.Window;
import org.rma4j.test.ShmTestDirectory;

/**
 * Thread mode of {@link KilledRankTest}'s waits over several objects: rank 1 fails (its body throws, so the
 * runner marks it failed) while rank 0 is parked in {@link NotifyRequest#waitAny} over requests of two
 * windows, or in {@link MessageRequest#waitAny} over receives of two Messaging objects; rank 0's wait ends
 * with {@link RankFailedException} naming rank 1 within {@link KilledRankTest#DETECTION_BOUND_MS} (a hang
 * bound, not a speed measure). Handshake: rank 1 fails only once rank 0's thread is parked inside the wait.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailedPeerInMultiWaitThreadModeTest {
    private static final int VICTIM = 1;

    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory("rma4j-reliability-");

    @Test
    void shouldEndWaitAnyOverRequestsOfTwoWindowsWhenTheSourceFails() {
        run(job -> {
            final Window first = job.allocateShared(64, 8);
            final Window second = job.allocateShared(64, 8);
            return () -> {
                final NotifyRequest a = first.notifyInit(VICTIM, Rma.ANY_TAG, 1);
                final NotifyRequest b = second.notifyInit(VICTIM, Rma.ANY_TAG, 1);
                a.start();
                b.start();
                NotifyRequest.waitAny(a, b);
            };
        });
    }

    @Test
    void shouldEndAReceiveOverTwoMessagingObjectsWhenTheSourceFails() {
        run(job -> {
            final Messaging first = Messaging.create(job);
            final Messaging second = Messaging.create(job);
            return () -> {
                final MessageRequest a = first.irecv(MemorySegment.ofArray(new long[1]), VICTIM, 0);
                final MessageRequest b = second.irecv(MemorySegment.ofArray(new long[1]), VICTIM, 0);
                MessageRequest.waitAny(a, b);
            };
        });
    }

    /** Collective set-up of both ranks; returns rank 0's blocking call. */
    private interface Scenario {
        Runnable setUp(RmaJob job);
    }

    private void run(final Scenario scenario) {
        final AtomicReference<Thread> waiter = new AtomicReference<>();
        final CountDownLatch entering = new CountDownLatch(1);
        final AtomicLong failedAtNs = new AtomicLong();
        final AtomicReference<RankFailedException> detected = new AtomicReference<>();
        final AtomicLong detectedAtNs = new AtomicLong();
        final Throwable failure = assertThrows(IllegalStateException.class,
            () -> Rma.callThreads(2, base.path(), WaitOptions.defaults(), job -> {
                final Runnable blocking = scenario.setUp(job);
                job.barrier();
                if (job.rank() == VICTIM) {
                    assertTrue(entering.await(30, TimeUnit.SECONDS));
                    awaitParked(waiter.get());
                    failedAtNs.set(System.nanoTime());
                    throw new IllegalStateException("rank 1 fails while rank 0 waits");
                }
                waiter.set(Thread.currentThread());
                entering.countDown();
                try {
                    blocking.run();
                } catch (final RankFailedException e) {
                    detectedAtNs.set(System.nanoTime());
                    detected.set(e);
                    throw e;
                }
                return null;
            }));
        assertEquals("rank 1 fails while rank 0 waits", failure.getMessage());
        final RankFailedException e = detected.get();
        assertTrue(e != null, "rank 0's wait did not end with RankFailedException");
        assertEquals(VICTIM, e.rank(), e.getMessage());
        final long ms = TimeUnit.NANOSECONDS.toMillis(detectedAtNs.get() - failedAtNs.get());
        System.out.println("rank 0 saw rank 1's failure after " + ms + " ms: " + e.getMessage());
        assertTrue(ms <= KilledRankTest.DETECTION_BOUND_MS, () -> "rank 0 saw the failure " + ms + " ms after it,"
            + " beyond the hang bound of " + KilledRankTest.DETECTION_BOUND_MS + " ms");
    }

    /**
     * Returns once {@code thread} is parked (inside its wait: it announced it was entering the wait, and the
     * only parks after that are the wait's own).
     */
    private static void awaitParked(final Thread thread) throws InterruptedException {
        while (thread.getState() != Thread.State.TIMED_WAITING && thread.getState() != Thread.State.WAITING) {
            Thread.sleep(1);
        }
    }
}
