package org.rma4j.shm;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.rma4j.test.ShmTestDirectory;

/**
 * The lockstep check of a barrier, shared by the barrier tests: each party, on its own mapping of the
 * file (as a process would have), stores the round number in its slot with a plain store, awaits, checks
 * that every party's slot holds the round, and awaits again before the next round.
 */
final class Lockstep {
    /** Builds one party's barrier over its own mapping. */
    @FunctionalInterface
    interface BarrierFactory {
        Runnable create(MemorySegment mapping, int party, Liveness liveness);
    }

    private Lockstep() {
    }

    /**
     * @return offset of a party's slot in the file (the barrier under test must lie beyond the slots).
     */
    static long slot(final int party) {
        return (long)party * Align.PAD;
    }

    /**
     * Runs {@code rounds} lockstep rounds of {@code parties} threads over the file {@code file}. A party
     * that fails makes the others' liveness checks fail, so nobody waits for it.
     *
     * @return the violations seen (empty when the barrier keeps every party in lockstep).
     */
    static List<String> run(final ShmTestDirectory shm, final String file, final int parties, final int rounds,
        final BarrierFactory barriers) throws Exception {
        final Queue<String> violations = new ConcurrentLinkedQueue<>();
        final AtomicBoolean aborted = new AtomicBoolean();
        final Liveness abortWhenAPartyFailed = () -> {
            if (aborted.get()) {
                throw new PeerFailedException(-1, "another party of the test failed");
            }
        };
        final List<Future<Void>> futures = new ArrayList<>();
        for (int p = 0; p < parties; p++) {
            final int party = p;
            final MemorySegment mine = ShmFiles.open(shm, file).segment();
            futures.add(shm.submit(() -> {
                final Runnable barrier = barriers.create(mine, party, abortWhenAPartyFailed);
                try {
                    for (int round = 1; round <= rounds; round++) {
                        // A plain store: the barrier alone must make it visible.
                        Words.putInt(mine, slot(party), round);
                        barrier.run();
                        for (int other = 0; other < parties; other++) {
                            final int seen = Words.getInt(mine, slot(other));
                            if (seen != round) {
                                violations.add("party " + party + " in round " + round + " saw " + seen
                                    + " in the slot of party " + other);
                            }
                        }
                        // Nobody may write the next round's value before everybody has checked this one.
                        barrier.run();
                    }
                    return null;
                } catch (final RuntimeException | Error e) {
                    aborted.set(true);
                    throw e;
                }
            }));
        }
        for (final Future<Void> future : futures) {
            future.get(ShmTestDirectory.EVENT_TIMEOUT_SECONDS * 4, TimeUnit.SECONDS);
        }
        return List.copyOf(violations);
    }
}
