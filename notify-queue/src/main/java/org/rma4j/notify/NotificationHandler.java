package org.rma4j.notify;

/**
 * Receives the notifications a {@link NotifyRing} consumer takes from its ring.
 */
@FunctionalInterface
public interface NotificationHandler {
    /**
     * Called once per notification, in ring order, on the consumer's thread.
     *
     * @param notification a view of the ring slot, valid only during this call; keep
     *                     {@link Notification#copy()} to retain it. If this method throws, the entry
     *                     counts as consumed and the exception propagates out of the poll.
     */
    void onNotification(Notification notification);
}
