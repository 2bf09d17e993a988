package org.rma4j.shm;

import org.rma4j.test.FutexSleepers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.rma4j.test.ShmTestDirectory;

@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FutexTest {
    /** Far longer than any test may take: a sleeper that returns did not time out. */
    private static final long LONG_TIMEOUT_NS = TimeUnit.MINUTES.toNanos(10);
    private static final long WORD = 128;

    private ShmTestDirectory shm;
    private MemorySegment segment;

    @BeforeEach
    void setUp() throws Exception {
        shm = new ShmTestDirectory();
        segment = ShmFiles.create(shm, "futex", 4096).segment();
    }

    @AfterEach
    void tearDown() throws Exception {
        shm.close();
    }

    @Test
    @EnabledOnOs(value = OS.LINUX, architectures = {"amd64", "x86_64", "aarch64"})
    void shouldBeAvailableOnLinuxWithNativeAccess() {
        assertTrue(Futex.isAvailable(), "the test JVM runs with --enable-native-access=ALL-UNNAMED");
    }

    @Test
    void shouldWakeSleeperAfterValueChange() throws Exception {
        final Future<Boolean> sleeper = shm.submit(() -> Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS));
        FutexSleepers.await(segment, WORD, 1);

        Words.putIntVolatile(segment, WORD, 1);
        Futex.wake(segment, WORD, Integer.MAX_VALUE);

        assertTrue(sleeper.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS), "woken, not timed out");
    }

    @Test
    void shouldReturnFromWaitWhenWokenWithValueUnchanged() throws Exception {
        final Future<Boolean> sleeper = shm.submit(() -> Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS));
        FutexSleepers.await(segment, WORD, 1);

        // The value stays 0 throughout, so only this wake can end the sleep before its timeout.
        Futex.wake(segment, WORD, 1);

        assertTrue(sleeper.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS), "woken, not timed out");
        assertEquals(0, Words.getIntVolatile(segment, WORD));
    }

    @Test
    void shouldWakeSleeperThroughAnotherMappingOfTheSameFile() throws Exception {
        final MemorySegment other = ShmFiles.open(shm, "futex").segment();
        final Future<Boolean> sleeper = shm.submit(() -> Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS));
        FutexSleepers.await(segment, WORD, 1);

        Futex.wake(other, WORD, 1);

        assertTrue(sleeper.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS), "woken, not timed out");
        assertEquals(0, Words.getIntVolatile(other, WORD), "woken by the wake, not by a change of the value");
    }

    @Test
    void shouldWakeOnlyAsManySleepersAsCounted() throws Exception {
        final Future<Boolean> first = shm.submit(() -> Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS));
        final Future<Boolean> second = shm.submit(() -> Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS));
        FutexSleepers.await(segment, WORD, 2);

        Futex.wake(segment, WORD, 1);
        ShmTestDirectory.awaitCondition(() -> first.isDone() || second.isDone(), "one sleeper to return");

        assertEquals(1, FutexSleepers.count(segment, WORD), "the other sleeper still sleeps");
        Futex.wake(segment, WORD, 1);
        assertTrue(first.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertTrue(second.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void shouldReturnAtOnceWhenValueDiffersFromExpected() throws Exception {
        Words.putIntVolatile(segment, WORD, 7);

        final Future<Boolean> waiter = shm.submit(() -> Futex.wait(segment, WORD, 6, LONG_TIMEOUT_NS));

        assertTrue(waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS), "not a timeout");
        assertEquals(7, Words.getIntVolatile(segment, WORD));
    }

    @Test
    void shouldReportTimeoutWhenNobodyWakes() throws Exception {
        final Future<Boolean> waiter = shm.submit(() -> Futex.wait(segment, WORD, 0, TimeUnit.MILLISECONDS.toNanos(1)));

        assertFalse(waiter.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS),
            "the sleep ran out its timeout");
        assertEquals(0, Words.getIntVolatile(segment, WORD));
    }

    @Test
    void shouldWakeEverySleeperWithLargeCount() throws Exception {
        final int sleepers = 3;
        final List<Future<Boolean>> returned = new ArrayList<>();
        for (int i = 0; i < sleepers; i++) {
            returned.add(shm.submit(() -> Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS)));
        }
        FutexSleepers.await(segment, WORD, sleepers);

        Futex.wake(segment, WORD, Integer.MAX_VALUE);

        for (final Future<Boolean> sleeper : returned) {
            assertTrue(sleeper.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS), "woken, not timed out");
        }
    }

    @Test
    void shouldDoNothingWhenWakingWordWithoutSleepers() {
        Words.putInt(segment, WORD, 3);

        Futex.wake(segment, WORD, Integer.MAX_VALUE);

        assertEquals(3, Words.getIntVolatile(segment, WORD));
    }

    @Test
    void shouldRejectHeapSegment() {
        assumeTrue(Futex.isAvailable(), "without the syscall nothing is passed to the kernel");
        final MemorySegment heap = MemorySegment.ofArray(new int[4]);

        assertThrows(IllegalStateException.class, () -> Futex.wake(heap, 0, 1));
        assertThrows(IllegalStateException.class, () -> Futex.wait(heap, 0, 1, 1_000L));
    }

    @Test
    void shouldRejectSegmentOfClosedArena() {
        final MemorySegment closed;
        try (Arena arena = Arena.ofConfined()) {
            closed = arena.allocate(8, 8);
        }
        assertFalse(closed.scope().isAlive());
        assumeTrue(Futex.isAvailable(), "without the syscall nothing is passed to the kernel");

        assertThrows(IllegalStateException.class, () -> Futex.wake(closed, 0, 1));
    }
}
