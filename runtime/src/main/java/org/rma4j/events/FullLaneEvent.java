package org.rma4j.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/**
 * A notified access waiting for room in its full notification lane at the target.
 */
@Name("org.rma4j.FullNotifyLane")
@Label("Full Notification Lane")
@Description("A notified access waiting for room in its full notification lane at the target")
@Threshold(Waits.DEFAULT_THRESHOLD)
final class FullLaneEvent extends RmaWaitEvent {
}
