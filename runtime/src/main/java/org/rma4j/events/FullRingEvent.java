package org.rma4j.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/**
 * A notified access waiting for room in its full notification lane at the target (the event keeps its
 * name from the time the lanes were one ring per target)
 */
@Name("org.rma4j.FullNotifyRing")
@Label("Full Notification Ring")
@Description("A notified access waiting for room in its full notification lane at the target")
@Threshold(Waits.DEFAULT_THRESHOLD)
final class FullRingEvent extends RmaWaitEvent {
}
