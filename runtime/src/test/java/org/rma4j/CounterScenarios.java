package org.rma4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.rma4j.notify.CounterBlock;
import org.rma4j.notify.CounterBlockLayout;
import org.rma4j.test.FutexSleepers;
import org.rma4j.test.ShmTestDirectory;

/**
 * The programs of the notification-counter contract tests (MPI Forum issue 59), run at every rank in thread
 * mode, as real processes ({@link CounterContractTest}) and across nodes ({@code mpimode.MpiNotifyTest}).
 */
final class CounterScenarios {
    private CounterScenarios() {
    }

    private static long marker(final int producer, final int i) {
        return (long)producer << 32 | i + 1;
    }

    /**
     * Every other rank produces to rank 0: each put of its own slot with one more on its counter, and a
     * zero-length put on the shared counter 0. Rank 0 waits for each producer's counter in turn and reads every
     * slot the counter covers: the data is there before the counter (never a zero). Every increment is seen:
     * the counters end at exactly their operations' number.
     */
    static void producers(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int rounds = Integer.getInteger("rma4j.test.counterRounds", 2_000);
        try (Window window = Scenarios.allocate(job, me == 0 ? 8L * (n - 1) * rounds : 0, 8)) {
            window.notifyAttach(me == 0 ? n : 0);
            if (me != 0) {
                final long base = (long)(me - 1) * rounds;
                for (int i = 0; i < rounds; i++) {
                    window.putNotifyCounter(MemorySegment.ofArray(new long[] {marker(me, i)}), 0, base + i, me);
                    window.putNotifyCounter(MemorySegment.NULL, 0, 0, 0);
                }
            } else {
                final MemorySegment slots = window.segment();
                final int[] checked = new int[n];
                for (int i = 0; i < rounds; i++) {
                    for (int p = 1; p < n; p++) {
                        if (checked[p] > i) {
                            continue;
                        }
                        final long value = window.notifyWait(p, i + 1);
                        assertTrue(value >= i + 1 && value <= rounds, "counter " + p + " = " + value);
                        // NOTE: every slot the counter covers holds its data: the increment follows the put.
                        for (int j = checked[p]; j < value; j++) {
                            final long slot = slots.getAtIndex(ValueLayout.JAVA_LONG, (long)(p - 1) * rounds + j);
                            assertEquals(marker(p, j), slot,
                                "slot " + j + " of producer " + p + " at counter " + value);
                        }
                        checked[p] = (int)value;
                    }
                }
                final long all = (long)(n - 1) * rounds;
                assertEquals(all, window.notifyWait(0, all));
                job.barrier();
                for (int p = 0; p < n; p++) {
                    assertEquals(p == 0 ? all : rounds, window.notifyGetValue(p), "counter " + p);
                }
            }
            if (me != 0) {
                job.barrier();
            }
            window.notifyDetach();
        }
    }

    /**
     * Rank 0's waiter sleeps (a futex wait on its counter block's signal word, seen by the kernel) until rank 1,
     * told so, puts with a counter: the increment wakes it, and it finds the data.
     */
    static void sleeper(final RmaJob job) throws Exception {
        final int me = job.rank();
        try (Window window = Scenarios.allocate(job, 8, 8)) {
            window.notifyAttach(me == 0 ? 1 : 0);
            if (me == 0) {
                final CompletableFuture<Long> woken = CompletableFuture.supplyAsync(() -> window.notifyWait(0, 1));
                final CounterBlock block = window.notifyCounters().ownBlock();
                FutexSleepers.await(block.segment(), CounterBlockLayout.SIGNAL_OFFSET, 1);
                assertEquals(1, block.sleepers(), "the waiter announced itself before it slept");
                final int signal = block.segment().get(ValueLayout.JAVA_INT, CounterBlockLayout.SIGNAL_OFFSET);
                job.barrier();
                assertEquals(1L, woken.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
                assertEquals(42L, window.segment().get(ValueLayout.JAVA_LONG, 0));
                assertTrue(block.segment().get(ValueLayout.JAVA_INT, CounterBlockLayout.SIGNAL_OFFSET) != signal,
                    "the increment bumped the signal word to wake the sleeper");
                assertEquals(0, block.sleepers(), "no sleeper left");
            } else {
                job.barrier();
                if (me == 1) {
                    window.putNotifyCounter(MemorySegment.ofArray(new long[] {42}), 0, 0, 0);
                }
            }
            job.barrier();
            window.notifyDetach();
        }
    }

    /**
     * Get with a counter tells the target its data was read; accumulate with a counter from every rank; put and
     * get with datatypes.
     */
    static void getAndAccumulate(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int rounds = 500;
        try (Window window = Scenarios.allocate(job, 8L * (n + 4 + 8), 8)) {
            window.notifyAttach(me == 0 ? 4 : 1);
            final MemorySegment local = window.segment();
            // get: rank 0 overwrites its slots once every other rank has read them (counter 0).
            if (me == 0) {
                for (int r = 0; r < n; r++) {
                    local.setAtIndex(ValueLayout.JAVA_LONG, r, 1000 + r);
                }
            }
            job.barrier();
            if (me != 0) {
                final long[] read = new long[1];
                window.getNotifyCounter(MemorySegment.ofArray(read), 0, me, 0);
                assertEquals(1000 + me, read[0]);
            } else {
                assertEquals(n - 1, window.notifyWait(0, n - 1));
                for (int r = 0; r < n; r++) {
                    local.setAtIndex(ValueLayout.JAVA_LONG, r, -1);
                }
            }
            job.barrier();
            // accumulate: every rank adds (1, 2, 3, 4) rounds times to rank 0's words n..n+3, counter 1.
            final MemorySegment ones = MemorySegment.ofArray(new long[] {1, 2, 3, 4});
            for (int i = 0; i < rounds; i++) {
                window.accumulateNotifyCounter(ones, 4, Datatype.LONG, 0, n, 4, Datatype.LONG, Op.SUM, 1);
            }
            if (me == 0) {
                assertEquals((long)n * rounds, window.notifyWait(1, (long)n * rounds));
                for (int k = 0; k < 4; k++) {
                    assertEquals((long)n * rounds * (k + 1), local.getAtIndex(ValueLayout.JAVA_LONG, n + k));
                }
            }
            job.barrier();
            // datatypes: the last rank puts 4 longs strided by 2 into rank 0's words n+4.., counter 2; rank 0
            // then reads them back strided with a get on its own counter 3.
            final Datatype strided = Datatype.vector(4, 1, 2, Datatype.LONG);
            if (me == n - 1) {
                window.putNotifyCounter(MemorySegment.ofArray(new long[] {7, 8, 9, 10}), 4, Datatype.LONG, 0, n + 4, 1,
                    strided, 2);
            }
            if (me == 0) {
                assertEquals(1, window.notifyWait(2, 1));
                final long[] back = new long[4];
                window.getNotifyCounter(MemorySegment.ofArray(back), 4, Datatype.LONG, 0, n + 4, 1, strided, 3);
                assertEquals(List.of(7L, 8L, 9L, 10L), List.of(back[0], back[1], back[2], back[3]));
                assertEquals(1, window.notifyGetValue(3));
            }
            job.barrier();
            window.notifyDetach();
        }
    }

    /**
     * Index range errors carry RMA_NOTIF_RANGE and the offending values, and leave window and counters as they
     * were; the collective calls' errors reach every rank and change nothing.
     */
    static void errors(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final int right = (me + 1) % n;
        try (Window window = Scenarios.allocate(job, 16, 8)) {
            final MemorySegment word = MemorySegment.ofArray(new long[] {77});
            expect(ErrorClass.RMA_NOTIF_RANGE, () -> window.putNotifyCounter(word, right, 0, 0));
            expect(ErrorClass.RMA_NOTIF_RANGE, () -> window.notifyGetValue(0));
            expect(ErrorClass.RMA_SYNC, window::notifyDetach);
            // A bad count at the last rank: every rank throws, the last one COUNT, and nothing is attached.
            final RmaException attach = assertThrows(RmaException.class,
                () -> window.notifyAttach(me == n - 1 ? -1 : 2));
            if (me == n - 1) {
                assertEquals(ErrorClass.COUNT, attach.errorClass(), attach.getMessage());
                assertTrue(attach.getMessage().contains("counters=-1"), attach.getMessage());
            }
            expect(ErrorClass.RMA_NOTIF_RANGE, () -> window.notifyTest(0, 0));
            window.notifyAttach(me + 2);
            expect(ErrorClass.RMA_SYNC, () -> window.notifyAttach(1));
            final int rightCount = right + 2;
            final RmaException range = expect(ErrorClass.RMA_NOTIF_RANGE,
                () -> window.putNotifyCounter(word, right, 0, rightCount));
            assertTrue(
                range.getMessage().contains("counter=" + rightCount)
                    && range.getMessage().contains(rightCount + " counters attached at rank " + right),
                range.getMessage());
            expect(ErrorClass.RMA_NOTIF_RANGE, () -> window.getNotifyCounter(word, right, 0, -1));
            expect(ErrorClass.RMA_NOTIF_RANGE,
                () -> window.accumulateNotifyCounter(word, 1, Datatype.LONG, right, 0, 1, Datatype.LONG, Op.SUM, 99));
            expect(ErrorClass.RMA_NOTIF_RANGE, () -> window.notifyGetValue(me + 2));
            expect(ErrorClass.RMA_NOTIF_RANGE, () -> window.notifySetValue(-1, 5));
            expect(ErrorClass.RMA_NOTIF_RANGE, () -> window.notifyWait(me + 2, 1));
            expect(ErrorClass.RMA_NOTIF_RANGE, () -> window.notifyTest(Integer.MAX_VALUE, 1));
            // Errors of the data part: nothing written, nothing counted.
            expect(ErrorClass.RMA_RANGE, () -> window.putNotifyCounter(word, right, 2, 0));
            expect(ErrorClass.DISP, () -> window.putNotifyCounter(word, right, -1, 0));
            expect(ErrorClass.RANK, () -> window.putNotifyCounter(word, n, 0, 0));
            expect(ErrorClass.OP,
                () -> window.accumulateNotifyCounter(word, 1, Datatype.LONG, right, 0, 1, Datatype.LONG, Op.NO_OP, 0));
            window.putNotifyCounter(word, Rma.PROC_NULL, 0, 1_000);
            job.barrier();
            assertEquals(0L, window.segment().get(ValueLayout.JAVA_LONG, 0), "a failed call wrote nothing");
            for (int i = 0; i < me + 2; i++) {
                assertEquals(0L, window.notifyGetValue(i), "a failed call counted nothing");
            }
            job.barrier();
            // The window and its counters still work.
            window.putNotifyCounter(word, right, 0, right + 1);
            assertEquals(1L, window.notifyWait(me + 1, 1));
            assertEquals(77L, window.segment().get(ValueLayout.JAVA_LONG, 0));
            job.barrier();
            window.notifyDetach();
            expect(ErrorClass.RMA_NOTIF_RANGE, () -> window.notifyGetValue(0));
            window.free();
            expect(ErrorClass.WIN, () -> window.notifyGetValue(0));
            expect(ErrorClass.WIN, () -> window.putNotifyCounter(word, right, 0, 0));
        }
    }

    /**
     * Collective attach with a different count at each rank; every rank increments every counter of every rank;
     * set, get and test; detach removes the files; attach again with other counts; free removes them too.
     */
    static void attachDetach(final RmaJob job) {
        final int n = job.size();
        final int me = job.rank();
        final Path directory = job.directory().path();
        try (Window window = Scenarios.allocate(job, 8, 8)) {
            for (int round = 0; round < 2; round++) {
                final int mine = round == 0 ? me + 1 : n - me;
                window.notifyAttach(mine);
                assertTrue(counterFiles(directory) >= 1, "this rank's counter file exists");
                for (int t = 0; t < n; t++) {
                    final int target = t;
                    final int count = round == 0 ? target + 1 : n - target;
                    for (int i = 0; i < count; i++) {
                        window.putNotifyCounter(MemorySegment.NULL, target, 0, i);
                    }
                    expect(ErrorClass.RMA_NOTIF_RANGE,
                        () -> window.putNotifyCounter(MemorySegment.NULL, target, 0, count));
                }
                for (int i = 0; i < mine; i++) {
                    assertEquals(n, window.notifyWait(i, n));
                    assertTrue(window.notifyTest(i, n));
                    assertFalse(window.notifyTest(i, n + 1));
                    window.notifySetValue(i, 100L * i);
                    assertEquals(100L * i, window.notifyGetValue(i));
                    assertTrue(window.notifyTest(i, 100L * i));
                }
                job.barrier();
                window.notifyDetach();
                job.barrier();
                assertEquals(0, counterFiles(directory), "detach removed every counter file");
                job.barrier();
            }
            window.notifyAttach(3);
            window.putNotifyCounter(MemorySegment.NULL, (me + 1) % n, 0, 2);
            assertEquals(1, window.notifyWait(2, 1));
            window.free();
        }
        job.barrier();
        assertEquals(0, counterFiles(directory), "free removed every counter file");
    }

    private static int counterFiles(final Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return (int)files.filter(file -> file.getFileName().toString().contains("-counters-")).count();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RmaException expect(final ErrorClass errorClass, final WindowScenarios.ThrowingRunnable call) {
        final RmaException e = assertThrows(RmaException.class, call::run);
        assertEquals(errorClass, e.errorClass(), e.getMessage());
        return e;
    }
}
