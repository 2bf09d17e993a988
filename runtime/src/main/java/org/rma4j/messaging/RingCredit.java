package org.rma4j.messaging;

/**
 * The receive side of the eager rings' flow control (see {@link Messaging}): how far this rank has
 * consumed each sender's bounce ring (in bytes since creation, wrap padding included), how far it
 * has told each sender, through the sender's credit word, and which senders asked for their credit (a
 * sender asks, with an empty notification, when its ring lacks room for its next message). A sender is
 * reported once a quarter of its ring is owed, or at once when it asked: so a stream of small messages, and
 * a ping-pong, cost one credit notification per quarter ring rather than one per message, and a rank never
 * blocks while a sender that waits for room is owed credit.
 */
final class RingCredit {
    /** Publishes the consumed total of one sender's ring into that sender's credit word. */
    @FunctionalInterface
    interface Report {
        void send(int source, long consumed);
    }

    private final long capacity;
    private final long[] consumed;
    private final long[] reported;
    private final boolean[] asked;
    private boolean owed;

    RingCredit(final int ranks, final long capacity) {
        this.capacity = capacity;
        this.consumed = new long[ranks];
        this.reported = new long[ranks];
        this.asked = new boolean[ranks];
    }

    /**
     * Records that the payload of {@code size} ring bytes at {@code position} of {@code source}'s ring has
     * been copied out.
     */
    void consume(final int source, final long position, final long size) {
        final long tail = consumed[source];
        // The sender skips to the ring's start when a payload does not fit before its end.
        consumed[source] = (position == tail % capacity ? tail : tail + capacity - tail % capacity) + size;
        owed = true;
    }

    /**
     * {@code source} asked for its credit: its ring here lacked room for its next message. Every payload it
     * wrote before asking has been consumed (its lane is FIFO, and a payload is consumed when its notification
     * is handled), so the next {@link #returnOwed} tells it everything it can wait for.
     */
    void ask(final int source) {
        asked[source] = true;
        owed = true;
    }

    /**
     * Reports, through {@code report}, each sender's consumed total that it has not been told yet and that
     * exceeds what it was told by at least {@code atLeast} bytes, or that the sender asked for (0: every owed
     * total). If a report throws, the credit stays owed (and that sender's total unreported).
     *
     * @return whether any total was reported.
     */
    boolean returnOwed(final Report report, final long atLeast) {
        if (!owed) {
            return false;
        }
        owed = false;
        boolean any = false;
        for (int source = 0; source < consumed.length; source++) {
            final long unreported = consumed[source] - reported[source];
            if (unreported != 0 && (unreported >= atLeast || asked[source])) {
                try {
                    report.send(source, consumed[source]);
                } catch (final RuntimeException e) {
                    owed = true;
                    throw e;
                }
                reported[source] = consumed[source];
                asked[source] = false;
                any = true;
            } else if (unreported != 0) {
                owed = true;
            } else {
                // NOTE: nothing unreported: the sender has been told (or a report is in its lane) all it waits for.
                asked[source] = false;
            }
        }
        return any;
    }
}
