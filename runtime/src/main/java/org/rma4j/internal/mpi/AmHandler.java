package org.rma4j.internal.mpi;

/**
 * The target side of one window's active messages ({@link MpiLink#register}): applies a request of a remote
 * origin to this rank's memory of the window, as a local origin would (the same atomics, lock words,
 * counters and notification lanes), and replies when the origin waits for one.
 *
 * <p>Runs on whichever thread of the rank polls the link (an application thread inside a wait, or the
 * progress thread), one message at a time, holding the link's lock; it must not block.
 */
@FunctionalInterface
public interface AmHandler {
    /**
     * Handles one request.
     *
     * @return true if it is done (its reply, if it asked for one, sent through {@link ActiveMessage#reply});
     *         false if it must wait (a lock that is held, a full notification lane): the link keeps it, and
     *         every later request of the same origin, and offers it again at each poll.
     */
    boolean handle(ActiveMessage message);
}
