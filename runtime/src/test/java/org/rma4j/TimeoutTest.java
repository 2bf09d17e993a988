package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * A wait timeout ends a blocking call with {@link RmaTimeoutException} naming what it waited for; lock,
 * start and notification waits may be retried afterwards.
 *
 * <p>Only a wait that cannot complete meets the timeout, so no outcome depends on how fast anything runs:
 * the notification and start cases run a job of one rank with the job-wide timeout (its collectives wait
 * for nobody), waiting for a notification or a post that only that rank could send and has not; the lock
 * case gives the timeout to rank 0's lock request alone (through a test hook of {@link RmaJob}), while
 * rank 1 holds the lock until rank 0 has seen the timeout. How soon the timeout fires is not asserted.
 */
@Timeout(120)
class TimeoutTest {
    private static final WaitOptions SHORT = WaitOptions.defaults().withTimeout(Duration.ofMillis(300));

    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    @Test
    void shouldTimeOutALockHeldByAnotherRankAndSucceedOnRetry() {
        final CountDownLatch timedOut = new CountDownLatch(1);
        final WaitOptions untimed = WaitOptions.defaults().withTimeout(Duration.ZERO);
        final List<String> messages = Rma.callThreads(2, base.path(), untimed, job -> {
            try (Window window = job.allocateShared(8, 8)) {
                String message = null;
                if (job.rank() == 1) {
                    window.lock(LockType.EXCLUSIVE, 0);
                    job.barrier();
                    timedOut.await();
                    window.unlock(0);
                } else {
                    job.barrier();
                    job.replaceWaitStrategyForTest(SHORT.strategy());
                    final RmaTimeoutException e = assertThrows(RmaTimeoutException.class,
                        () -> window.lock(LockType.EXCLUSIVE, 0));
                    job.replaceWaitStrategyForTest(untimed.strategy());
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
        final List<String> messages = Rma.callThreads(1, base.path(), SHORT, job -> {
            try (Window window = job.allocateShared(8, 8)) {
                final NotifyRequest request = window.notifyInit(0, 4, 1);
                request.start();
                final RmaTimeoutException e = assertThrows(RmaTimeoutException.class, request::await);
                window.putNotify(MemorySegment.NULL, 0, 0, 4);
                assertEquals(4, request.await().tag());
                request.close();
                return e.getMessage();
            }
        });
        assertTrue(messages.get(0).contains("NotifyRequest{source=0, tag=4"), messages.get(0));
    }

    @Test
    void shouldTimeOutStartWaitingForAMissingPost() {
        final List<String> messages = Rma.callThreads(1, base.path(), SHORT, job -> {
            try (Window window = job.allocateShared(8, 8)) {
                final RmaTimeoutException e = assertThrows(RmaTimeoutException.class,
                    () -> window.start(Group.of(0), 0));
                window.post(Group.of(0), 0);
                window.start(Group.of(0), 0);
                window.complete();
                window.await();
                return e.getMessage();
            }
        });
        assertTrue(messages.get(0).contains("start on window 0 for the posts of Group[0]"), messages.get(0));
    }
}
