package org.rma4j;

import org.rma4j.notify.NotifyRing;

/**
 * Test access to the notification rings behind a {@link Window}, for fault-injection tests in other
 * packages (the hooks it calls are package-private).
 */
public final class NotifyFaults {
    private NotifyFaults() {
    }

    /**
     * @return the calling rank's producer handle on {@code target}'s notification ring of {@code window}.
     */
    public static NotifyRing outgoingRing(final Window window, final int target) {
        return window.notifications().outgoingRing(target);
    }

    /**
     * @return slots of this rank's ring of {@code window} that were given up because their producer died
     *         before publishing them.
     */
    public static long skippedSlots(final Window window) {
        return window.notifications().skippedSlots();
    }
}
