package org.rma4j.examples.notified;

import java.lang.foreign.MemorySegment;
import org.rma4j.messaging.MessageRequest;
import org.rma4j.messaging.Messaging;
import org.rma4j.RmaJob;

/**
 * The message-passing {@link ReductionChannel} of {@link TreeReduction}: a parent posts one
 * nonblocking receive per child (in whatever order they come) and waits for all; a child sends its
 * partial sum to its parent, over {@link Messaging}.
 */
final class ReductionSendRecv implements ReductionChannel {
    private final Messaging messaging;
    private final int rank;
    private final long[][] received;
    private final MessageRequest[] requests;

    /**
     * Collective: creates the job's messaging layer.
     */
    ReductionSendRecv(final RmaJob job, final int length) {
        this.messaging = Messaging.create(job);
        this.rank = job.rank();
        final int children = TreeShape.childCount(rank, job.size());
        this.received = new long[children][length];
        this.requests = new MessageRequest[children];
    }

    @Override
    public void addChildren(final int round, final long[] partial) {
        final int first = TreeShape.firstChild(rank);
        for (int child = 0; child < received.length; child++) {
            requests[child] = messaging.irecv(MemorySegment.ofArray(received[child]), first + child,
                ReductionChannels.TAG);
        }
        MessageRequest.waitAll(requests);
        for (final long[] childSum : received) {
            for (int i = 0; i < partial.length; i++) {
                partial[i] += childSum[i];
            }
        }
    }

    @Override
    public void deliver(final int round, final long[] partial) {
        messaging.send(partial, 0, partial.length, TreeShape.parent(rank), ReductionChannels.TAG);
    }

    @Override
    public void close() {
        messaging.close();
    }
}
