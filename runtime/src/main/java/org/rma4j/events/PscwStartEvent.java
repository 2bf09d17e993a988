package org.rma4j.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/**
 * A start (MPI_WIN_START) waiting for the posts of its group
 */
@Name("org.rma4j.PscwStart")
@Label("PSCW Start")
@Description("A start (MPI_WIN_START) waiting for the posts of its group")
@Threshold(Waits.DEFAULT_THRESHOLD)
final class PscwStartEvent extends RmaWaitEvent {
}
