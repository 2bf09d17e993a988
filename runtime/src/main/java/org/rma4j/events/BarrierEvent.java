package org.rma4j.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/**
 * A barrier of the job (MPI_BARRIER) waiting for the other ranks
 */
@Name("org.rma4j.Barrier")
@Label("Barrier")
@Description("A barrier of the job (MPI_BARRIER) waiting for the other ranks")
@Threshold(Waits.DEFAULT_THRESHOLD)
final class BarrierEvent extends RmaWaitEvent {
}
