package org.rma4j;

import org.rma4j.messaging.Messaging;
import org.rma4j.messaging.MessageRequest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rma4j.test.ShmTestDirectory;

/**
 * A collective wait that times out, or ends because a peer failed, names its call; a wait on receives
 * of several Messaging objects ends when their source closes one of them (it cannot send on the others
 * before this rank closes that one too).
 */
@Timeout(60)
class CollectiveWaitNamesTest {
    @RegisterExtension
    final ShmTestDirectory base = new ShmTestDirectory();

    @ParameterizedTest
    @ValueSource(strings = {"fence", "free", "barrier", "create", "close"})
    void shouldNameTheCallWhenItTimesOut(final String call) {
        final CountDownLatch timedOut = new CountDownLatch(1);
        final String[] message = new String[1];
        final WaitOptions strategy = WaitOptions.defaults().withTimeout(java.time.Duration.ofMillis(1500));
        assertThrows(RmaTimeoutException.class, () -> Rma.callThreads(2, base.path(), strategy, job -> {
            final Window window = job.allocateShared(8, 8);
            if (job.rank() == 1) {
                // The peer makes no call until rank 0's has timed out, then leaves (which fails: rank 0 abandoned).
                assertTrue(timedOut.await(30, TimeUnit.SECONDS));
                return null;
            }
            try {
                calling(call, window).accept(job);
            } catch (final RuntimeException e) {
                message[0] = e.getClass().getSimpleName() + ": " + e.getMessage();
                throw e;
            } finally {
                timedOut.countDown();
            }
            return null;
        }));
        assertTrue(message[0].startsWith("RmaTimeoutException: MPI_ERR_OTHER: timed out after"), message[0]);
        assertTrue(message[0].contains(expected(call)), message[0]);
    }

    @ParameterizedTest
    @ValueSource(strings = {"fence", "free", "barrier", "create", "close"})
    void shouldNameTheCallWhenAPeerFails(final String call) {
        final String[] message = new String[1];
        assertThrows(IllegalStateException.class, () -> Rma.callThreads(2, base.path(), WaitOptions.defaults(), job -> {
            final Window window = job.allocateShared(8, 8);
            if (job.rank() == 0) {
                throw new IllegalStateException("rank 0 gives up");
            }
            try {
                calling(call, window).accept(job);
            } catch (final RuntimeException e) {
                message[0] = e.getClass().getSimpleName() + ": " + e.getMessage();
                throw e;
            }
            return null;
        }));
        assertTrue(message[0].startsWith("RankFailedException: MPI_ERR_PROC_FAILED: rank 0 failed"), message[0]);
        assertTrue(message[0].contains("rank 1 waited in " + expected(call)), message[0]);
    }

    private static Consumer<RmaJob> calling(final String call, final Window window) {
        return switch (call) {
            case "fence" -> j -> window.fence(0);
            case "free" -> j -> window.free();
            case "barrier" -> RmaJob::barrier;
            case "create" -> j -> j.allocate(8, 8);
            default -> RmaJob::close;
        };
    }

    private static String expected(final String call) {
        return switch (call) {
            case "fence" -> "fence on window 0";
            case "free" -> "free on window 0";
            case "barrier" -> "barrier (collective";
            case "create" -> "window creation (collective";
            default -> "RmaJob.close (collective";
        };
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void shouldEndAWaitOnSeveralMessagingObjectsWhenTheSourceCloses(final int ranks) {
        final List<Throwable> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        assertThrows(RuntimeException.class, () -> Rma.callThreads(ranks, base.path(), WaitOptions.defaults(), job -> {
            try (Messaging first = Messaging.create(job); Messaging second = Messaging.create(job)) {
                if (job.rank() == 1) {
                    throw new IllegalStateException("rank 1 gives up");
                }
                try {
                    MessageRequest.waitAll(first.irecv(MemorySegment.ofArray(new long[1]), 1, 7),
                        second.irecv(MemorySegment.ofArray(new long[1]), 1, 7));
                } catch (final RuntimeException e) {
                    seen.add(e);
                    throw e;
                }
            }
            return null;
        }));
        assertEquals(ranks - 1, seen.size(), seen.toString());
        for (final Throwable t : seen) {
            assertInstanceOf(RmaException.class, t, t.toString());
            assertTrue(t.getMessage().contains("can never match: rank 1 is closing its Messaging object"),
                t.toString());
        }
    }
}
