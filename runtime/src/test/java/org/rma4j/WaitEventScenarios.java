package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import org.rma4j.shm.WaitState;
import org.rma4j.messaging.Messaging;

/**
 * Programs of {@link WaitEventRecordingTest}, run at both ranks of a two-rank process job: rank 0 (or
 * rank 1 for the PSCW wait) blocks in each kind of blocking call, and the other rank lets it go only
 * after it has seen the blocked rank's wait state published in the control file (published at the first
 * liveness check of the wait, after about 100 ms: every such wait lasts at least that long).
 */
final class WaitEventScenarios {
    /** The window number of the first window of a job. */
    static final int WINDOW = 0;
    static final int NOTIFY_TAG = 5;
    static final int MESSAGE_TAG = 3;

    private WaitEventScenarios() {
    }

    /**
     * Rank 0 waits in lock(EXCLUSIVE, 1), fence, start, a notification await, a Messaging recv and a
     * barrier; rank 1 waits in wait (PSCW). Each wait is released by the other rank once it is published.
     */
    static void blockInEveryWait(final RmaJob job) {
        final int me = job.rank();
        final int other = 1 - me;
        try (Window window = job.allocate(64, 1)) {
            // lock: rank 1 holds its own lock exclusively until rank 0 waits for it
            if (me == 1) {
                window.lock(LockType.EXCLUSIVE, 1);
            }
            job.barrier();
            if (me == 0) {
                window.lock(LockType.EXCLUSIVE, 1);
                window.unlock(1);
            } else {
                awaitPublished(job, 0, WaitState.Call.LOCK);
                window.unlock(1);
            }
            job.barrier();

            // fence: rank 1 enters it only once rank 0 waits in it
            if (me == 1) {
                awaitPublished(job, 0, WaitState.Call.FENCE);
            }
            window.fence(0);

            // PSCW: rank 0's start waits for rank 1's post; rank 1's wait waits for rank 0's complete
            if (me == 0) {
                window.start(Group.of(1), 0);
                awaitPublished(job, 1, WaitState.Call.WAIT);
                window.complete();
            } else {
                awaitPublished(job, 0, WaitState.Call.START);
                window.post(Group.of(0), 0);
                window.await();
            }
            job.barrier();

            // notification: rank 0 waits for a putNotify of rank 1 with NOTIFY_TAG
            if (me == 0) {
                try (NotifyRequest request = window.notifyInit(1, NOTIFY_TAG, 1)) {
                    request.start();
                    request.await();
                }
            } else {
                final WaitState wait = awaitPublished(job, 0, WaitState.Call.NOTIFY_WAIT);
                assertEquals(1, wait.peer(), wait::toString);
                assertEquals(NOTIFY_TAG, wait.callNumber(), wait::toString);
                window.putNotify(MemorySegment.ofArray(new long[] {42}), 0, 0, NOTIFY_TAG);
            }
            job.barrier();

            // Messaging: rank 0's recv waits for rank 1's send
            try (Messaging messaging = Messaging.create(job)) {
                final long[] value = new long[1];
                if (me == 0) {
                    messaging.recv(value, 0, 1, 1, MESSAGE_TAG);
                    assertEquals(7, value[0]);
                } else {
                    final WaitState wait = awaitPublished(job, 0, WaitState.Call.RECV);
                    assertEquals(1, wait.peer(), wait::toString);
                    assertEquals(MESSAGE_TAG, wait.callNumber(), wait::toString);
                    value[0] = 7;
                    messaging.send(value, 0, 1, 0, MESSAGE_TAG);
                }
            }

            // barrier: rank 1 enters it only once rank 0 waits in it
            if (me == 1) {
                awaitPublished(job, 0, WaitState.Call.BARRIER);
            }
            job.barrier();
            assertEquals(other, 1 - me);
        }
    }

    /**
     * Spins until {@code rank} has published a wait in {@code call} (a handshake on the control file).
     */
    static WaitState awaitPublished(final RmaJob job, final int rank, final WaitState.Call call) {
        while (true) {
            final WaitState wait = job.control().waitState(rank);
            if (wait != null && wait.call() == call) {
                return wait;
            }
            Thread.onSpinWait();
        }
    }
}
