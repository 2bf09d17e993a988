package org.rma4j.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/**
 * A Messaging send (MPI_SEND, MPI_WAIT on a send) waiting for credit or the receiver's acknowledgement
 */
@Name("org.rma4j.MessagingSend")
@Label("Messaging Send")
@Description("A Messaging send (MPI_SEND, MPI_WAIT on a send) waiting for credit or the receiver's acknowledgement")
@Threshold(Waits.DEFAULT_THRESHOLD)
final class MessagingSendEvent extends RmaWaitEvent {
}
