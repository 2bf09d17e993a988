package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rma4j.AccumulateScenarios.assertBytes;
import static org.rma4j.AccumulateScenarios.bytesOf;
import static org.rma4j.AccumulateScenarios.expect;
import static org.rma4j.AccumulateScenarios.longs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rma4j.test.ShmTestDirectory;

/**
 * Request-based RMA (MPI-3.1 section 11.3.5): rput, rget, raccumulate and rgetAccumulate inside
 * passive-target epochs, their completion calls, and their errors. Ranks run as threads.
 */
@Timeout(120)
class RequestTest {
    private ShmTestDirectory base;

    @BeforeEach
    void createBase() {
        base = new ShmTestDirectory();
    }

    @AfterEach
    void removeBase() {
        try {
            assertEquals(List.of(), base.entries(), "the job left files behind");
        } finally {
            base.close();
        }
    }

    private void runThreads(final int ranks, final Rma.RankBody body) {
        Rma.callThreads(ranks, base.path(), WaitOptions.defaults(), job -> {
            body.run(job);
            return null;
        });
    }

    @Test
    void shouldCompleteEveryRequestKindInsideLockAllWithCorrectData() {
        runThreads(3, job -> {
            final int n = job.size();
            final int me = job.rank();
            final int right = (me + 1) % n;
            final int left = (me + n - 1) % n;
            // Slots (disp unit 8): 0-1 rput, 2 raccumulate, 3 rgetAccumulate REPLACE, 4 rgetAccumulate SUM.
            try (Arena arena = Arena.ofConfined(); Window window = job.allocate(40, 8)) {
                window.segment().set(ValueLayout.JAVA_LONG, 24, 100L + me);
                job.barrier();
                window.lockAll();
                final RmaRequest put = window.rput(longs(arena, 10L * me, 10L * me + 1), 2, Datatype.LONG, right, 0, 2,
                    Datatype.LONG);
                assertFalse(put.isReleased());
                assertTrue(put.test(), "rput is complete when returned");
                assertTrue(put.isReleased());
                window.flush(right);
                job.barrier();

                final MemorySegment got = arena.allocate(16, 8);
                final RmaRequest get = window.rget(got, 1, Datatype.contiguous(2, Datatype.LONG), right, 0, 2,
                    Datatype.LONG);
                get.await();
                assertTrue(get.isReleased());
                assertEquals(10L * me, got.getAtIndex(ValueLayout.JAVA_LONG, 0), "rget data (what I put)");
                assertEquals(10L * me + 1, got.getAtIndex(ValueLayout.JAVA_LONG, 1));

                final RmaRequest[] accumulates = new RmaRequest[n];
                for (int target = 0; target < n; target++) {
                    accumulates[target] = window.raccumulate(longs(arena, me + 1), 1, Datatype.LONG, target, 2, 1,
                        Datatype.LONG, Op.SUM);
                }
                RmaRequest.waitAll(accumulates);
                for (final RmaRequest request : accumulates) {
                    assertTrue(request.isReleased());
                }

                final MemorySegment replaced = arena.allocate(8, 8);
                final MemorySegment summed = arena.allocate(8, 8);
                final RmaRequest replace = window.rgetAccumulate(longs(arena, -me), 1, Datatype.LONG, replaced, 1,
                    Datatype.LONG, right, 3, 1, Datatype.LONG, Op.REPLACE);
                final RmaRequest sum = window.rgetAccumulate(longs(arena, 5), 1, Datatype.LONG, summed, 1,
                    Datatype.LONG, right, 4, 1, Datatype.LONG, Op.SUM);
                final RmaRequest[] both = {replace, sum};
                final int first = RmaRequest.waitAny(both);
                assertTrue(first == 0 || first == 1, "waitAny index " + first);
                assertTrue(both[first].isReleased());
                final int second = RmaRequest.waitAny(both);
                assertEquals(1 - first, second, "the other request");
                assertEquals(-1, RmaRequest.waitAny(both), "none active");
                assertEquals(100L + right, replaced.get(ValueLayout.JAVA_LONG, 0), "rgetAccumulate result");
                assertEquals(0L, summed.get(ValueLayout.JAVA_LONG, 0), "rgetAccumulate result");

                final RmaRequest none = window.rput(longs(arena, 1), 1, Datatype.LONG, Rma.PROC_NULL, 0, 1,
                    Datatype.LONG);
                assertTrue(none.test(), "a request to PROC_NULL completes at once");
                window.unlockAll();
                job.barrier();

                final MemorySegment mine = window.segment();
                assertEquals(10L * left, mine.get(ValueLayout.JAVA_LONG, 0));
                assertEquals(10L * left + 1, mine.get(ValueLayout.JAVA_LONG, 8));
                assertEquals((long)n * (n + 1) / 2, mine.get(ValueLayout.JAVA_LONG, 16), "raccumulate from all");
                assertEquals(-left, mine.get(ValueLayout.JAVA_LONG, 24), "REPLACE from " + left);
                assertEquals(5L, mine.get(ValueLayout.JAVA_LONG, 32), "SUM from " + left);
            }
        });
    }

    @Test
    void shouldCompleteRequestsInsideExclusiveAndSharedLocks() {
        runThreads(2, job -> {
            final int n = job.size();
            final int me = job.rank();
            final int right = (me + 1) % n;
            try (Arena arena = Arena.ofConfined(); Window window = job.allocateShared(32, 4)) {
                job.barrier();
                window.lock(LockType.EXCLUSIVE, right);
                final MemorySegment values = arena.allocate(16, 8);
                for (int i = 0; i < 4; i++) {
                    values.setAtIndex(ValueLayout.JAVA_INT, i, 100 * me + i);
                }
                final Datatype everyOther = Datatype.vector(2, 1, 2, Datatype.INT);
                final RmaRequest put = window.rput(values, 1, everyOther, right, 0, 2, Datatype.INT);
                final MemorySegment back = arena.allocate(8, 8);
                final RmaRequest get = window.rget(back, 2, Datatype.INT, right, 0, 2, Datatype.INT);
                assertTrue(RmaRequest.testAll(put, get));
                assertTrue(put.isReleased() && get.isReleased());
                assertEquals(100 * me, back.getAtIndex(ValueLayout.JAVA_INT, 0));
                assertEquals(100 * me + 2, back.getAtIndex(ValueLayout.JAVA_INT, 1));
                window.unlock(right);
                job.barrier();

                window.lock(LockType.SHARED, 0);
                final MemorySegment previous = arena.allocate(4, 4);
                final MemorySegment one = arena.allocate(4, 4);
                one.set(ValueLayout.JAVA_INT, 0, 1);
                window.raccumulate(one, 1, Datatype.INT, 0, 4, 1, Datatype.INT, Op.SUM).await();
                window.rgetAccumulate(null, 0, Datatype.INT, previous, 1, Datatype.INT, 0, 4, 1, Datatype.INT, Op.NO_OP)
                    .await();
                assertTrue(previous.get(ValueLayout.JAVA_INT, 0) >= 1, "at least my own increment");
                window.unlock(0);
                job.barrier();
                if (me == 0) {
                    assertEquals(n, window.segment().get(ValueLayout.JAVA_INT, 16));
                }
            }
        });
    }

    @Test
    void shouldRaiseRmaSyncForRequestsOutsideAPassiveEpoch() {
        runThreads(2, job -> {
            final int n = job.size();
            final int right = (job.rank() + 1) % n;
            try (Arena arena = Arena.ofConfined(); Window window = job.allocate(16, 8)) {
                window.segment().fill((byte)0x5A);
                final MemorySegment buffer = longs(arena, 7);
                final MemorySegment result = arena.allocate(8, 8);
                final byte[] before = bytesOf(window.segment());
                job.barrier();
                expectRmaSync(window, buffer, result, right, "no epoch");

                window.fence(0);
                expectRmaSync(window, buffer, result, right, "a fence epoch");
                window.put(buffer, right, 0);
                expectRmaSync(window, buffer, result, right, "a fence epoch with a put");
                window.fence(Rma.MODE_NOSUCCEED);

                if (n > 1) {
                    window.lock(LockType.SHARED, job.rank());
                    expectRmaSync(window, buffer, result, right, "a lock on another rank");
                    window.unlock(job.rank());
                }
                job.barrier();
                // Only the fence epoch's put changed memory.
                MemorySegment.ofArray(before).set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 7L);
                assertBytes(before, bytesOf(window.segment()), "window after RMA_SYNC errors");
            }
        });
    }

    private static void expectRmaSync(final Window window, final MemorySegment buffer, final MemorySegment result,
        final int target, final String where) {
        expect(ErrorClass.RMA_SYNC, () -> window.rput(buffer, 1, Datatype.LONG, target, 1, 1, Datatype.LONG),
            "rput(" + target + ") outside a passive-target epoch");
        expect(ErrorClass.RMA_SYNC, () -> window.rget(result, 1, Datatype.LONG, target, 1, 1, Datatype.LONG),
            "rget(" + target + ")");
        expect(ErrorClass.RMA_SYNC,
            () -> window.raccumulate(buffer, 1, Datatype.LONG, target, 1, 1, Datatype.LONG, Op.SUM),
            "raccumulate(" + target + ")");
        expect(ErrorClass.RMA_SYNC, () -> window.rgetAccumulate(buffer, 1, Datatype.LONG, result, 1, Datatype.LONG,
            target, 1, 1, Datatype.LONG, Op.SUM), "rgetAccumulate(" + target + ")");
        assertEquals(0L, result.get(ValueLayout.JAVA_LONG, 0), "result untouched in " + where);
    }

    @Test
    void shouldRaiseRequestOnTestOrAwaitOfAReleasedRequest() {
        final RmaRequest tested = RmaRequest.completed("rput");
        assertTrue(tested.test());
        expect(ErrorClass.REQUEST, tested::test, "test on a released rput request");
        expect(ErrorClass.REQUEST, tested::await, "await on a released rput request");

        final RmaRequest awaited = RmaRequest.completed("rget");
        awaited.await();
        expect(ErrorClass.REQUEST, awaited::await, "await on a released rget request");
        expect(ErrorClass.REQUEST, awaited::test, "test on a released rget request");
        // Like MPI_REQUEST_NULL, a released request is skipped by waitAll and waitAny.
        RmaRequest.waitAll(awaited);
        assertEquals(-1, RmaRequest.waitAny(awaited));
        assertTrue(awaited.toString().contains("released"), awaited.toString());
    }

    @Test
    void shouldReturnMinusOneFromWaitAnyWhenNoRequestIsActive() {
        assertEquals(-1, RmaRequest.waitAny());
        assertEquals(-1, RmaRequest.waitAny(null, null));
        final RmaRequest released = RmaRequest.completed("raccumulate");
        released.await();
        assertEquals(-1, RmaRequest.waitAny(released, null));
        final RmaRequest active = RmaRequest.completed("rgetAccumulate");
        assertEquals(1, RmaRequest.waitAny(released, active, RmaRequest.completed("rput")));
        assertTrue(active.isReleased());
        assertTrue(RmaRequest.testAll(null, RmaRequest.completed("rget")));
        RmaRequest.waitAll();
    }

    @Test
    void shouldReleaseRequestsOfRealCallsOnlyOnce() {
        runThreads(1, job -> {
            try (Arena arena = Arena.ofConfined(); Window window = job.allocate(8, 8)) {
                window.lock(LockType.EXCLUSIVE, 0);
                final RmaRequest request = window.raccumulate(longs(arena, 3), 1, Datatype.LONG, 0, 0, 1, Datatype.LONG,
                    Op.SUM);
                assertTrue(request.test());
                expect(ErrorClass.REQUEST, request::await, "released raccumulate request");
                window.unlock(0);
                assertEquals(3L, window.segment().get(ValueLayout.JAVA_LONG, 0));
            }
        });
    }
}
