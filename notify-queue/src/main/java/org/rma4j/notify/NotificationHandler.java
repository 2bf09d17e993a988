package org.rma4j.notify;

/**
 * Receives the notifications a {@link NotifyLanes} consumer takes from its lanes.
 */
@FunctionalInterface
public interface NotificationHandler {
    /**
     * Called once per notification, in delivery order (per lane FIFO), on the consumer's thread.
     *
     * @param notification a view of the lane's slot, valid only during this call; keep
     *                     {@link Notification#copy()} to retain it. If this method throws, the entry
     *                     counts as consumed and the exception propagates out of the poll.
     */
    void onNotification(Notification notification);
}
