package org.rma4j.messaging;

/**
 * Test access to the Messaging layer's fault hooks, for tests outside this package.
 */
public final class MessagingFaults {
    private MessagingFaults() {
    }

    /**
     * Makes the next notified transfer of {@code messaging} throw, as a transfer that timed out would.
     */
    public static void failNextTransfer(final Messaging messaging) {
        MessagingEngine.failNextTransfer = messaging.engine();
    }
}
