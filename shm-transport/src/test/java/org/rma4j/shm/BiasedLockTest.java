package org.rma4j.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BiasedLockTest {
    /** Bound of a handshake's wait: a hang guard, never a measure. */
    private static final long HANG_SECONDS = 60;

    @Test
    void shouldLetItsFirstTakerInOnTheFastPathAgainAndAgain() {
        assertTrue(Membarrier.isGlobalExpeditedSupported(), "membarrier is supported on this machine");
        final BiasedLock lock = new BiasedLock();
        for (int i = 0; i < 3; i++) {
            final int taken = lock.tryLock();
            assertEquals(BiasedLock.TAKEN_BIASED, taken);
            lock.unlock(taken);
        }
        assertTrue(lock.isBiased());
    }

    @Test
    void shouldMakeASecondThreadWaitForTheOwnerInsideAndThenTakeItByCas() throws Exception {
        final BiasedLock lock = new BiasedLock();
        final int owner = lock.tryLock();
        assertEquals(BiasedLock.TAKEN_BIASED, owner);
        final CompletableFuture<Integer> whileInside = CompletableFuture.supplyAsync(lock::tryLock);
        assertEquals(BiasedLock.NOT_TAKEN, whileInside.get(HANG_SECONDS, TimeUnit.SECONDS),
            "the owner is inside: the revoker must not enter");
        assertFalse(lock.isBiased(), "the second thread revoked the bias");
        lock.unlock(owner);
        final CompletableFuture<Integer> after = CompletableFuture.supplyAsync(() -> {
            final int taken = lock.tryLock();
            lock.unlock(taken);
            return taken;
        });
        assertEquals(BiasedLock.TAKEN_CAS, after.get(HANG_SECONDS, TimeUnit.SECONDS));
        final int again = lock.tryLock();
        assertEquals(BiasedLock.TAKEN_CAS, again, "after revocation the owner takes it by CAS too");
        assertEquals(BiasedLock.NOT_TAKEN,
            CompletableFuture.supplyAsync(lock::tryLock).get(HANG_SECONDS, TimeUnit.SECONDS), "held by CAS");
        lock.unlock(again);
    }

    @Test
    void shouldNeverBiasALockMadeUnbiasable() {
        final BiasedLock lock = new BiasedLock(false);
        final int taken = lock.tryLock();
        assertEquals(BiasedLock.TAKEN_CAS, taken);
        assertEquals(BiasedLock.NOT_TAKEN, lock.tryLock(), "not reentrant");
        lock.unlock(taken);
        assertFalse(lock.isBiased());
    }

    /**
     * Four threads, 200,000 increments each of a plain counter under the lock: none lost. The first thread to
     * arrive owns the bias until another revokes it, so both paths and the revocation race run.
     */
    @Test
    void shouldExcludeEveryOtherThreadAcrossTheRevocation() throws Exception {
        for (int round = 0; round < 20; round++) {
            final BiasedLock lock = new BiasedLock();
            final int threads = 4;
            final int increments = round == 0 ? 200_000 : 10_000;
            final long[] counter = {0};
            final CountDownLatch start = new CountDownLatch(1);
            final CompletableFuture<?>[] workers = new CompletableFuture<?>[threads];
            for (int t = 0; t < threads; t++) {
                workers[t] = CompletableFuture.runAsync(() -> {
                    try {
                        start.await();
                    } catch (final InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    for (int i = 0; i < increments; i++) {
                        int taken;
                        while ((taken = lock.tryLock()) == BiasedLock.NOT_TAKEN) {
                            Thread.onSpinWait();
                        }
                        counter[0]++;
                        lock.unlock(taken);
                    }
                }, command -> Thread.ofPlatform().start(command));
            }
            start.countDown();
            CompletableFuture.allOf(workers).get(HANG_SECONDS, TimeUnit.SECONDS);
            assertEquals((long)threads * increments, counter[0], "round " + round);
        }
    }
}
