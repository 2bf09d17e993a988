package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FutexTest {
    /** Far longer than any test may take: a sleeper that returns did not time out. */
    private static final long LONG_TIMEOUT_NS = TimeUnit.MINUTES.toNanos(10);
    private static final long WORD = 128;

    private TestShm shm;
    private MemorySegment segment;

    @BeforeEach
    void setUp() throws Exception {
        shm = new TestShm();
        segment = shm.create("futex", 4096).segment();
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
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch returned = new CountDownLatch(1);
        shm.submit(() -> {
            started.countDown();
            Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS);
            returned.countDown();
            return null;
        });
        assertTrue(started.await(TestShm.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));

        Words.putIntVolatile(segment, WORD, 1);
        Futex.wake(segment, WORD, Integer.MAX_VALUE);

        // Either the sleeper was woken, or it had not slept yet and the kernel saw the new value.
        assertTrue(returned.await(TestShm.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS),
            "the sleeper was still waiting for its 10-minute timeout");
    }

    @Test
    void shouldReturnFromWaitWhenWokenWithValueUnchanged() throws Exception {
        final CountDownLatch returned = new CountDownLatch(1);
        shm.submit(() -> {
            Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS);
            returned.countDown();
            return null;
        });

        // The value stays 0 throughout, so only a wake can end the sleep before its timeout. A wake
        // issued before the thread sleeps is lost; repeat until it lands.
        do {
            Futex.wake(segment, WORD, 1);
        } while (!returned.await(5, TimeUnit.MILLISECONDS));

        assertEquals(0, Words.getIntVolatile(segment, WORD));
    }

    @Test
    void shouldWakeSleeperThroughAnotherMappingOfTheSameFile() throws Exception {
        final MemorySegment other = shm.open("futex").segment();
        final CountDownLatch returned = new CountDownLatch(1);
        shm.submit(() -> {
            Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS);
            returned.countDown();
            return null;
        });

        do {
            Futex.wake(other, WORD, 1);
        } while (!returned.await(5, TimeUnit.MILLISECONDS));

        assertEquals(0, Words.getIntVolatile(other, WORD), "woken by the wake, not by a change of the value");
    }

    @Test
    void shouldReturnAtOnceWhenValueDiffersFromExpected() throws Exception {
        Words.putIntVolatile(segment, WORD, 7);

        final Future<Integer> waiter = shm.submit(() -> {
            Futex.wait(segment, WORD, 6, LONG_TIMEOUT_NS);
            return Words.getIntVolatile(segment, WORD);
        });

        assertEquals(7, waiter.get(TestShm.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void shouldReturnAfterTimeoutWhenNobodyWakes() throws Exception {
        final Future<Integer> waiter = shm.submit(() -> {
            Futex.wait(segment, WORD, 0, TimeUnit.MILLISECONDS.toNanos(1));
            return Words.getIntVolatile(segment, WORD);
        });

        assertEquals(0, waiter.get(TestShm.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void shouldWakeEverySleeperWithLargeCount() throws Exception {
        final int sleepers = 3;
        final CountDownLatch returned = new CountDownLatch(sleepers);
        for (int i = 0; i < sleepers; i++) {
            shm.submit(() -> {
                Futex.wait(segment, WORD, 0, LONG_TIMEOUT_NS);
                returned.countDown();
                return null;
            });
        }

        do {
            Futex.wake(segment, WORD, Integer.MAX_VALUE);
        } while (!returned.await(5, TimeUnit.MILLISECONDS));

        assertEquals(0, returned.getCount());
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
