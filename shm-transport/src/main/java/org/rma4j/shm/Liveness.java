package org.rma4j.shm;

/**
 * A check that the peers a waiter depends on are still alive, run by {@link WaitStrategy} while it
 * sleeps (at least every {@link WaitStrategy#LIVENESS_PERIOD_NS}).
 */
@FunctionalInterface
public interface Liveness {
    /** A check that never fails, for waits that depend on no peer. */
    Liveness NONE = () -> {
    };

    /**
     * @throws PeerFailedException naming the first peer found dead.
     */
    void check();
}
