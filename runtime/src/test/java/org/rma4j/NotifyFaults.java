package org.rma4j;

import org.rma4j.notify.LaneProducer;

/**
 * Test access to the notification lanes behind a {@link Window}, for fault-injection tests in other
 * packages (the hooks it calls are package-private).
 */
public final class NotifyFaults {
    private NotifyFaults() {
    }

    /**
     * @return the calling rank's producer of its lane at {@code target} in {@code window}.
     */
    public static LaneProducer outgoingLane(final Window window, final int target) {
        return window.notifications().sends.outgoingLane(target);
    }
}
