package org.rma4j.shm;

import java.io.Serial;

/**
 * Thrown by a blocking call that waited longer than its {@link WaitStrategy#timeoutNs() timeout};
 * the message says what it waited for. The awaited state is unchanged: the call may be retried.
 */
public class WaitTimeoutException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final long waitedNs;

    /**
     * @param what     what the caller waited for.
     * @param waitedNs how long it waited.
     */
    public WaitTimeoutException(final String what, final long waitedNs) {
        super("timed out after " + waitedNs / 1_000_000 + " ms waiting for " + what);
        this.waitedNs = waitedNs;
    }

    /**
     * @return how long the caller waited, in nanoseconds.
     */
    public long waitedNs() {
        return waitedNs;
    }
}
