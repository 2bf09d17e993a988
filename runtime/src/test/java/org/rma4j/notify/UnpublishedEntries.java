package org.rma4j.notify;

/**
 * Fault injection for the runtime's reliability tests: writes the next entry of a {@link LaneProducer}'s lane
 * and stops before publishing it, so that its process can be killed between writing and publishing (the
 * reliability suite's fault (d)). Test scope only; it lives in the lanes' package to reach the package-private
 * step {@code writeWithoutPublishing}, as the notify-queue module's tests do.
 */
public final class UnpublishedEntries {
    private UnpublishedEntries() {
    }

    /**
     * Writes every field of the lane's next entry, and never its stamp or doorbell.
     *
     * @return the index written, or -1 if the lane is full.
     */
    public static long write(final LaneProducer lane, final int source, final int tag, final long displacement,
        final int length) {
        return lane.writeWithoutPublishing(source, tag, displacement, length, 1);
    }
}
