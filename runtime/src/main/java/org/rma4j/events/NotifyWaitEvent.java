package org.rma4j.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/**
 * A notification request's await, waitAny or waitAll waiting for notified accesses
 */
@Name("org.rma4j.NotifyWait")
@Label("Notification Wait")
@Description("A notification request's await, waitAny or waitAll waiting for notified accesses")
@Threshold(Waits.DEFAULT_THRESHOLD)
final class NotifyWaitEvent extends RmaWaitEvent {
}
