package org.rma4j.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;
import org.rma4j.shm.BiasedLock;

/**
 * The process-local lock that guards a rank's notification lane ({@link BiasedLock}, shm-transport): its first
 * taker holds it with a plain store and a load, no atomic instruction, until another thread revokes the bias
 * with one membarrier. Two threads each increment a plain counter under a fresh lock: the first becomes the
 * owner, the second revokes while the owner may be inside.
 */
public final class BiasedLockExclusion {
    private BiasedLockExclusion() {
    }

    @JCStressTest
    @Description("Two threads each take a fresh biased lock (spinning on NOT_TAKEN), read a plain counter, "
        + "write it plus one and release; r1 = the counter after both, r2 = how many took the fast path.")
    @Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "The owner took its fast path, the other revoked and used CAS.")
    @Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "The second thread revoked before the owner's first entry.")
    @Outcome(id = "1, .*", expect = FORBIDDEN, desc = "Both held the lock at once: an increment was lost.")
    @Outcome(expect = FORBIDDEN, desc = "Anything else.")
    @State
    public static class TwoThreads {
        private final BiasedLock lock = new BiasedLock();
        private int counter;
        private int fast;

        @Actor
        public void first() {
            increment();
        }

        @Actor
        public void second() {
            increment();
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            r.r1 = counter;
            r.r2 = fast;
        }

        private void increment() {
            int taken;
            while ((taken = lock.tryLock()) == BiasedLock.NOT_TAKEN) {
                Thread.onSpinWait();
            }
            counter = counter + 1;
            if (taken == BiasedLock.TAKEN_BIASED) {
                fast++;
            }
            lock.unlock(taken);
        }
    }
}
