package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * The target side of notified access from another node ({@link Notifications#deliver}, what a rank's
 * {@link TargetAgent} calls for a NOTIFY request): the notification goes into the lane of its origin at this
 * rank, in the order delivered, a full lane refuses it without publishing anything (the agent offers it again),
 * and the target's drain makes room. The agent is the lane's only producer; here rank 1 stands for an origin on
 * another node and makes no notified access itself.
 */
@Timeout(120)
class RemoteOriginLaneTest {
    private static final int TAG = 7;
    private static final int CAPACITY = 4;

    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    @Test
    void shouldPublishARemoteOriginsNotificationsInItsLaneInOrderAndRefuseWhenFull() throws Exception {
        Scenarios.runThreads(base, 2, RemoteOriginLaneTest.class, "deliverInOriginsLane", 20_000);
    }

    static void deliverInOriginsLane(final RmaJob job) {
        try (
            Window window = job.allocate(64, 1, Info.of(RmaJob.NOTIFY_CAPACITY_INFO_KEY, Integer.toString(CAPACITY)))) {
            if (job.rank() == 0) {
                final Notifications notifications = window.notifications();
                for (int i = 0; i < CAPACITY; i++) {
                    assertTrue(notifications.deliver(1, TAG, i, 8, Notifications.KIND_PUT), "room for entry " + i);
                }
                assertFalse(notifications.deliver(1, TAG, CAPACITY, 8, Notifications.KIND_PUT), "the lane is full");
                try (NotifyRequest request = window.notifyInit(1, TAG, 1)) {
                    for (int i = 0; i < CAPACITY; i++) {
                        request.start();
                        final NotifyRequest.Status status = request.await();
                        assertEquals(1, status.source());
                        assertEquals(i, status.displacement(), "the origin's order");
                        if (i == 0) {
                            // the drain of one entry made room: the refused one is offered again
                            assertTrue(notifications.deliver(1, TAG, CAPACITY, 8, Notifications.KIND_PUT));
                        }
                    }
                    request.start();
                    assertEquals(CAPACITY, request.await().displacement(), "the entry offered again comes last");
                }
            }
            job.barrier();
        }
    }
}
