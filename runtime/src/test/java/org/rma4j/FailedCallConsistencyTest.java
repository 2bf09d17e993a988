package org.rma4j;

import org.rma4j.messaging.Messaging;
import org.rma4j.messaging.MessagingFaults;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.test.ShmTestDirectory;

/**
 * A call that fails at one rank leaves every rank consistent: collectives that fail after they started
 * complete their protocol with an error (the ranks' next calls match again), a send whose transfer fails
 * commits nothing, window creation that fails at one rank fails at all. Each failure is forced at a
 * chosen rank, deterministically (package-private hooks where the failure cannot be caused from outside).
 */
@Timeout(60)
class FailedCallConsistencyTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    @Test
    void shouldKeepBcastSubtreeInStepWhenInteriorRankHasTooSmallBuffer() {
        final List<String> outcomes = run(4, job -> {
            try (Messaging messaging = Messaging.create(job)) {
                final int rank = job.rank();
                final MemorySegment first = MemorySegment.ofArray(new long[1]);
                if (rank == 0) {
                    first.set(ValueLayout.JAVA_LONG, 0, 111);
                }
                String outcome;
                try {
                    // Rank 2 is an interior node of the tree (parent of rank 3).
                    messaging.bcast(rank == 2 ? MemorySegment.ofArray(new byte[4]) : first, 0);
                    outcome = "got " + first.get(ValueLayout.JAVA_LONG, 0);
                } catch (final RmaException e) {
                    outcome = e.errorClass().name();
                }
                final MemorySegment second = MemorySegment.ofArray(new long[1]);
                if (rank == 0) {
                    second.set(ValueLayout.JAVA_LONG, 0, 222);
                }
                messaging.bcast(second, 0);
                return outcome + ", then " + second.get(ValueLayout.JAVA_LONG, 0);
            }
        });
        assertEquals(List.of("got 111, then 222", "got 111, then 222", "COUNT, then 222", "OTHER, then 222"), outcomes);
    }

    @Test
    void shouldFailAllreduceAtEveryRankWhenCountsDifferAndMatchTheNextCall() {
        final List<String> outcomes = run(4, job -> {
            try (Messaging messaging = Messaging.create(job)) {
                final int rank = job.rank();
                final long count = rank == 3 ? 2 : 1;
                final MemorySegment send = MemorySegment.ofArray(new long[] {rank + 1, rank + 1});
                final MemorySegment recv = MemorySegment.ofArray(new long[2]);
                String outcome;
                try {
                    messaging.allreduce(send, recv, count, Datatype.LONG, Op.SUM);
                    outcome = "reduced " + recv.get(ValueLayout.JAVA_LONG, 0);
                } catch (final RmaException e) {
                    outcome = "failed";
                }
                messaging.allreduce(send, recv, 1, Datatype.LONG, Op.SUM);
                return outcome + ", then " + recv.get(ValueLayout.JAVA_LONG, 0);
            }
        });
        assertEquals(List.of("failed, then 10", "failed, then 10", "failed, then 10", "failed, then 10"), outcomes);
    }

    @Test
    void shouldFailReduceOnThePathToTheRootWhenCountsDiffer() {
        final List<String> outcomes = run(4, job -> {
            try (Messaging messaging = Messaging.create(job)) {
                final int rank = job.rank();
                final MemorySegment send = MemorySegment.ofArray(new long[] {rank + 1, rank + 1});
                final MemorySegment recv = MemorySegment.ofArray(new long[2]);
                String outcome;
                try {
                    messaging.reduce(send, recv, rank == 3 ? 2 : 1, Datatype.LONG, Op.SUM, 0);
                    outcome = "ok";
                } catch (final RmaException e) {
                    outcome = e.errorClass().name();
                }
                messaging.reduce(send, recv, 1, Datatype.LONG, Op.SUM, 0);
                return outcome + (rank == 0 ? ", then " + recv.get(ValueLayout.JAVA_LONG, 0) : "");
            }
        });
        // Tree rooted at 0: children 1 and 2; rank 3 is rank 2's child. Rank 2 cannot take rank 3's 16 bytes.
        assertEquals(List.of("OTHER, then 10", "ok", "COUNT", "ok"), outcomes);
    }

    @Test
    void shouldNameBothCallsWhenMessagingCollectivesDoNotMatch() {
        final List<String> outcomes = run(2, job -> {
            try (Messaging messaging = Messaging.create(job)) {
                try {
                    if (job.rank() == 0) {
                        messaging.allreduce(MemorySegment.ofArray(new long[1]), MemorySegment.ofArray(new long[1]), 1,
                            Datatype.LONG, Op.SUM);
                    } else {
                        messaging.barrier();
                    }
                    return "returned";
                } catch (final RankFailedException e) {
                    return "peer " + e.rank() + " failed";
                } catch (final RmaException e) {
                    return e.getMessage();
                }
            }
        });
        assertTrue(outcomes.get(0).contains("Messaging collective calls do not match: rank 0 is in reduce #1, rank 1"
            + " sent a message of barrier #1"), outcomes.toString());
        assertEquals("peer 0 failed", outcomes.get(1));
    }

    @Test
    void shouldDeliverEachMessageOnceWhenTransfersFailAndSendsAreRetried() {
        final int eagerCount = 200;
        final int large = 3 * 4096 + 100;
        run(2, job -> {
            try (Messaging messaging = Messaging.create(job, 4096)) {
                if (job.rank() == 0) {
                    MessagingFaults.failNextTransfer(messaging);
                    assertThrows(RmaTimeoutException.class, () -> messaging.send(new long[] {1}, 0, 1, 1, 3));
                    messaging.send(new long[] {1}, 0, 1, 1, 3);
                    for (int i = 0; i < eagerCount; i++) {
                        if (i == 7) {
                            MessagingFaults.failNextTransfer(messaging);
                            final byte[] failing = filled(1000, i);
                            assertThrows(RmaTimeoutException.class,
                                () -> messaging.send(MemorySegment.ofArray(failing), 1, 4));
                        }
                        messaging.send(MemorySegment.ofArray(filled(1000, i)), 1, 4);
                    }
                    MessagingFaults.failNextTransfer(messaging);
                    assertThrows(RmaTimeoutException.class,
                        () -> messaging.send(MemorySegment.ofArray(filled(large, 9)), 1, 5));
                    messaging.send(MemorySegment.ofArray(filled(large, 9)), 1, 5);
                    messaging.send(new long[] {2}, 0, 1, 1, 3);
                } else {
                    final long[] value = new long[1];
                    messaging.recv(value, 0, 1, 0, 3);
                    assertEquals(1, value[0]);
                    for (int i = 0; i < eagerCount; i++) {
                        final byte[] received = new byte[1000];
                        messaging.recv(MemorySegment.ofArray(received), 0, 4);
                        assertArrayEquals(filled(1000, i), received, "eager message " + i);
                    }
                    final byte[] received = new byte[large];
                    messaging.recv(MemorySegment.ofArray(received), 0, 5);
                    assertArrayEquals(filled(large, 9), received);
                    messaging.recv(value, 0, 1, 0, 3);
                    assertEquals(2, value[0], "the retried message was delivered once");
                }
                messaging.barrier();
                if (job.rank() == 1) {
                    assertFalse(messaging.irecv(MemorySegment.ofArray(new long[1]), 0, Rma.ANY_TAG).test());
                }
                // NOTE: rank 0 closes only after rank 1 looked: a receive from a rank that is closing fails at once.
                messaging.barrier();
            }
            return null;
        });
    }

    @Test
    void shouldFailWindowCreationAtEveryRankWhenOneRankCannotMapIt() {
        WindowCreation.failOpenAtRank = 1;
        final List<String> outcomes = run(3, job -> {
            String outcome;
            try {
                job.allocateShared(64, 8);
                outcome = "created";
            } catch (final RmaException e) {
                outcome = e.errorClass() + (e.getMessage().contains("rank 1") ? " naming rank 1" : "");
            }
            try (Window window = job.create(job.allocMem(64), 8, null)) {
                window.fence(0);
                window.put(new long[] {job.rank()}, 0, 1, (job.rank() + 1) % job.size(), 0);
                window.fence(0);
                return outcome + ", then " + window.segment().get(ValueLayout.JAVA_LONG, 0);
            }
        });
        assertEquals(List.of("RMA_SHARED naming rank 1, then 2", "RMA_SHARED naming rank 1, then 0",
            "RMA_SHARED naming rank 1, then 1"), outcomes);
    }

    private List<String> run(final int ranks, final Rma.RankFunction<String> body) {
        return Rma.callThreads(ranks, base.path(), WaitOptions.defaults(), body);
    }

    private static byte[] filled(final int length, final int value) {
        final byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte)value);
        return bytes;
    }
}
