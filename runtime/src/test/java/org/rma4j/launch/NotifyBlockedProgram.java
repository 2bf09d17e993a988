package org.rma4j.launch;

import org.rma4j.NotifyRequest;
import org.rma4j.Rma;
import org.rma4j.RmaJob;
import org.rma4j.Window;
import org.rma4j.messaging.Messaging;

/**
 * A job of two ranks that hangs in the waits of Notified Access and Messaging: rank 0 waits for a
 * notification from rank 1 with tag {@link #NOTIFY_TAG} on window 0, rank 1 in a Messaging receive from
 * rank 0 with tag {@link #MESSAGE_TAG}; neither is ever sent. Each rank prints {@code ready <pid>} just
 * before it blocks.
 */
public final class NotifyBlockedProgram {
    static final int NOTIFY_TAG = 7;
    static final int MESSAGE_TAG = 4;

    private NotifyBlockedProgram() {
    }

    public static void main(final String[] args) {
        final RmaJob job = Rma.init();
        final Window window = job.allocateShared(8, 8);
        final Messaging messaging = Messaging.create(job);
        System.out.println("ready " + ProcessHandle.current().pid());
        if (job.rank() == 0) {
            final NotifyRequest request = window.notifyInit(1, NOTIFY_TAG, 1);
            request.start();
            request.await();
        } else {
            messaging.recv(new long[1], 0, 1, 0, MESSAGE_TAG);
        }
    }
}
