package org.rma4j.examples.notified;

import org.rma4j.messaging.Messaging;
import org.rma4j.RmaJob;

/**
 * The message-passing {@link PipelineChannel} of {@link PipelinedStencil}, PRK's original MPI1
 * Sync_p2p: a blocking receive of row j's boundary value from the left neighbour with tag j, a
 * blocking send of this rank's last value to the right one, and the corner with tag
 * {@link PipelineChannels#CORNER_TAG}, over {@link Messaging}.
 */
final class PipelineSendRecv implements PipelineChannel {
    private final Messaging messaging;
    private final int rank;
    private final int last;
    private final double[] value = new double[1];

    /**
     * Collective: creates the job's messaging layer.
     */
    PipelineSendRecv(final RmaJob job) {
        this.messaging = Messaging.create(job);
        this.rank = job.rank();
        this.last = job.size() - 1;
    }

    @Override
    public void beginPass(final int pass) {
    }

    @Override
    public double receiveLeft(final int row) {
        messaging.recv(value, 0, 1, rank - 1, row);
        return value[0];
    }

    @Override
    public void sendRight(final int row, final double rowValue) {
        value[0] = rowValue;
        messaging.send(value, 0, 1, rank + 1, row);
    }

    @Override
    public void sendCorner(final double cornerValue) {
        value[0] = cornerValue;
        messaging.send(value, 0, 1, 0, PipelineChannels.CORNER_TAG);
    }

    @Override
    public double receiveCorner() {
        messaging.recv(value, 0, 1, last, PipelineChannels.CORNER_TAG);
        return value[0];
    }

    @Override
    public void close() {
        messaging.close();
    }
}
