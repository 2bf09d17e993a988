package org.rma4j.launch;

import org.rma4j.shm.WaitState;

/**
 * The words of the launcher's reports for a published wait: {@link WaitState#describe()}, and for the
 * waits whose peer is a source and whose call number is a tag (notification waits and Messaging
 * receives and sends), e.g. {@code "notification wait on window 0, waiting for a notification from rank 1,
 * tag 7"} or {@code "Messaging recv, waiting for a message from any rank, any tag"}.
 */
final class WaitDescriptions {
    /** {@code Rma.ANY_SOURCE}, as a rank publishes it (this package does not see the runtime's constants). */
    private static final int ANY_SOURCE = -2;
    /** {@code Rma.ANY_TAG}. */
    private static final int ANY_TAG = -1;

    private WaitDescriptions() {
    }

    /**
     * @return the description of {@code wait} in a report.
     */
    static String describe(final WaitState wait) {
        return switch (wait.call()) {
            case NOTIFY_WAIT -> wait.call().callName() + (wait.window() >= 0 ? " on window " + wait.window() : "")
                + ", waiting for a notification from " + source(wait.peer()) + ", " + tag(wait.callNumber());
            case RECV -> wait.call().callName() + ", waiting for a message from " + source(wait.peer()) + ", "
                + tag(wait.callNumber());
            case SEND -> wait.call().callName() + " to rank " + wait.peer() + ", " + tag(wait.callNumber())
                + ", waiting for the receiver (credit or acknowledgement)";
            default -> wait.describe();
        };
    }

    /**
     * @return whether the wait is a collective call (waits for every rank that has not entered it): a
     *         notification wait or receive from any source is not.
     */
    static boolean collective(final WaitState wait) {
        return switch (wait.call()) {
            case NOTIFY_WAIT, RECV, SEND -> false;
            default -> wait.collective();
        };
    }

    private static String source(final int peer) {
        return peer == ANY_SOURCE || peer < 0 ? "any rank" : "rank " + peer;
    }

    private static String tag(final int tag) {
        return tag == ANY_TAG || tag < 0 ? "any tag" : "tag " + tag;
    }
}
