package org.rma4j.messaging;

/**
 * The receive side of the eager rings' flow control (see {@link Messaging}): how far this rank has
 * consumed each sender's bounce ring (in bytes since creation, wrap padding included) and how far it
 * has told each sender, through the sender's credit word. After {@link MessagingEngine#progress()}
 * returns the two are equal, and a wait reports everything before it sleeps, so a rank never blocks while
 * owing credit; while it has work it reports a sender only once a quarter of that sender's ring is owed, so a
 * stream of small messages costs one credit notification per quarter ring rather than one per message.
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
    private boolean owed;

    RingCredit(final int ranks, final long capacity) {
        this.capacity = capacity;
        this.consumed = new long[ranks];
        this.reported = new long[ranks];
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
     * Reports, through {@code report}, each sender's consumed total that it has not been told yet and that
     * exceeds what it was told by at least {@code atLeast} bytes (0: every owed total). If a report throws,
     * the credit stays owed (and that sender's total unreported).
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
            if (unreported != 0 && unreported >= atLeast) {
                try {
                    report.send(source, consumed[source]);
                } catch (final RuntimeException e) {
                    owed = true;
                    throw e;
                }
                reported[source] = consumed[source];
                any = true;
            } else if (unreported != 0) {
                owed = true;
            }
        }
        return any;
    }
}
