package org.rma4j.internal.mpi;

/**
 * A request that the target could not apply ({@link ActiveMessage#fail}): the error class code and message the
 * target's handler gave.
 */
public final class RemoteFailureException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;

    RemoteFailureException(final int status, final String message) {
        super(message);
        this.status = status;
    }

    /** @return the error class code the target gave. */
    public int status() {
        return status;
    }
}
