package org.rma4j;

import java.io.Serial;

/**
 * Misuse of an rma4j call: carries the MPI {@link ErrorClass} and a message with the offending
 * values, e.g. {@code MPI_ERR_RMA_RANGE: target_disp=4096 + length=64 exceeds window size 4096 of
 * rank 3}. A call that throws it has changed no window, epoch or queue.
 */
public class RmaException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final ErrorClass errorClass;
    /** Whether a window's error handler has seen it (a nested call does not handle it twice). */
    private transient boolean handled;

    public RmaException(final ErrorClass errorClass, final String message) {
        super(errorClass.mpiName() + ": " + message);
        this.errorClass = errorClass;
    }

    public RmaException(final ErrorClass errorClass, final String message, final Throwable cause) {
        super(errorClass.mpiName() + ": " + message, cause);
        this.errorClass = errorClass;
    }

    /**
     * @return the MPI error class.
     */
    public ErrorClass errorClass() {
        return errorClass;
    }

    /**
     * Marks this exception as seen by a window's error handler.
     *
     * @return whether it was seen before.
     */
    boolean markHandled() {
        final boolean before = handled;
        handled = true;
        return before;
    }
}
