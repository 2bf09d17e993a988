package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.messaging.Messaging;
import org.rma4j.test.ShmTestDirectory;

/**
 * A rank whose notification lane at a peer is full of its own messages still returns that peer's credit: it
 * writes the credit word without a notification (the peer reads the word again when it drains the lane) instead
 * of waiting for room while the peer waits for it in a barrier. Lanes of 4 entries make the lane full with four
 * messages; a job-wide wait timeout turns the deadlock this guards against into a failure.
 */
@Timeout(300)
class MessagingFullLaneTest {
    private static final long WAIT_TIMEOUT_MS = 20_000;
    private static final int LANE = 4;
    private static final int RING = 4096;

    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    @Test
    void shouldReturnCreditIntoAFullLaneWithoutWaitingInThreadMode() {
        final String previous = System.setProperty(Messaging.NOTIFY_CAPACITY_PROP_NAME, Integer.toString(LANE));
        try {
            Scenarios.runThreads(base, 2, MessagingFullLaneTest.class, "creditIntoFullLane", WAIT_TIMEOUT_MS);
        } finally {
            if (previous == null) {
                System.clearProperty(Messaging.NOTIFY_CAPACITY_PROP_NAME);
            } else {
                System.setProperty(Messaging.NOTIFY_CAPACITY_PROP_NAME, previous);
            }
        }
    }

    @Test
    void shouldReturnCreditIntoAFullLaneWithoutWaitingInProcessMode() throws Exception {
        Scenarios.runProcesses(base, 2, MessagingFullLaneTest.class, "creditIntoFullLane",
            "-D" + Messaging.NOTIFY_CAPACITY_PROP_NAME + "=" + LANE,
            "-D" + org.rma4j.shm.WaitStrategy.TIMEOUT_PROP_NAME + "=" + WAIT_TIMEOUT_MS);
    }

    /**
     * Rank 0 fills its lane at rank 1 with 4 messages that rank 1 takes only after the barrier, then receives
     * rank 1's message of more than a quarter ring, whose credit it returns at once. Afterwards rank 1 sends more
     * than a ring's worth, which it can only with that credit (read from the word, its notification skipped).
     */
    static void creditIntoFullLane(final RmaJob job) {
        final int me = job.rank();
        final byte[] big = new byte[RING / 2];
        try (Messaging m = Messaging.create(job, RING)) {
            if (me == 0) {
                for (int i = 0; i < LANE; i++) {
                    m.send(new long[] {i}, 0, 1, 1, 7);
                }
                m.recv(MemorySegment.ofArray(big), 1, 8);
                assertEquals(3, big[0]);
                job.barrier();
                for (int i = 0; i < 3; i++) {
                    m.recv(MemorySegment.ofArray(big), 1, 9);
                    assertEquals(10 + i, big[0]);
                }
            } else {
                big[0] = 3;
                m.send(MemorySegment.ofArray(big), 0, 8);
                job.barrier();
                for (int i = 0; i < LANE; i++) {
                    final long[] got = new long[1];
                    m.recv(got, 0, 1, 0, 7);
                    assertArrayEquals(new long[] {i}, got);
                }
                for (int i = 0; i < 3; i++) {
                    big[0] = (byte)(10 + i);
                    m.send(MemorySegment.ofArray(big), 0, 9);
                }
            }
            job.barrier();
        }
    }
}
