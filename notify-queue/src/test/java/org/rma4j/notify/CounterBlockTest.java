package org.rma4j.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.rma4j.shm.Align;
import org.rma4j.shm.FileHeader;
import org.rma4j.shm.Liveness;
import org.rma4j.shm.MappedFile;
import org.rma4j.shm.ShmFormatException;
import org.rma4j.shm.WaitStrategy;
import org.rma4j.shm.WaitWords;
import org.rma4j.shm.Words;
import org.rma4j.test.FutexSleepers;
import org.rma4j.test.ShmTestDirectory;

class CounterBlockTest {
    @RegisterExtension
    final ShmTestDirectory shm = new ShmTestDirectory("rma4j-counter-test-");

    @Test
    void shouldKeepHeaderSignalAndEachCounterOnLinesOfTheirOwn() {
        assertTrue(CounterBlockLayout.COUNT_OFFSET + Integer.BYTES <= CounterBlockLayout.SIGNAL_OFFSET);
        assertEquals(0, CounterBlockLayout.SIGNAL_OFFSET % Align.PAD);
        assertTrue(
            CounterBlockLayout.SIGNAL_OFFSET + WaitWords.LENGTH
                + Align.CACHE_LINE <= CounterBlockLayout.COUNTERS_OFFSET,
            "the signal word is two lines from counter 0");
        assertEquals(Align.CACHE_LINE, CounterBlockLayout.counterOffset(1) - CounterBlockLayout.counterOffset(0));
        assertEquals(CounterBlockLayout.counterOffset(3), CounterBlockLayout.lengthBytes(3));
        assertThrows(IllegalArgumentException.class, () -> CounterBlockLayout.checkCount(-1));
        assertThrows(IllegalArgumentException.class,
            () -> CounterBlockLayout.checkCount(CounterBlockLayout.MAX_COUNT + 1));
    }

    @Test
    void shouldShareCountersBetweenCreatorAndOpener() {
        final Path path = shm.path("block");
        try (CounterBlock owner = CounterBlock.create(path, 3); CounterBlock origin = CounterBlock.open(path)) {
            assertEquals(3, origin.count());
            assertEquals(1, origin.incrementAndSignal(2));
            assertEquals(2, origin.incrementAndSignal(2));
            assertEquals(2, owner.getCounterAcquire(2));
            assertEquals(0, owner.getCounterVolatile(0));
            owner.putCounterVolatileAndSignal(0, 41);
            assertEquals(42, origin.incrementAndSignal(0));
            assertThrows(IndexOutOfBoundsException.class, () -> origin.incrementAndSignal(3));
            assertThrows(IndexOutOfBoundsException.class, () -> owner.getCounterAcquire(-1));
            assertEquals(0, owner.sleepers());
            owner.unlink();
            assertFalse(Files.exists(path));
            assertEquals(43, origin.incrementAndSignal(0), "the mappings outlive the name");
        }
    }

    @Test
    void shouldRefuseAFileThatIsNotAPublishedBlock() {
        final Path unpublished = shm.path("unpublished");
        try (MappedFile file = MappedFile.create(unpublished, CounterBlockLayout.lengthBytes(1))) {
            assertThrows(ShmFormatException.class, () -> CounterBlock.open(unpublished));
            Words.putInt(file.segment(), CounterBlockLayout.COUNT_OFFSET, 5);
            FileHeader.publish(file.segment(), CounterBlockLayout.MAGIC, CounterBlockLayout.VERSION);
            final ShmFormatException e = assertThrows(ShmFormatException.class, () -> CounterBlock.open(unpublished));
            assertTrue(e.getMessage().contains("counter count 5"), e.getMessage());
            file.unlink();
        }
        final Path other = shm.path("other");
        try (MappedFile file = MappedFile.create(other, CounterBlockLayout.lengthBytes(1))) {
            FileHeader.publish(file.segment(), CounterBlockLayout.MAGIC + 1, CounterBlockLayout.VERSION);
            assertThrows(ShmFormatException.class, () -> CounterBlock.open(other));
            file.unlink();
        }
    }

    @Test
    void shouldWakeAWaiterAsleepOnTheBlockWhenItsCounterIsReached() throws Exception {
        final Path path = shm.path("sleep");
        try (CounterBlock owner = CounterBlock.create(path, 2); CounterBlock origin = CounterBlock.open(path)) {
            final WaitStrategy strategy = new WaitStrategy(WaitStrategy.Kind.BACKOFF, 10, 10);
            final Future<Long> woken = CompletableFuture.supplyAsync(() -> owner.await(1, 2, strategy, Liveness.NONE));
            FutexSleepers.await(owner.segment(), CounterBlockLayout.SIGNAL_OFFSET, 1);
            final int signal = Words.getIntVolatile(owner.segment(), CounterBlockLayout.SIGNAL_OFFSET);
            origin.incrementAndSignal(1);
            origin.incrementAndSignal(0);
            origin.incrementAndSignal(1);
            assertEquals(2L, woken.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
            assertTrue(Words.getIntVolatile(owner.segment(), CounterBlockLayout.SIGNAL_OFFSET) != signal,
                "an increment bumped the signal word for the announced sleeper");
            assertEquals(0, owner.sleepers());
            final int quiet = Words.getIntVolatile(owner.segment(), CounterBlockLayout.SIGNAL_OFFSET);
            origin.incrementAndSignal(0);
            assertEquals(quiet, Words.getIntVolatile(owner.segment(), CounterBlockLayout.SIGNAL_OFFSET),
                "with nobody asleep an increment leaves the signal word alone");
            owner.unlink();
        }
    }
}
