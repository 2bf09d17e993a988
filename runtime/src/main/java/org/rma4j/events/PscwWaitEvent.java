package org.rma4j.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/**
 * A wait (MPI_WIN_WAIT) waiting for the completes of its group
 */
@Name("org.rma4j.PscwWait")
@Label("PSCW Wait")
@Description("A wait (MPI_WIN_WAIT) waiting for the completes of its group")
@Threshold(Waits.DEFAULT_THRESHOLD)
final class PscwWaitEvent extends RmaWaitEvent {
}
