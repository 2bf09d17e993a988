package org.rma4j.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/**
 * A lock or lockAll (MPI_WIN_LOCK, MPI_WIN_LOCK_ALL) waiting for a lock held by another rank
 */
@Name("org.rma4j.LockWait")
@Label("Lock Wait")
@Description("A lock or lockAll (MPI_WIN_LOCK, MPI_WIN_LOCK_ALL) waiting for a lock held by another rank")
@Threshold(Waits.DEFAULT_THRESHOLD)
final class LockWaitEvent extends RmaWaitEvent {
}
