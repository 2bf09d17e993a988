package org.rma4j.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/**
 * A Messaging receive (MPI_RECV, MPI_WAIT on a receive) waiting for its message
 */
@Name("org.rma4j.MessagingReceive")
@Label("Messaging Receive")
@Description("A Messaging receive (MPI_RECV, MPI_WAIT on a receive) waiting for its message")
@Threshold(Waits.DEFAULT_THRESHOLD)
final class MessagingReceiveEvent extends RmaWaitEvent {
}
