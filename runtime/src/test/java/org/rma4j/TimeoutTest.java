package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.WaitTimeoutException;

/**
 * A job-wide wait timeout ends a blocking call with {@link WaitTimeoutException} naming what it
 * waited for; lock, start and notification waits may be retried afterwards.
 */
@Timeout(120)
class TimeoutTest {
    private static final WaitStrategy SHORT = WaitStrategy.defaultStrategy().withTimeout(TimeUnit.MILLISECONDS.toNanos(300));

    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    @Test
    void shouldTimeOutALockHeldByAnotherRankAndSucceedOnRetry() {
        final CountDownLatch timedOut = new CountDownLatch(1);
        final List<String> messages = Rma.callThreads(2, base.path(), SHORT, job -> {
            try (Window window = job.allocateShared(8, 8)) {
                String message = null;
                if (job.rank() == 1) {
                    window.lock(LockType.EXCLUSIVE, 0);
                    job.barrier();
                    timedOut.await();
                    window.unlock(0);
                } else {
                    job.barrier();
                    final WaitTimeoutException e = assertThrows(WaitTimeoutException.class,
                        () -> window.lock(LockType.EXCLUSIVE, 0));
                    message = e.getMessage();
                    timedOut.countDown();
                    window.lock(LockType.EXCLUSIVE, 0);
                    window.unlock(0);
                }
                job.barrier();
                return message;
            }
        });
        assertTrue(messages.get(0).contains("lock(EXCLUSIVE, 0)"), messages.get(0));
        assertTrue(messages.get(0).contains("exclusive by rank 1"), messages.get(0));
    }

    @Test
    void shouldTimeOutANotificationWaitAndStillMatchLater() {
        final CountDownLatch timedOut = new CountDownLatch(1);
        final List<String> messages = Rma.callThreads(2, base.path(), SHORT, job -> {
            try (Window window = job.allocateShared(8, 8)) {
                String message = null;
                if (job.rank() == 0) {
                    final NotifyRequest request = window.notifyInit(1, 4, 1);
                    request.start();
                    final WaitTimeoutException e = assertThrows(WaitTimeoutException.class, request::await);
                    message = e.getMessage();
                    timedOut.countDown();
                    assertEquals(4, request.await().tag());
                    request.close();
                } else {
                    timedOut.await();
                    window.putNotify(java.lang.foreign.MemorySegment.NULL, 0, 0, 4);
                }
                job.barrier();
                return message;
            }
        });
        assertTrue(messages.get(0).contains("NotifyRequest{source=1, tag=4"), messages.get(0));
    }

    @Test
    void shouldTimeOutStartWaitingForAMissingPost() {
        final CountDownLatch timedOut = new CountDownLatch(1);
        final List<String> messages = Rma.callThreads(2, base.path(), SHORT, job -> {
            try (Window window = job.allocateShared(8, 8)) {
                String message = null;
                if (job.rank() == 0) {
                    final WaitTimeoutException e = assertThrows(WaitTimeoutException.class,
                        () -> window.start(Group.of(1), 0));
                    message = e.getMessage();
                    timedOut.countDown();
                    window.start(Group.of(1), 0);
                    window.complete();
                } else {
                    timedOut.await();
                    window.post(Group.of(0), 0);
                    window.await();
                }
                job.barrier();
                return message;
            }
        });
        assertTrue(messages.get(0).contains("start: the posts of Group[1]"), messages.get(0));
    }
}
