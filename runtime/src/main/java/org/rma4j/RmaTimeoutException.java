package org.rma4j;

import java.io.Serial;

/**
 * A blocking call waited longer than the job's wait timeout ({@code -Drma4j.wait.timeout.ms}, or
 * {@link WaitOptions#withTimeout(java.time.Duration)} in thread mode). Error class {@link ErrorClass#OTHER};
 * {@link #waitedFor()} says what the call waited for, {@link #waitedNs()} how long.
 *
 * <p>The awaited state itself is unchanged, but a collective call that timed out leaves the rank out
 * of step with its peers (see {@link RmaJob}).
 */
public final class RmaTimeoutException extends RmaException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String waitedFor;
    private final long waitedNs;

    /**
     * @param waitedFor what the call waited for, e.g. "lock(EXCLUSIVE, 1) (lock word exclusive by rank 0)".
     * @param waitedNs  how long it waited, in nanoseconds.
     * @param cause     the lower-layer exception that reported it, or null.
     */
    public RmaTimeoutException(final String waitedFor, final long waitedNs, final Throwable cause) {
        super(ErrorClass.OTHER, "timed out after " + waitedNs / 1_000_000 + " ms waiting for " + waitedFor, cause);
        this.waitedFor = waitedFor;
        this.waitedNs = waitedNs;
    }

    /**
     * @return what the call waited for.
     */
    public String waitedFor() {
        return waitedFor;
    }

    /**
     * @return how long the call waited, in nanoseconds.
     */
    public long waitedNs() {
        return waitedNs;
    }
}
