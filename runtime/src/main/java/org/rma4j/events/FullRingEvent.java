package org.rma4j.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/**
 * A notified access waiting for room in the target's full notification ring
 */
@Name("org.rma4j.FullNotifyRing")
@Label("Full Notification Ring")
@Description("A notified access waiting for room in the target's full notification ring")
@Threshold(Waits.DEFAULT_THRESHOLD)
final class FullRingEvent extends RmaWaitEvent {
}
