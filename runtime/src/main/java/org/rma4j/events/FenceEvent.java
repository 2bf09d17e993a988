package org.rma4j.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/**
 * A fence (MPI_WIN_FENCE) waiting for the other ranks of the window
 */
@Name("org.rma4j.Fence")
@Label("Fence")
@Description("A fence (MPI_WIN_FENCE) waiting for the other ranks of the window")
@Threshold(Waits.DEFAULT_THRESHOLD)
final class FenceEvent extends RmaWaitEvent {
}
